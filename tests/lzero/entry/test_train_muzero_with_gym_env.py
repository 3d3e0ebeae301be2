"""End-to-end: a tiny MuZero run on CartPole writes its outputs, reproducibly; config errors."""

from __future__ import annotations

import argparse
import copy
import csv
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import lzero.entry  # noqa: E402
import lzero.envs  # noqa: E402
from lzero.cli_train import add_train_subcommand  # noqa: E402
from lzero.entry import eval_muzero_with_gym_env, train_muzero_with_gym_env  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402

TINY_MAIN = dict(
    exp_name="tiny",
    env=dict(
        env_id="CartPole-v0",
        collector_env_num=2,
        evaluator_env_num=2,
        n_evaluator_episode=2,
        stop_value=1e9,
    ),
    policy=dict(
        model=dict(
            observation_shape=4,
            action_space_size=2,
            latent_state_dim=16,
            hidden_size=32,
            head_hidden_size=16,
            support_scale=20,
        ),
        num_simulations=4,
        batch_size=16,
        num_unroll_steps=3,
        td_steps=3,
        game_segment_length=10,
        n_episode=2,
        eval_freq=10,
        save_ckpt_freq=20,
    ),
)
TINY_CREATE = dict(
    env_manager=dict(type="base"), policy=dict(type="muzero", import_names=["lzero.policy.muzero"])
)


def tiny(tmp_path, name="run", **policy):
    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / name)
    main["policy"].update(policy)
    return [main, copy.deepcopy(TINY_CREATE)]


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_tiny_run_writes_checkpoints_csv_png_and_is_reproducible(tmp_path):
    # eval_freq 7: the budget runs out between evaluations, and the run ends with one
    policy = train_muzero_with_gym_env(tiny(tmp_path, "a", eval_freq=7), seed=3, max_env_step=120)
    exp = tmp_path / "a"
    assert policy.train_iter > 0
    assert (exp / "ckpt" / "ckpt_best.pth.tar").is_file()
    last = torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)
    assert last["train_iter"] == policy.train_iter
    assert (exp / "learning_curve.png").stat().st_size > 1000
    rows = read_rows(exp / "progress.csv")
    # max_env_step is a budget the collector keeps to within one step of its envs.
    envs = TINY_MAIN["env"]["collector_env_num"]
    steps = int(rows[-1]["env_step"])
    assert 120 <= steps <= 120 + envs - 1 and last["env_step"] == steps
    assert int(rows[-1]["train_iter"]) == policy.train_iter
    assert any(r["eval_return_mean"] for r in rows) and any(r["total_loss"] for r in rows)
    # one row an iteration: the final evaluation shares the last iteration's row
    assert len({r["train_iter"] for r in rows}) == len(rows)
    assert rows[-1]["eval_return_mean"] and rows[-1]["total_loss"]
    state = torch.load(exp / "ckpt" / "ckpt_best.pth.tar", weights_only=True)
    assert {"model", "optimizer", "train_iter", "env_step"} <= set(state)

    train_muzero_with_gym_env(tiny(tmp_path, "b", eval_freq=7), seed=3, max_env_step=120)
    keep = ("train_iter", "env_step", "collect_return", "eval_return_mean", "total_loss")
    again = read_rows(tmp_path / "b" / "progress.csv")
    assert [[r[k] for k in keep] for r in rows] == [[r[k] for k in keep] for r in again]


def test_eval_entry_loads_checkpoint_and_saves_gif(tmp_path):
    cfg = tiny(tmp_path)
    train_muzero_with_gym_env(cfg, seed=0, max_env_step=40)
    ckpt = tmp_path / "run" / "ckpt" / "ckpt_best.pth.tar"
    mean, returns = eval_muzero_with_gym_env(
        cfg,
        seed=0,
        model_path=str(ckpt),
        num_episodes=2,
        save_replay_gif=True,
        replay_path=str(tmp_path / "gif"),
    )
    assert len(returns) == 2 and mean == pytest.approx(sum(returns) / 2) and min(returns) >= 1
    assert len(list((tmp_path / "gif").glob("*.gif"))) == 1
    with pytest.raises(ConfigError, match="expected model_path to be a checkpoint file"):
        eval_muzero_with_gym_env(
            cfg, seed=0, model_path=str(tmp_path / "nope.pth.tar"), num_episodes=1
        )


def test_a_run_with_the_consistency_loss_logs_it_and_its_checkpoint_evaluates(tmp_path):
    """LightZero's CartPole keys (self_supervised_learning_loss, ssl_loss_weight=2): the run
    logs the consistency loss in progress.csv and TensorBoard; its checkpoint, heads and all,
    loads for evaluation."""
    cfg = tiny(tmp_path, ssl_loss_weight=2)
    cfg[0]["policy"]["model"]["self_supervised_learning_loss"] = True
    policy = train_muzero_with_gym_env(cfg, seed=0, max_env_step=60)
    rows = read_rows(tmp_path / "run" / "progress.csv")
    values = [float(r["consistency_loss"]) for r in rows if r["consistency_loss"]]
    assert values and all(-1.0 <= v <= 1.0 for v in values)
    assert policy.model.consistency_heads is not None
    ckpt = tmp_path / "run" / "ckpt" / "ckpt_last.pth.tar"
    mean, returns = eval_muzero_with_gym_env(cfg, seed=0, model_path=str(ckpt), num_episodes=1)
    assert len(returns) == 1 and returns[0] >= 1
    # The heads only train: the checkpoint evaluates with a config without them (dropped, and
    # the same play), and a run starts from it either way, each saying so; resuming the run
    # with the setting changed is refused.
    plain = tiny(tmp_path, "plain")
    with pytest.warns(UserWarning, match="trained with EfficientZero's consistency heads and"):
        _, same = eval_muzero_with_gym_env(plain, seed=0, model_path=str(ckpt), num_episodes=1)
    assert same == returns
    with pytest.raises(ConfigError, match=r"resume: expected policy.model.self_supervised_lear"):
        train_muzero_with_gym_env(plain, max_env_step=80, resume=tmp_path / "run")
    with pytest.warns(UserWarning, match="the optimizer's state is not loaded"):
        train_muzero_with_gym_env(plain, seed=0, max_env_step=20, model_path=str(ckpt))
    again = tiny(tmp_path, "again", ssl_loss_weight=2)
    again[0]["policy"]["model"]["self_supervised_learning_loss"] = True
    plain_ckpt = tmp_path / "plain" / "ckpt" / "ckpt_last.pth.tar"
    with pytest.warns(UserWarning, match="trained without EfficientZero's consistency heads"):
        train_muzero_with_gym_env(again, seed=0, max_env_step=20, model_path=str(plain_ckpt))


def test_lightzeros_env_replay_path_records_every_evaluation_episode(tmp_path):
    """LightZero's cartpole_eval.py sets main_config.env.replay_path: eval_muzero saves every
    evaluation episode there (a GIF each); a training run warns that it records none."""
    cfg = tiny(tmp_path)
    cfg[0]["env"]["replay_path"] = str(tmp_path / "video")
    with pytest.warns(UserWarning, match="a training run records no episodes"):
        train_muzero_with_gym_env(cfg, seed=0, max_env_step=20)
    assert not (tmp_path / "video").exists() or not any((tmp_path / "video").iterdir())
    ckpt = tmp_path / "run" / "ckpt" / "ckpt_last.pth.tar"
    _, returns = lzero.entry.eval_muzero(
        cfg, seed=0, model_path=str(ckpt), num_episodes_each_seed=2
    )
    assert len(returns) == 4  # two rounds of n_evaluator_episode=2
    assert len(list((tmp_path / "video").glob("*.gif"))) == 4
    (tmp_path / "file").write_text("")
    cfg[0]["env"]["replay_path"] = str(tmp_path / "file")
    with pytest.raises(ConfigError, match="main_config.env.replay_path: expected a writable dir"):
        lzero.entry.eval_muzero(cfg, seed=0, model_path=str(ckpt))


def test_lightzeros_save_replay_gif_keys_record_every_evaluation_episode(tmp_path):
    """LightZero's newer cartpole_eval.py sets save_replay_gif and replay_path_gif instead."""
    cfg = tiny(tmp_path)
    cfg[0]["env"].update(save_replay_gif=True, replay_path_gif=str(tmp_path / "gifs"))
    with pytest.warns(UserWarning, match="a training run records no episodes"):
        train_muzero_with_gym_env(cfg, seed=0, max_env_step=20)
    ckpt = tmp_path / "run" / "ckpt" / "ckpt_last.pth.tar"
    _, returns = lzero.entry.eval_muzero(cfg, seed=0, model_path=str(ckpt))
    assert len(list((tmp_path / "gifs").glob("*.gif"))) == len(returns) == 2
    cfg[0]["env"]["save_replay_gif"] = False  # the switch off: nothing more is recorded
    lzero.entry.eval_muzero(cfg, seed=0, model_path=str(ckpt))
    assert len(list((tmp_path / "gifs").glob("*.gif"))) == 2


@pytest.mark.parametrize(
    ("patch", "match"),
    [
        (
            lambda m, c: m["env"].update(collecter_env_num=2),
            r"unknown key 'collecter_env_num'; did you mean 'collector_env_num'",
        ),
        (lambda m, c: m["policy"].update(lerning_rate=1.0), r"did you mean 'learning_rate'"),
        (
            # typos in the create config, the policy and the env: all named in one error
            lambda m, c: (
                m["policy"].update(lerning_rate=1.0),
                m["env"].update(colector_env_num=2),
                c.update(polcy=dict(type="muzero")),
            ),
            r"(?s)^3 unknown keys:.*create_config: unknown key 'polcy'.*main_config\.env: "
            r"unknown key 'colector_env_num'.*main_config\.policy: unknown key 'lerning_rate'",
        ),
        (
            lambda m, c: c["policy"].update(type="efficientzero"),
            "expected type in \\['muzero', 'gumbel_muzero'\\], got 'efficientzero'",
        ),
        (
            lambda m, c: m["env"].update(continuous=True),
            "expected manually_discretization=True for a continuous env",
        ),
        (
            # Every env failed its reset, was restarted 3 times, then a RuntimeError.
            lambda m, c: m["env"].update(continuous=True, manually_discretization=True),
            r"expected a continuous \(Box\) action space, got Discrete\(2\)",
        ),
        (
            lambda m, c: m["policy"].update(update_per_collect=5, replay_ratio=0.1),
            "expected only one of",
        ),
        (
            lambda m, c: m["policy"]["model"].update(observation_shape=5),
            r"observation_shape: expected 4 \(the env's",
        ),
        (
            lambda m, c: m["policy"]["model"].update(action_space_size=3),
            r"action_space_size: expected 2 \(the env's",
        ),
        (
            lambda m, c: m["policy"].update(symmetry_augmentation=True),
            "symmetry_augmentation: expected a board game with model_type 'conv', got a gym "
            "task with model_type 'mlp'",
        ),
        (
            # Named only when the envs were built, after the policy and the run's folder.
            lambda m, c: m["env"].update(manager=dict(shared_memroy=False)),
            r"main_config.env.manager: unknown key 'shared_memroy'; did you mean 'shared_mem",
        ),
    ],
)
def test_bad_configs_fail_before_training(tmp_path, patch, match):
    main, create = tiny(tmp_path)
    patch(main, create)
    with pytest.raises(ConfigError, match=match):
        train_muzero_with_gym_env([main, create], seed=0, max_env_step=40)
    assert not (tmp_path / "run" / "progress.csv").exists()
    assert not (tmp_path / "run").exists()


def train_cli(path, main, create) -> argparse.ArgumentParser:
    """Writes ``main`` and ``create`` as the config file ``path``; returns a parser with
    ``lzero train`` on it, to run that file through the command line's own code."""
    path.write_text(f"main_config = {main!r}\ncreate_config = {create!r}\n")
    parser = argparse.ArgumentParser()
    add_train_subcommand(parser.add_subparsers(dest="command"))
    return parser


def test_cli_train_runs_a_config_file(tmp_path, capsys):
    main, create = tiny(tmp_path)
    path = tmp_path / "my_config.py"
    parser = train_cli(path, main, create)
    args = parser.parse_args(["train", str(path), "--max-env-step", "30", "--seed", "1"])
    assert args.func(args) == 0
    last = capsys.readouterr().out.splitlines()[-1]  # the README: it says why it stopped
    assert last.startswith("stopped (max_env_step spent)") and str(tmp_path / "run") in last
    assert (tmp_path / "run" / "progress.csv").is_file()
    with pytest.raises(ConfigError, match="expected an importable config module"):
        parser.parse_args(["train", "no.such.module"]).func(
            parser.parse_args(["train", "no.such.module"])
        )


def test_cli_train_does_not_warn_that_the_configured_gym_version_is_out_of_date(tmp_path):
    # CartPole-v0 (LightZero's task) is chosen on purpose in the zoo config; gymnasium's
    # 'out of date, consider upgrading to v1' came on stderr with every `lzero train`.
    main, create = tiny(tmp_path)
    path = tmp_path / "v0_config.py"
    path.write_text(f"main_config = {main!r}\ncreate_config = {create!r}\n")
    parser = argparse.ArgumentParser()
    add_train_subcommand(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["train", str(path), "--max-env-step", "20"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert args.func(args) == 0
    assert not [w for w in caught if "out of date" in str(w.message)]


def test_a_cuda_config_is_warned_about_once_per_run(tmp_path):
    # LightZero's configs set cuda=True; the config check warns that training stays on the
    # CPU. The policy checks its (compiled) config again and used to repeat the warning.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        train_muzero_with_gym_env(tiny(tmp_path, cuda=True), seed=0, max_env_step=20)
    assert len([w for w in caught if "cuda=True" in str(w.message)]) == 1


def test_eval_rejects_a_config_the_env_refuses_before_launching(tmp_path):
    main, create = tiny(tmp_path)
    main["policy"]["model"]["action_space_size"] = 3
    with pytest.raises(ConfigError, match=r"action_space_size: expected 2 \(the env's"):
        eval_muzero_with_gym_env([main, create], seed=0, num_episodes=1)
    main["policy"]["model"]["action_space_size"] = 2
    main["env"].update(continuous=True, manually_discretization=True)
    with pytest.raises(ConfigError, match=r"expected a continuous \(Box\) action space"):
        eval_muzero_with_gym_env([main, create], seed=0, num_episodes=1)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # 0 was read as 'not given' and ran the config's whole budget.
        (["--max-env-step", "0"], "argument --max-env-step: expected a positive int, got '0'"),
        # A negative budget trained nothing and reported success.
        (["--max-env-step", "-5"], "argument --max-env-step: expected a positive int, got '-5'"),
        (["--max-train-iter", "0"], "argument --max-train-iter: expected a positive int, got '0'"),
        # NumPy's 'Seed must be between 0 and 2**32 - 1' traceback came from deep inside.
        (["--seed", "-1"], "argument --seed: expected an int in [0, 2**32), got '-1'"),
        # e-notation is taken for whole numbers only
        (["--max-env-step", "1.5e0"], "argument --max-env-step: expected a positive int, got"),
        (["--max-env-step", "2.0"], "argument --max-env-step: expected a positive int, got '2.0'"),
    ],
)
def test_cli_train_rejects_bad_budgets_and_seeds(argv, message, capsys):
    parser = argparse.ArgumentParser(prog="lzero")
    add_train_subcommand(parser.add_subparsers(dest="command"))
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args(
            ["train", "zoo.classic_control.cartpole.config.cartpole_muzero_config", *argv]
        )
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "0"])
def test_train_rejects_a_bad_seed_before_starting(tmp_path, seed):
    with pytest.raises(ConfigError, match=r"seed: expected an int in \[0, 2\*\*32\), got"):
        train_muzero_with_gym_env(tiny(tmp_path), seed=seed, max_env_step=10)
    assert not (tmp_path / "run").exists()


def test_cli_train_seed_names_its_own_output_directory(tmp_path, monkeypatch):
    # Zoo configs name their output '..._seed0': `--seed 1` wrote into it, over seed 0's run.
    calls = []

    class Policy:
        train_iter = 0

    def train(cfg, **kwargs):
        calls.append(cfg[0].exp_name)
        return Policy()

    monkeypatch.setattr(lzero.entry, "train_muzero_with_gym_env", train)
    parser = argparse.ArgumentParser()
    add_train_subcommand(parser.add_subparsers(dest="command"))
    name = "zoo.classic_control.cartpole.config.cartpole_muzero_config"
    for argv in (["--seed", "1"], [], ["--seed", "2", "--exp-name", str(tmp_path / "mine")]):
        args = parser.parse_args(["train", name, "--max-env-step", "5", *argv])
        assert args.func(args) == 0
    assert calls == [
        "data_muzero/cartpole_muzero_seed1",
        "data_muzero/cartpole_muzero_seed0",
        str(tmp_path / "mine"),
    ]


def test_train_checks_model_path_before_starting(tmp_path):
    # A missing file was a FileNotFoundError, a checkpoint of another architecture torch's
    # RuntimeError, both after the envs launched and the output directory was made.
    cfg = tiny(tmp_path, name="first")
    with pytest.raises(ConfigError, match=r"expected a MuZero checkpoint \(model_path\) file"):
        train_muzero_with_gym_env(cfg, seed=0, max_env_step=10, model_path=str(tmp_path / "no"))
    assert not (tmp_path / "first").exists()
    train_muzero_with_gym_env(cfg, seed=0, max_env_step=10, max_train_iter=1)
    ckpt = tmp_path / "first" / "ckpt" / "ckpt_best.pth.tar"
    other = tiny(tmp_path, name="other")
    other[0]["policy"]["model"]["latent_state_dim"] = 8
    with pytest.raises(ConfigError, match=r"model_path: .* does not fit the configured model"):
        train_muzero_with_gym_env(other, seed=0, max_env_step=10, model_path=str(ckpt))
    assert not (tmp_path / "other").exists()


def test_the_configs_model_path_is_the_starting_checkpoint(tmp_path):
    # LightZero's configs carry policy.model_path (None there); set, it is what the entry
    # loads when its own model_path argument is None.
    cfg = tiny(tmp_path, model_path=str(tmp_path / "no"))
    with pytest.raises(ConfigError, match=r"expected a MuZero checkpoint \(model_path\) file"):
        train_muzero_with_gym_env(cfg, seed=0, max_env_step=10)
    assert not (tmp_path / "run").exists()


def test_lightzeros_env_name_collector_and_discretized_pendulum_configs_compile():
    from lzero.entry.config import compile_config

    # LightZero's MountainCar and LunarLander configs name the task env_name, and its
    # create configs carry a collector entry.
    main = copy.deepcopy(TINY_MAIN)
    main["env"] = dict(main["env"], env_id=None, env_name="CartPole-v1")
    create = dict(TINY_CREATE, collector=dict(type="episode_muzero", get_train_sample=True))
    assert compile_config([main, create]).env.env_id == "CartPole-v1"
    main["env"]["env_id"] = "CartPole-v0"
    with pytest.raises(ConfigError, match="expected one of env_name .* and env_id"):
        compile_config([main, create])
    # LightZero's pendulum_cont_disc_muzero_config: continuous=False with the discretization.
    main = copy.deepcopy(TINY_MAIN)
    main["env"].update(
        env_id="Pendulum-v1", continuous=False, manually_discretization=True, each_dim_disc_size=11
    )
    main["policy"]["model"].update(observation_shape=3, action_space_size=11)
    env = compile_config([main, TINY_CREATE]).env
    assert (env.continuous, env.manually_discretization) == (False, True)


def test_an_output_directory_that_cannot_be_made_is_a_config_error(tmp_path):
    # It was a NotADirectoryError traceback from pathlib, under `lzero train` too.
    (tmp_path / "a_file").write_text("")
    cfg = tiny(tmp_path)
    cfg[0]["exp_name"] = str(tmp_path / "a_file" / "run")
    with pytest.raises(ConfigError, match=r"exp_name: expected a directory it can create, got"):
        train_muzero_with_gym_env(cfg, seed=0, max_env_step=10)


def test_eval_checks_the_replay_folder_before_playing(tmp_path, monkeypatch):
    # The folder was made only after every eval episode, and failed as pathlib's traceback.
    import importlib

    ev = importlib.import_module("lzero.entry.eval_muzero_with_gym_env")  # not the function
    played = []
    monkeypatch.setattr(ev.MuZeroEvaluator, "eval", lambda self, n: played.append(n))
    (tmp_path / "a_file").write_text("")
    with pytest.raises(
        ConfigError,
        match=r"replay_path: expected a writable directory, got .* \(it or a folder above it is a file\)",
    ):
        eval_muzero_with_gym_env(
            tiny(tmp_path),
            seed=0,
            num_episodes=1,
            save_replay_gif=True,
            replay_path=str(tmp_path / "a_file" / "gifs"),
        )
    assert played == []


def test_each_collect_phase_gets_the_epsilon_of_its_starting_env_step(tmp_path, monkeypatch):
    """LightZero's epsilon-greedy collection: the schedule is read at the env step where each
    collect phase starts (as LightZero's train_muzero does); off, no epsilon is passed."""
    from lzero.worker import MuZeroCollector

    seen = []
    collect = MuZeroCollector.collect

    def recording(self, n_episode, **kwargs):
        seen.append((self.env_steps, kwargs["epsilon"]))
        return collect(self, n_episode, **kwargs)

    monkeypatch.setattr(MuZeroCollector, "collect", recording)
    eps = dict(eps_greedy_exploration_in_collect=True, type="linear", start=0.9, end=0.1, decay=150)
    train_muzero_with_gym_env(tiny(tmp_path, eps=eps), seed=0, max_env_step=200)
    assert len(seen) >= 2 and seen[0] == (0, 0.9) and seen[-1][1] < 0.9
    for step, epsilon in seen:
        assert epsilon == pytest.approx(0.1 + 0.8 * max(0.0, 1 - step / 150))
    seen.clear()
    train_muzero_with_gym_env(tiny(tmp_path, "off"), seed=0, max_env_step=30)
    assert seen and all(epsilon is None for _, epsilon in seen)


def test_updates_run_on_the_learning_threads_and_the_search_on_the_others(tmp_path, monkeypatch):
    from lzero.policy import MuZeroPolicy
    from lzero.worker import MuZeroCollector

    threads = {"learn": set(), "collect": set()}
    learn, collect = MuZeroPolicy.learn, MuZeroCollector.collect

    def learning(self, batch):
        threads["learn"].add(torch.get_num_threads())
        return learn(self, batch)

    def collecting(self, n_episode, **kwargs):
        threads["collect"].add(torch.get_num_threads())
        return collect(self, n_episode, **kwargs)

    monkeypatch.setattr(MuZeroPolicy, "learn", learning)
    monkeypatch.setattr(MuZeroCollector, "collect", collecting)
    train_muzero_with_gym_env(tiny(tmp_path, learn_torch_num_threads=2), seed=0, max_env_step=60)
    assert threads == {"learn": {2}, "collect": {1}}


def test_a_new_run_refuses_a_directory_holding_a_run(tmp_path):
    cfg = tiny(tmp_path, name="kept")
    train_muzero_with_gym_env(cfg, seed=0, max_env_step=10, max_train_iter=1)
    rows = (tmp_path / "kept" / "progress.csv").read_text()
    with pytest.raises(ConfigError, match=r"holds .*--resume .*--exp-name"):
        train_muzero_with_gym_env(tiny(tmp_path, name="kept"), seed=1, max_env_step=10)
    assert (tmp_path / "kept" / "progress.csv").read_text() == rows


@pytest.mark.parametrize(
    ("budget", "match"),
    [
        # A negative max_env_step ran the first evaluation, then stopped; 300.7 passed.
        (dict(max_env_step=-5), "max_env_step: expected a positive int, got -5"),
        (dict(max_env_step=300.7), "max_env_step: expected a positive int, got 300.7"),
        (dict(max_train_iter=0), "max_train_iter: expected a positive int, got 0"),
        (dict(max_env_step=True), "max_env_step: expected a positive int, got True"),
        (dict(max_time_s=-1), "max_time_s: expected None or a number of seconds >= 0"),
    ],
)
def test_budgets_are_checked_as_lzero_trains_options_are(tmp_path, budget, match):
    from lzero.entry import train_alphazero
    from zoo.board_games.tictactoe.config.tictactoe_alphazero_sp_mode_config import (
        create_config,
        main_config,
    )

    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / "mz")
    with pytest.raises(ConfigError, match=match):
        train_muzero_with_gym_env([main, copy.deepcopy(TINY_CREATE)], seed=0, **budget)
    az = copy.deepcopy(main_config)
    az.exp_name = str(tmp_path / "az")
    with pytest.raises(ConfigError, match=match):
        train_alphazero([az, copy.deepcopy(create_config)], seed=0, **budget)
    assert list(tmp_path.iterdir()) == []  # refused before any run directory was made
    # Whole-number floats are budgets too (LightZero's configs write int(1e6), some 1e6).
    from lzero.entry.muzero_setup import check_budgets

    check_budgets(1e6, float("inf"), 0)


def test_a_missing_model_path_is_refused_before_any_env_is_built(tmp_path, monkeypatch):
    import importlib

    entry = importlib.import_module("lzero.entry.train_muzero_with_gym_env")  # the module

    def no_env(cfg):
        raise AssertionError("an env was built before model_path was checked")

    monkeypatch.setattr(entry, "check_env_config", no_env)
    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / "run")
    with pytest.raises(ConfigError, match=r"expected a MuZero checkpoint \(model_path\) file"):
        train_muzero_with_gym_env(
            [main, copy.deepcopy(TINY_CREATE)], seed=0, model_path=str(tmp_path / "no.pth")
        )


class _Chain(lzero.envs.BaseEnv):
    """A LightZero-style custom env (its README's "customize your environments"): a BaseEnv
    with dict observations, registered and named by create_config.env.type, no env_id."""

    steps = 0

    def __init__(self, cfg=None):
        super().__init__(cfg)
        import gymnasium

        self.observation_space = gymnasium.spaces.Box(0, 1, (6,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(2)

    def _obs(self):
        o = np.zeros(6, np.float32)
        o[self.pos] = 1
        return {"observation": o, "action_mask": np.ones(2, np.int8), "to_play": -1}

    def reset(self):
        self.pos, self.t = 0, 0
        return self._obs()

    def step(self, action):
        type(self).steps += 1
        self.pos = max(0, min(5, self.pos + (1 if int(action) == 1 else -1)))
        self.t += 1
        done = self.pos == 5 or self.t >= 12
        reward = float(self.pos == 5)
        info = {"eval_episode_return": reward} if done else {}
        return lzero.envs.BaseEnvTimestep(self._obs(), np.float32(reward), done, info)

    def seed(self, seed, dynamic_seed=True):
        pass

    def close(self):
        pass


def _train_registered(tmp_path, monkeypatch, cls, max_env_step):
    """Trains the tiny config on ``cls``, registered for this test alone (other tests check
    every registered name) and named by create_config.env.type (no env_id); returns the
    steps its envs took and the config pair."""
    from lzero.envs import ENV_REGISTRY

    name = f"test_{cls.__name__.lower()}_muzero"
    monkeypatch.setitem(ENV_REGISTRY._items, name, cls)
    main, create = tiny(tmp_path)
    del main["env"]["env_id"]
    main["policy"]["model"]["observation_shape"] = 6
    create["env"] = dict(type=name, import_names=[])
    cls.steps = 0
    lzero.entry.train_muzero([main, create], seed=0, max_env_step=max_env_step)
    return cls.steps, [main, create]


def test_train_muzero_builds_the_registered_class_create_config_names(tmp_path, monkeypatch):
    """LightZero's train_muzero builds create_config.env.type's class with main_config.env;
    ours wrapped env_id's gym task instead, so a custom env (or a registered subclass of a
    zoo task) was silently replaced, or refused for lack of an env_id."""
    assert _train_registered(tmp_path, monkeypatch, _Chain, 40)[0] >= 40
    rows = read_rows(tmp_path / "run" / "progress.csv")
    assert rows and float(rows[0]["eval_return_mean"]) in (0.0, 1.0)


def test_eval_prints_its_results_before_a_replay_the_env_cannot_record(
    tmp_path, monkeypatch, capsys
):
    """A custom env that records no GIF: lzero eval --gif played every episode, then failed
    without printing their results."""
    _, (main, create) = _train_registered(tmp_path, monkeypatch, _Chain, 20)
    capsys.readouterr()
    with pytest.raises(ConfigError, match="to write a GIF"):
        eval_muzero_with_gym_env(
            [main, create], seed=0, model_path=str(tmp_path / "run" / "ckpt" / "ckpt_last.pth.tar"),
            num_episodes=2, save_replay_gif=True, replay_path=str(tmp_path / "gif"),
        )  # fmt: skip
    assert "eval over 2 episodes: mean return" in capsys.readouterr().out


def test_a_registered_gym_task_class_gets_and_checks_its_own_env_keys(tmp_path):
    from lzero.entry.config import compile_config
    from lzero.entry.muzero_setup import env_factory

    main, create = tiny(tmp_path)
    create["env"] = dict(type="cartpole_lightzero", import_names=[])
    main["env"]["max_episode_steps"] = 7  # the class's key, not ENV_CONFIG's
    cfg = compile_config([main, create])
    collect, evaluate = env_factory(cfg, is_train=True)(), env_factory(cfg, is_train=False)()
    assert type(collect).__name__ == "CartPoleEnv"
    assert collect._cfg.is_train and not evaluate._cfg.is_train
    evaluate.seed(0)
    evaluate.reset()
    steps = 0
    while not evaluate.step(0).done:
        steps += 1
    assert steps + 1 <= 7
    main["env"]["max_episode_step"] = 7
    with pytest.raises(ConfigError, match="max_episode_step"):
        train_muzero_with_gym_env([main, create], seed=0, max_env_step=40)


@pytest.mark.parametrize(("text", "value"), [("1e4", 10_000), ("2.5E5", 250_000), ("3e+2", 300)])
def test_cli_budgets_take_whole_numbers_in_e_notation(text, value):
    """LightZero's configs write budgets as int(1e4); --max-env-step 1e4 was refused."""
    parser = argparse.ArgumentParser(prog="lzero")
    add_train_subcommand(parser.add_subparsers(dest="command"))
    config = "zoo.classic_control.cartpole.config.cartpole_muzero_config"
    args = parser.parse_args(["train", config, "--max-env-step", text, "--max-train-iter", text])
    assert args.max_env_step == value and args.max_train_iter == value


def test_a_collect_in_which_no_episode_ended_leaves_its_return_empty(tmp_path):
    """It wrote a literal nan, where every other missing value is left empty."""
    main, create = tiny(tmp_path)
    train_muzero_with_gym_env([main, create], seed=0, max_env_step=4)  # no CartPole episode
    rows = read_rows(tmp_path / "run" / "progress.csv")
    collect_rows = [r for r in rows if int(r["env_step"]) > 0 and not r["eval_return_mean"]]
    assert collect_rows and all(r["collect_return"] == "" for r in collect_rows)
    assert "nan" not in (tmp_path / "run" / "progress.csv").read_text()


def test_a_checkpoint_of_an_env_nothing_here_registers_asks_for_its_config():
    """A custom env registered by its training script: lzero eval --ckpt without the config
    said 'unknown env' with the zoo's names as close matches."""
    from lzero.entry.muzero_setup import recorded_input_config

    state = {"config": {"create_env": {"type": "my_script_env", "import_names": []},
                        "env_manager": {"type": "base"}}}  # fmt: skip
    with pytest.raises(ConfigError, match=r"env 'my_script_env', which no module imported here"):
        recorded_input_config(state, "x.pth.tar")
    state["config"]["create_env"] = {"type": "cartpole_lightzero", "import_names": []}
    assert recorded_input_config(state, "x.pth.tar")[1]["env"]["type"] == "cartpole_lightzero"


class _GuideChain(_Chain):
    """LightZero's guide's style: no BaseEnv.__init__, the config read by attribute
    (``cfg.length``), its defaults from ``default_config()``, ``is_train`` set on the
    per-env configs."""

    config = dict(length=6)

    @classmethod
    def default_config(cls):
        from easydict import EasyDict

        return EasyDict(copy.deepcopy(cls.config))

    @classmethod
    def create_collector_env_cfg(cls, cfg):
        cfg = copy.deepcopy(cfg)
        cfg.is_train = True
        return [cfg for _ in range(cfg.pop("collector_env_num"))]

    def __init__(self, cfg):
        import gymnasium

        self._cfg, self.length = cfg, cfg.length
        self.observation_space = gymnasium.spaces.Box(0, 1, (self.length,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(2)


def test_a_lightzero_guide_env_gets_an_easydict_over_its_defaults(tmp_path, monkeypatch):
    """It got a plain dict of main_config.env alone: cfg.length was an AttributeError."""
    assert _train_registered(tmp_path, monkeypatch, _GuideChain, 20)[0] >= 20
