"""AlphaZero end to end on TicTacToe: outputs, reproducibility, checkpoints as agents, errors,
the command line, and that it learns (against the perfect bot)."""

from __future__ import annotations

import copy
import csv
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

torch = pytest.importorskip("torch")
from lzero.agent import load_agent  # noqa: E402
from lzero.cli import main as lzero_main  # noqa: E402
from lzero.entry import eval_alphazero, train_alphazero  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_alphazero_sp_mode_config as sp  # noqa: E402
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv  # noqa: E402

CREATE = copy.deepcopy(sp.create_config)


def tiny_main(exp_name, **policy):
    main = copy.deepcopy(sp.main_config)
    main.exp_name = str(exp_name)
    main.env.update(collector_env_num=4, n_evaluator_episode=2)
    main.policy.update(
        model=dict(
            observation_shape=(3, 3, 3), action_space_size=9, num_res_blocks=1, num_channels=8
        ),
        update_per_collect=2,
        batch_size=16,
        n_episode=4,
        eval_freq=4,
        eval_bots=["rule"],
        torch_num_threads=1,
        mcts=dict(num_simulations=4),
    )
    main.policy.update(policy)
    return main


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    exp = tmp_path_factory.mktemp("az") / "run"
    policy = train_alphazero([tiny_main(exp), CREATE], seed=3, max_env_step=100)
    return exp, policy


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_a_tiny_run_writes_checkpoints_csv_and_png(tiny_run):
    exp, policy = tiny_run
    for name in (
        "ckpt/ckpt_best.pth.tar",
        "ckpt/ckpt_last.pth.tar",
        "progress.csv",
        "learning_curve.png",
    ):
        assert (exp / name).is_file(), name
    rows = read_rows(exp / "progress.csv")
    evals = [r for r in rows if r["rule_win"] != ""]
    trains = [r for r in rows if r["total_loss"] != ""]
    assert len(evals) >= 2 and trains
    assert int(rows[-1]["env_step"]) >= 100 and int(trains[-1]["train_iter"]) == policy.train_iter
    for r in evals:
        total = float(r["rule_win"]) + float(r["rule_draw"]) + float(r["rule_loss"])
        assert total == pytest.approx(1.0)


def test_lightzero_eval_script_evaluates_the_default_run_or_ckpt(tiny_run, tmp_path):
    """``python -m zoo.board_games.tictactoe.entry.tictactoe_alphazero_eval`` (LightZero's file
    name) runs lzero eval on the checkpoint given, or on the one where ``lzero train`` puts it."""
    import os
    import shutil
    import subprocess
    import sys

    exp, _ = tiny_run
    ckpt = exp / "ckpt" / "ckpt_best.pth.tar"
    script = "zoo.board_games.tictactoe.entry.tictactoe_alphazero_eval"
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root), "SDL_VIDEODRIVER": "dummy"}
    default = tmp_path / "data_alphazero" / "tictactoe_alphazero_bot_mode_seed0" / "ckpt"
    default.mkdir(parents=True)
    shutil.copy(ckpt, default / "ckpt_best.pth.tar")
    outputs = []
    for args in ([], ["--ckpt", str(ckpt)]):
        proc = subprocess.run(
            [sys.executable, "-m", script, "--episodes", "2", "--bots", "rule", *args],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "2 games per bot" in proc.stdout and "vs       rule: win" in proc.stdout
        outputs.append(proc.stdout.split(":", 1)[1])  # after the checkpoint's path
    assert outputs[0] == outputs[1]  # the same checkpoint, the same seed


def test_same_seed_same_run(tiny_run, tmp_path):
    exp, policy = tiny_run
    again = train_alphazero([tiny_main(tmp_path / "again"), CREATE], seed=3, max_env_step=100)
    first, second = read_rows(exp / "progress.csv"), read_rows(tmp_path / "again" / "progress.csv")
    drop = ("wall_time", "positions_per_s", "search_share")
    assert [{k: v for k, v in r.items() if k not in drop} for r in first] == [
        {k: v for k, v in r.items() if k not in drop} for r in second
    ]
    for a, b in zip(policy.model.state_dict().values(), again.model.state_dict().values()):
        assert torch.equal(a, b)


def test_fast_searches_train_reproducibly_and_wait_for_a_stored_position(tmp_path):
    """With ``fast_search_prob``: same seed, same run; and while only fast steps were played
    (nothing stored), no update is taken rather than sampling an empty buffer."""
    runs = []
    for name in ("a", "b"):
        main = tiny_main(tmp_path / name, fast_search_prob=0.5, fast_search_simulations=2)
        runs.append(train_alphazero([main, CREATE], seed=3, max_env_step=100))
    first, second = (read_rows(tmp_path / name / "progress.csv") for name in ("a", "b"))
    drop = ("wall_time", "positions_per_s", "search_share")
    assert len(first) > 1 and [{k: v for k, v in r.items() if k not in drop} for r in first] == [
        {k: v for k, v in r.items() if k not in drop} for r in second
    ]
    for a, b in zip(runs[0].model.state_dict().values(), runs[1].model.state_dict().values()):
        assert torch.equal(a, b)
    # At 0.999 this seed's 40 env steps are all fast: nothing to learn from, no update.
    main = tiny_main(tmp_path / "c", fast_search_prob=0.999, fast_search_simulations=2)
    policy = train_alphazero([main, CREATE], seed=3, max_env_step=40)
    rows = read_rows(tmp_path / "c" / "progress.csv")
    assert policy.train_iter == 0 and len(rows) >= 1


def test_a_checkpoint_loads_as_an_agent_that_plays_legal_moves(tiny_run):
    """Legal moves in every position of random games, and a finished game refused."""
    exp, _ = tiny_run
    from lzero.envs import ENV_REGISTRY

    won_with_room = 0
    for sims in (0, 8):
        agent = load_agent(exp / "ckpt" / "ckpt_last.pth.tar", num_simulations=sims)
        env = ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"})
        env.seed(0)
        rng = np.random.default_rng(sims)
        for _ in range(5):
            obs, done = env.reset(), False
            while not done:
                probs = agent.policy(obs)
                assert probs[obs["action_mask"] == 0].sum() == 0 and probs.sum() == pytest.approx(
                    1, abs=1e-5
                )
                action = agent.act(obs) if rng.random() < 0.5 else env.random_action()
                assert obs["action_mask"][action] == 1
                timestep = env.step(action)
                obs, done = timestep.obs, timestep.done
            # The game is over (won with empty cells left, or the board full): refused.
            won_with_room += bool((env.board == 0).any())
            with pytest.raises(ValueError, match="got a finished game"):
                agent.act(obs)
    assert won_with_room > 0


def rewritten(tiny_run, path, drop=(), **policy_keys):
    """The tiny run's last checkpoint with ``policy_keys`` set in its policy config and the
    keys ``drop`` removed, saved at ``path``; returns ``path``."""
    from lzero.agent import read_checkpoint

    exp, _ = tiny_run
    state = read_checkpoint(exp / "ckpt" / "ckpt_last.pth.tar")
    state["policy_config"].update(policy_keys)
    for key in drop:
        del state["policy_config"][key]
    torch.save(state, path)
    return path


def rewritten_on_a_cpu_without_bfloat16(tiny_run, path, monkeypatch, **policy_keys):
    """``rewritten``, with this CPU made to report no native bfloat16."""
    from lzero.model import frozen

    monkeypatch.setattr(frozen, "native_bfloat16", lambda: False)
    return rewritten(tiny_run, path, **policy_keys)


def test_a_bfloat16_checkpoint_loads_on_a_cpu_without_it_only_when_told(
    tiny_run, tmp_path, monkeypatch, capsys
):
    """A checkpoint trained with inference_dtype 'bfloat16' names its dtype in the error on a
    CPU that would emulate it (and the options that set it), and plays there with the dtype
    given to load_agent or on the command line."""
    exp, _ = tiny_run
    path = rewritten_on_a_cpu_without_bfloat16(
        tiny_run, tmp_path / "bf16.pth.tar", monkeypatch, inference_dtype="bfloat16"
    )
    with pytest.raises(ConfigError, match="inference_dtype of its training config: .*native"):
        load_agent(path)
    assert lzero_main(["arena", "tictactoe", "--bot1", f"agent:{path}", "--games", "1"]) == 2
    assert "lzero play and arena --agent-dtype" in capsys.readouterr().err
    assert lzero_main([
        "arena", "tictactoe", "--bot1", f"agent:{path}", "--games", "1", "--agent-dtype", "auto",
    ]) == 0  # fmt: skip
    for dtype in ("float32", "auto"):
        agent = load_agent(path, num_simulations=4, inference_dtype=dtype)
        assert agent._policy.inference_dtype == torch.float32
    with pytest.raises(ConfigError, match="inference_dtype given: .*native bfloat16"):
        load_agent(exp / "ckpt" / "ckpt_last.pth.tar", inference_dtype="bfloat16")
    with pytest.raises(ConfigError, match=r"expected inference_dtype in \['float32'"):
        load_agent(path, inference_dtype="half")


def test_a_checkpoint_trained_in_bfloat16_plays_on_a_cpu_without_it(
    tiny_run, tmp_path, monkeypatch
):
    """``learn_dtype`` is a training setting: an agent never trains, so a checkpoint trained
    with 'bfloat16' loads and plays legal moves where bfloat16 would be emulated."""
    from lzero.envs import ENV_REGISTRY

    path = rewritten_on_a_cpu_without_bfloat16(
        tiny_run, tmp_path / "learn_bf16.pth.tar", monkeypatch, learn_dtype="bfloat16"
    )
    agent = load_agent(path, num_simulations=4)
    env = ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"})
    env.seed(0)
    obs = env.reset()
    for _ in range(3):
        action = agent.act(obs)
        assert obs["action_mask"][action] == 1
        obs = env.step(action).obs


@pytest.mark.parametrize("directions, planes", [(False, 6), (True, 10)])
def test_a_run_with_line_features_checkpoints_an_agent_that_uses_them(tmp_path, directions, planes):
    """The window-count planes (``model.line_features``, and ``line_directions``' four more)
    reach the trained network, its checkpoint and the agent loaded from it, which plays legal
    moves."""
    exp = tmp_path / "lf"
    model = dict(line_features=3, line_directions=directions)
    policy = train_alphazero([tiny_main(exp, model=model), CREATE], seed=0, max_env_step=40)
    assert policy.model.stem[0].in_channels == 3 + planes
    agent = load_agent(exp / "ckpt" / "ckpt_last.pth.tar", num_simulations=4)
    assert agent._policy.model.stem[0].in_channels == 3 + planes
    # Its weights do not fit a network without the planes: a clear error, not torch's.
    with pytest.raises(ConfigError, match=r"model_path: .* does not fit the configured model"):
        train_alphazero(
            [tiny_main(tmp_path / "plain"), CREATE],
            seed=0,
            max_env_step=10,
            model_path=str(exp / "ckpt" / "ckpt_last.pth.tar"),
        )
    from lzero.envs import ENV_REGISTRY

    env = ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"})
    obs, done = env.reset(), False
    while not done:
        action = agent.act(obs)
        assert obs["action_mask"][action] == 1
        timestep = env.step(action)
        obs, done = timestep.obs, timestep.done


def test_a_run_with_a_draw_head_logs_its_loss_and_its_agents_have_contempt(tiny_run, tmp_path):
    """``model.draw_head`` with ``contempt``: the run learns the draw head (``draw_loss`` in
    progress.csv), and an agent loaded from its checkpoint searches with the contempt unless
    told otherwise; a network without the head refuses contempt."""
    exp = tmp_path / "dh"
    model = dict(observation_shape=(3, 3, 3), action_space_size=9, num_channels=8, draw_head=True)
    policy = train_alphazero(
        [tiny_main(exp, model=model, contempt=0.4), CREATE], seed=0, max_env_step=60
    )
    assert policy.model.draw_head
    rows = read_rows(exp / "progress.csv")
    losses = [float(r["draw_loss"]) for r in rows if r["draw_loss"]]
    assert losses and all(0 < x < 5 for x in losses)
    path = exp / "ckpt" / "ckpt_last.pth.tar"
    assert load_agent(path, num_simulations=4).contempt == 0.4
    assert load_agent(path, num_simulations=4, contempt=0.0).contempt == 0.0
    with pytest.raises(ValueError, match="without a draw head"):
        load_agent(tiny_run[0] / "ckpt" / "ckpt_last.pth.tar", 4, contempt=0.2)
    assert "draw_loss" not in read_rows(tiny_run[0] / "progress.csv")[0]


def test_a_checkpoints_agent_takes_the_configs_fpu_reduction_unless_told(tiny_run, tmp_path):
    """``eval_fpu_reduction``: an agent loaded from a checkpoint searches with its config's
    (the tiny run's: None, AlphaZero's rule) unless ``load_agent`` is given one; a checkpoint
    written before the key plays by AlphaZero's rule."""
    path = tiny_run[0] / "ckpt" / "ckpt_last.pth.tar"
    assert load_agent(path, num_simulations=4).fpu_reduction is None
    assert load_agent(path, num_simulations=4, fpu_reduction=0.25).fpu_reduction == 0.25
    with_it = rewritten(tiny_run, tmp_path / "with.pth.tar", eval_fpu_reduction=0.4)
    assert load_agent(with_it, 4).fpu_reduction == 0.4
    assert load_agent(with_it, 4, fpu_reduction=None).fpu_reduction is None
    older = rewritten(tiny_run, tmp_path / "older.pth.tar", drop=["eval_fpu_reduction"])
    assert load_agent(older, 4).fpu_reduction is None
    with pytest.raises(ValueError, match="expected fpu_reduction None or a"):
        load_agent(path, 4, fpu_reduction="half")


def test_a_run_with_ema_checkpoints_the_average_and_its_agents_play_it(tmp_path):
    """``ema_decay``: the checkpoint holds the network and its average; a loaded agent (and
    the run's evaluation) plays the average, ``averaged=False`` the network; a resumed run
    holds both."""
    from lzero.agent import Agent, load_policy
    from lzero.envs import ENV_REGISTRY

    exp = tmp_path / "ema"
    policy = train_alphazero([tiny_main(exp, ema_decay=0.9), CREATE], seed=1, max_env_step=60)
    path = exp / "ckpt" / "ckpt_last.pth.tar"
    state = torch.load(path, weights_only=True)
    for key, value in policy.ema_model.state_dict().items():
        assert torch.equal(state["ema_model"][key], value)
    env = ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"})
    obs = env.reset()
    loaded, _ = load_policy(path)
    averaged = load_agent(path, num_simulations=0).policy(obs)
    network = Agent(loaded, 0, averaged=False).policy(obs)
    with torch.no_grad():
        x = torch.from_numpy(obs["observation"][None].astype(np.float32))
        for model, probs in ((loaded.ema_model, averaged), (loaded.model, network)):
            logits = model.eval()(x)[0][0].masked_fill(
                torch.from_numpy(obs["action_mask"] == 0), -torch.inf
            )
            np.testing.assert_allclose(probs, torch.softmax(logits, -1).numpy(), atol=1e-5)
    assert np.abs(averaged - network).max() > 1e-4
    # Resumed (here with nothing left to train), the run holds the checkpoint's average.
    resumed = train_alphazero(
        [tiny_main(exp, ema_decay=0.9), CREATE], max_env_step=state["env_step"], resume=exp
    )
    assert resumed.train_iter == policy.train_iter
    for key, value in resumed.ema_model.state_dict().items():
        assert torch.equal(state["ema_model"][key], value)


def test_a_new_run_refuses_a_directory_holding_a_run(tiny_run):
    """Training again into a finished run's directory stops before any file is touched; the
    message names --resume and --exp-name."""
    exp, _ = tiny_run
    files = sorted(p for p in exp.rglob("*") if p.is_file())
    before = {p: p.read_bytes() for p in files}
    with pytest.raises(ConfigError, match=r"holds .*ckpt_last.*--resume .*--exp-name"):
        train_alphazero([tiny_main(exp), CREATE], seed=0, max_env_step=10)
    assert sorted(p for p in exp.rglob("*") if p.is_file()) == files
    assert all(p.read_bytes() == data for p, data in before.items())


def test_wrong_checkpoints_are_refused_clearly(tiny_run, tmp_path):
    exp, _ = tiny_run
    junk = tmp_path / "junk.pth.tar"
    junk.write_text("not a checkpoint")
    with pytest.raises(ConfigError, match="not a file torch.save writes"):
        load_agent(junk)
    other = tmp_path / "other.pth.tar"
    torch.save({"kind": "muzero", "model": {}}, other)
    with pytest.raises(ConfigError, match="kind 'muzero'"):
        load_agent(other)
    with pytest.raises(ConfigError, match="not found"):
        load_agent(tmp_path / "missing.pth.tar")
    agent = load_agent(exp / "ckpt" / "ckpt_last.pth.tar")
    with pytest.raises(
        ConfigError, match="expected a checkpoint of connect4 on a 6x7 board, got one of tictactoe"
    ):
        agent.check_game("connect4", (6, 7))


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda m, c: m.policy.update(type="muzero"), "expected type 'alphazero'"),
        (
            lambda m, c: m.policy.update(num_simulation=3),
            "did you mean 'num_simulations'|num_simulation",
        ),
        (lambda m, c: m.policy.model.update(observation_shape=(3, 6, 7)), r"expected \(3, 3, 3\)"),
        (
            lambda m, c: m.policy.update(eval_bots=["grandmaster"]),
            "eval_bots: expected bots of tictactoe",
        ),
        (lambda m, c: m.env.update(battle_mod="x"), "battle_mod"),
        # True passed as 1, then crashed the replay's sampling after the first collect.
        (
            lambda m, c: m.policy.update(batch_size=True),
            "expected batch_size to be a positive int, got True",
        ),
        (lambda m, c: m.policy.update(sampled_algo=True), "sampled_algo=False"),
        (lambda m, c: c.env.update(type=None), "expected a board env type"),
        (
            lambda m, c: m.policy.update(mcts=dict(tactics="yes")),
            "expected tactics to be True or False, got 'yes'",
        ),
        (
            lambda m, c: m.policy.update(mcts=dict(radius=-1)),
            "expected radius to be an int >= 0, got -1",
        ),
        (
            lambda m, c: m.policy.update(mcts=dict(threat_depth=1.5)),
            "expected threat_depth to be an int >= 0, got 1.5",
        ),
        (
            lambda m, c: m.policy.model.update(line_features=4),
            r"line_features to be 0 \(off\) or a window length from 2 to the board's longer "
            r"side \(3\), got 4",
        ),
        (lambda m, c: m.policy.model.update(line_features="5"), "line_features .* got '5'"),
        (
            lambda m, c: m.policy.model.update(line_directions=True),
            "line_directions=True adds planes .* expected line_features > 0 with it",
        ),
        (
            lambda m, c: m.policy.model.update(line_features=3, line_directions=1),
            "expected line_directions to be True or False, got 1",
        ),
        (
            lambda m, c: m.policy.update(mcts=dict(three_depth=2)),
            "0 unless threat_depth >= 1, got three_depth=2 with threat_depth=0",
        ),
        (
            lambda m, c: m.policy.update(collect_opening_moves=-1),
            "expected collect_opening_moves to be an int >= 0, got -1",
        ),
        (
            lambda m, c: m.policy.update(collect_opening_moves=9),
            "collect_opening_moves: expected fewer random opening moves than the board's 9 cells",
        ),
        (
            lambda m, c: (
                m.policy.update(collect_opening_moves=2),
                m.env.update(battle_mode="play_with_bot_mode"),
            ),
            "collect_opening_moves=2 .* needs env.battle_mode='self_play_mode', got "
            "'play_with_bot_mode'",
        ),
        (
            lambda m, c: m.policy.update(fast_search_prob=1.0, fast_search_simulations=2),
            r"expected fast_search_prob in \[0, 1\) \(0: off\), got 1.0",
        ),
        (
            lambda m, c: m.policy.update(fast_search_prob=0.5),
            "fast_search_prob > 0 needs fast_search_simulations, an int from 1 to 3 .*got None",
        ),
        (
            # typos in three sections of two configs: all named in one error
            lambda m, c: (
                m.update(exp_nam="x"),
                m.policy.model.update(num_chanels=8),
                c.update(env_manger=dict(type="base")),
            ),
            r"(?s)^3 unknown keys:.*create_config: unknown key 'env_manger'; did you mean "
            r"'env_manager'.*main_config\.policy\.model: unknown key 'num_chanels'.*main_config: "
            r"unknown key 'exp_nam'; did you mean 'exp_name'",
        ),
        (
            lambda m, c: m.policy.update(fast_search_prob=0.5, fast_search_simulations=4),
            "an int from 1 to 3 \\(fewer than mcts.num_simulations=4\\), got 4",
        ),
    ],
)
def test_bad_configs_fail_before_any_env_starts(tmp_path, change, match):
    main, create = tiny_main(tmp_path / "bad"), copy.deepcopy(CREATE)
    change(main, create)
    with pytest.raises(ConfigError, match=match):
        train_alphazero([main, create], seed=0, max_env_step=10)
    assert not (tmp_path / "bad" / "progress.csv").exists()


def test_command_line_trains_evaluates_and_plays_an_agent(tmp_path, capsys, mcts_bot_simulations):
    config = tmp_path / "tiny_az_config.py"
    main = tiny_main(tmp_path / "cli_run")
    config.write_text(
        "from easydict import EasyDict\n"
        f"main_config = EasyDict({dict(main)!r})\n"
        f"create_config = EasyDict({dict(CREATE)!r})\n"
    )
    assert (
        lzero_main(
            ["train", str(config), "--max-env-step", "40", "--exp-name", str(tmp_path / "cli_run")]
        )
        == 0
    )
    ckpt = tmp_path / "cli_run" / "ckpt" / "ckpt_last.pth.tar"
    assert "stopped (max_env_step spent)" in capsys.readouterr().out and ckpt.is_file()
    assert (
        lzero_main(["eval", "--ckpt", str(ckpt), "--episodes", "2", "--bots", "rule,alpha_beta"])
        == 0
    )
    out = capsys.readouterr().out
    assert "vs       rule" in out and "vs alpha_beta" in out
    assert lzero_main(["eval", "--ckpt", str(ckpt), "--episodes", "2", "--reuse-tree"]) == 0
    assert "vs       rule" in capsys.readouterr().out
    assert (
        lzero_main(
            ["arena", "tictactoe", "--bot1", f"agent:{ckpt}", "--bot2", "random", "--games", "2"]
        )
        == 0
    )
    assert "wins" in capsys.readouterr().out
    # One agent on both sides, its trees kept from move to move (whoever moved).
    both = ["arena", "tictactoe", "--bot1", f"agent:{ckpt}", "--bot2", f"agent:{ckpt}"]
    assert lzero_main([*both, "--games", "2", "--agent-reuse-tree"]) == 0
    assert "wins" in capsys.readouterr().out
    # --gif: the same evaluation, then one more game (the agent first, against the first bot)
    # saved as a GIF whose path is printed.
    plain = ["eval", "--ckpt", str(ckpt), "--episodes", "2", "--bots", "rule"]
    assert lzero_main(plain) == 0
    without = capsys.readouterr().out
    assert lzero_main([*plain, "--gif", str(tmp_path / "gifs")]) == 0
    out = capsys.readouterr().out
    (gif,) = (tmp_path / "gifs").glob("*.gif")
    assert out == without + f"replay GIF: {gif}\n"  # the results first, as MuZero's eval
    with Image.open(gif) as image:
        assert image.n_frames >= 6  # the empty board and at least 5 moves (a TicTacToe game)
    assert lzero_main([*plain, "--gif", str(tmp_path / "e.gif")]) == 2
    assert "--gif: expected a folder" in capsys.readouterr().err
    assert lzero_main([*plain, "--gif", str(config / "gifs")]) == 2  # a folder under a file
    assert "--gif: expected a writable directory" in capsys.readouterr().err
    assert not (tmp_path / "e.gif").exists()
    assert lzero_main(["eval", "--ckpt", str(ckpt), "--bots", "rule,bogus"]) == 2
    err = capsys.readouterr().err
    assert "bots (lzero eval --bots): expected bots of tictactoe among" in err
    assert "got ['bogus']" in err
    assert lzero_main(["eval", "--ckpt", str(ckpt), "--openings", "9"]) == 2
    assert "opening_moves (lzero eval --openings): expected fewer" in capsys.readouterr().err
    # The MCTS bot's rollouts: the checkpoint's env config's, or --mcts-simulations; said.
    seen = mcts_bot_simulations
    seen.clear()  # the training's own evaluations played it too, at the config's 50
    mcts = ["eval", "--ckpt", str(ckpt), "--episodes", "2", "--bots", "mcts"]
    assert lzero_main([*mcts, "--mcts-simulations", "7"]) == 0
    assert "(the mcts bot: 7 rollouts a move)" in capsys.readouterr().out and set(seen) == {7}
    assert lzero_main([*mcts[:-1], "rule", "--mcts-simulations", "7"]) == 2
    assert "--mcts-simulations): expected an mcts bot among" in capsys.readouterr().err
    assert lzero_main([*mcts[:-1], "rule,bogus", "--mcts-simulations", "7"]) == 2
    assert "got ['bogus']" in capsys.readouterr().err  # the unknown bot first
    with pytest.raises(SystemExit):
        lzero_main(["play", "tictactoe", "--agent-fpu-reduction", "-0.5"])
    assert "expected 'off' or a finite number >= 0, got '-0.5'" in capsys.readouterr().err
    assert lzero_main(["arena", "connect4", "--bot1", f"agent:{ckpt}", "--games", "1"]) == 2
    assert "expected a checkpoint of connect4" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        lzero_main(["arena", "tictactoe", "--bot1", "agent:"])
    assert "agent:PATH" in capsys.readouterr().err


def test_command_line_agent_options_reach_the_agent(tiny_run, monkeypatch, capsys):
    """``lzero eval --fpu-reduction/--dtype/--reuse-tree`` and ``lzero arena
    --agent-fpu-reduction/--agent-dtype/--agent-reuse-tree`` load the agent with them; left
    out, the checkpoint's config decides ('off' is AlphaZero's rule, None)."""
    import importlib

    import lzero.agent

    # The module: lzero.entry's attribute of this name is the function.
    entry = importlib.import_module("lzero.entry.train_alphazero")
    seen = []
    names = ("inference_dtype", "fpu_reduction", "reuse_tree")

    def recording(load):
        def record(path, num_simulations=None, **kwargs):
            seen.append({k: kwargs.get(k) for k in names})
            return load(path, num_simulations, **kwargs)

        return record

    # lzero eval loads an AlphaZero agent below lzero.agent (eval_alphazero is an entry), the
    # zoo's arena through lzero.agent.load_agent.
    monkeypatch.setattr(entry, "load_alphazero_agent", recording(entry.load_alphazero_agent))
    monkeypatch.setattr(lzero.agent, "load_agent", recording(lzero.agent.load_agent))
    ckpt = str(tiny_run[0] / "ckpt" / "ckpt_last.pth.tar")
    base = ["eval", "--ckpt", ckpt, "--episodes", "2", "--bots", "rule"]
    assert lzero_main([*base, "--fpu-reduction", "0.3", "--dtype", "float32", "--reuse-tree"]) == 0
    assert lzero_main([*base, "--fpu-reduction", "off"]) == 0
    assert lzero_main(base) == 0
    arena = ["arena", "tictactoe", "--bot1", f"agent:{ckpt}", "--games", "1"]
    assert lzero_main([*arena, "--agent-fpu-reduction", "0.2", "--agent-dtype", "auto"]) == 0
    capsys.readouterr()
    assert seen == [
        dict(inference_dtype="float32", fpu_reduction=0.3, reuse_tree=True),
        dict(inference_dtype=None, fpu_reduction=None, reuse_tree=False),
        dict(inference_dtype=None, fpu_reduction=lzero.agent.FROM_CONFIG, reuse_tree=False),
        dict(inference_dtype="auto", fpu_reduction=0.2, reuse_tree=False),
    ]


def test_it_learns_tictactoe_against_the_perfect_bot(tmp_path):
    """From scratch, a short self-play run stops losing to the perfect (alpha-beta) bot."""
    main = copy.deepcopy(sp.main_config)
    main.exp_name = str(tmp_path / "learn")
    main.env.update(n_evaluator_episode=4)
    main.policy.update(eval_bots=["alpha_beta"], eval_freq=100, torch_num_threads=1)
    train_alphazero([main, CREATE], seed=0, max_env_step=2500)
    rows = [r for r in read_rows(tmp_path / "learn" / "progress.csv") if r["alpha_beta_loss"] != ""]
    assert float(rows[0]["alpha_beta_loss"]) > 0  # the untrained network loses
    assert float(rows[-1]["alpha_beta_loss"]) == 0
    ckpt = tmp_path / "learn" / "ckpt" / "ckpt_last.pth.tar"
    results = eval_alphazero(ckpt, bots=["alpha_beta", "rule"], num_games=6, num_simulations=25)
    assert results["alpha_beta"]["loss"] == 0 and results["rule"]["loss"] == 0
    # LightZero's call (its tictactoe_alphazero_eval.py): rounds of n_evaluator_episode games
    # against the config's bot, the agent first; the returns per game.
    lz = copy.deepcopy(sp.main_config)
    lz.env.update(bot_action_type="alpha_beta", n_evaluator_episode=3)
    mean, returns = eval_alphazero(
        [lz, CREATE], seed=0, model_path=str(ckpt), num_episodes_each_seed=2,
        print_seed_details=True,
    )  # fmt: skip
    assert returns.shape == (6,) and set(returns) <= {0.0, 1.0} and mean == returns.mean()


def test_lightzeros_eval_alphazero_call_checks_its_arguments(tiny_run):
    from zoo.board_games.connect4.config import connect4_alphazero_sp_mode_config as c4

    exp, _ = tiny_run
    ckpt = str(exp / "ckpt" / "ckpt_last.pth.tar")
    cfg = [tiny_main(exp), CREATE]
    with pytest.raises(ConfigError, match="model_path: expected an AlphaZero checkpoint"):
        eval_alphazero(cfg, seed=0)
    # The config's policy.model_path stands in for the argument (LightZero's eval scripts).
    with_path = tiny_main(exp, model_path=ckpt)
    with_path.env.n_evaluator_episode = 2
    by_config = eval_alphazero([with_path, CREATE], seed=0)
    assert by_config[0] == eval_alphazero([with_path, CREATE], seed=0, model_path=ckpt)[0]
    # LightZero's keyword call names the pair input_cfg (a TypeError before)
    assert by_config[0] == eval_alphazero(input_cfg=[with_path, CREATE], seed=0)[0]
    with pytest.raises(ConfigError, match="expected a checkpoint or LightZero's input_cfg, got"):
        eval_alphazero(ckpt, input_cfg=[with_path, CREATE])
    assert by_config[1].shape == (2,)
    # The config's bot as it is, its random moves included, as LightZero's eval_mode env
    # plays it (they were set to 0: an eval script's prob_random_action_in_bot was ignored).
    lz = tiny_main(exp, model_path=ckpt)
    lz.env.update(bot_action_type="alpha_beta", n_evaluator_episode=10)
    _, perfect = eval_alphazero([lz, CREATE], seed=0)
    lz.env.prob_random_action_in_bot = 1.0
    _, random = eval_alphazero([lz, CREATE], seed=0)
    assert perfect.max() <= 0 and random.max() == 1
    with pytest.raises(ConfigError, match="model: expected None"):
        eval_alphazero(cfg, seed=0, model=torch.nn.Linear(1, 1), model_path=ckpt)
    with pytest.raises(ConfigError, match="expected num_episodes_each_seed to be a positive"):
        eval_alphazero(cfg, seed=0, model_path=ckpt, num_episodes_each_seed=0)
    with pytest.raises(ConfigError, match="expected a checkpoint of connect4, got one of tictac"):
        eval_alphazero([c4.main_config, c4.create_config], model_path=ckpt)
    with pytest.raises(ConfigError, match="expected a checkpoint path, either first or as mod"):
        eval_alphazero(ckpt, model_path=ckpt)
    # Options of one call form are not silently dropped by the other.
    with pytest.raises(ConfigError, match=r"expected a checkpoint path with \['bots', 'num_g"):
        eval_alphazero(cfg, model_path=ckpt, bots=["rule"], num_games=4)
    with pytest.raises(ConfigError, match="num_episodes_each_seed and print_seed_details are"):
        eval_alphazero(ckpt, num_episodes_each_seed=3)
    with pytest.raises(ConfigError, match="model: expected None"):
        train_alphazero(cfg, seed=0, max_env_step=1, model=torch.nn.Linear(1, 1))
    # LightZero's eval scripts offer agent_vs_human and a replay_path: not ignored silently.
    # The first is refused; the second records every game there, as LightZero's envs do.
    human = tiny_main(exp)
    human.env.agent_vs_human = True
    with pytest.raises(
        ConfigError, match=r"agent_vs_human=True: eval_alphazero plays .*lzero play"
    ):
        eval_alphazero([human, CREATE], seed=0, model_path=ckpt)
    plain = tiny_main(exp)
    plain.env.n_evaluator_episode = 3
    unrecorded = eval_alphazero([plain, CREATE], seed=0, model_path=ckpt)
    video = tiny_main(exp)
    video.env.update(replay_path=str(exp / "video"), n_evaluator_episode=3)
    recorded = eval_alphazero([video, CREATE], seed=0, model_path=ckpt)
    assert recorded[0] == unrecorded[0] and np.array_equal(recorded[1], unrecorded[1])
    assert len(list((exp / "video").glob("*.gif"))) == 3
    video.env.replay_path = str(exp / "video" / next((exp / "video").glob("*.gif")).name / "x")
    with pytest.raises(ConfigError, match="main_config.env.replay_path: expected a writable"):
        eval_alphazero([video, CREATE], seed=0, model_path=ckpt)  # a folder under a file


def test_lightzeros_image_savefile_mode_records_in_the_envs_folder(tiny_run, tmp_path, monkeypatch):
    """``render_mode='image_savefile_mode'`` without a ``replay_path``: every evaluation game
    goes to the env's own default folder, as the env itself saves there."""
    exp, _ = tiny_run
    monkeypatch.chdir(tmp_path)
    main = tiny_main(exp)
    main.env.update(render_mode="image_savefile_mode", n_evaluator_episode=2)
    eval_alphazero([main, CREATE], seed=0, model_path=str(exp / "ckpt" / "ckpt_last.pth.tar"))
    env = TicTacToeEnv({"render_mode": "image_savefile_mode"})
    env.reset()
    while not env.step(env.random_action()).done:
        pass
    folder = Path(env.last_replay_file).parent
    assert folder.resolve().parent == tmp_path.resolve()
    assert len(list(folder.glob("*.gif"))) == 3  # the env's game and the 2 evaluated


def test_stop_value_ends_training_at_the_first_evaluation_reaching_it(tmp_path, capsys):
    main = tiny_main(tmp_path / "stop")
    main.env.stop_value = -1  # any score reaches it
    policy = train_alphazero([main, CREATE], seed=0, max_env_step=10_000)
    assert policy.train_iter == 0
    out = capsys.readouterr().out.splitlines()
    assert "stopped (stop value -1.0 reached against rule)" in out[-1]
    # Said before it starts, so that a run is not silent through the first evaluation.
    bots = ", ".join(main.policy.eval_bots)
    n = main.env.n_evaluator_episode
    assert out[0] == f"evaluating the untrained network first: {n} games against each of {bots}"


def test_random_openings_pair_the_colours_and_vary_the_games():
    from lzero.envs import ENV_REGISTRY
    from lzero.worker.alphazero_evaluator import play_against_bot, play_opening

    def opening(i, seed=5):
        env = ENV_REGISTRY.build("connect4", {"battle_mode": "self_play_mode"})
        env.reset()
        return play_opening(env, 2, np.random.default_rng([seed, i // 2]))

    assert opening(0) == opening(1) and opening(2) == opening(3)
    assert len({tuple(opening(2 * k)) for k in range(10)}) > 3
    env = ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"})
    env.reset()
    with pytest.raises(ConfigError, match="fewer random opening moves than the board's 9 cells"):
        play_opening(env, 9, np.random.default_rng(0))

    first = lambda boards, to_play, legal: legal.argmax(axis=1)  # noqa: E731 (a fixed player)
    plain = play_against_bot(first, CREATE, {}, "rule", 8, seed=0)
    varied = play_against_bot(first, CREATE, {}, "rule", 8, seed=0, opening_moves=2)
    for r in (plain, varied):
        assert r["win"] + r["draw"] + r["loss"] == pytest.approx(1.0)
    assert plain["loss"] == 1.0  # the rule bot beats the fixed player from the empty board


@pytest.mark.parametrize("moves", [5, 6, 7, 8])
def test_openings_that_end_the_game_are_drawn_again(moves):
    """TicTacToe openings of 5 to 8 random moves often end the game: each returned opening
    leaves it unfinished (checked by a plain-Python line check), and the same generator seed
    gives the same opening."""
    from lzero.envs import ENV_REGISTRY
    from lzero.worker.alphazero_evaluator import play_opening

    def opening(seed):
        env = ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"})
        env.reset()
        played = play_opening(env, moves, np.random.default_rng(seed))
        return played, env.board.copy()

    for seed in range(30):
        played, board = opening(seed)
        assert len(played) == len(set(played)) == moves == np.count_nonzero(board)
        lines = [board[r, :] for r in range(3)] + [board[:, c] for c in range(3)]
        lines += [board.diagonal(), np.fliplr(board).diagonal()]
        assert not any(line[0] != 0 and (line == line[0]).all() for line in lines)
        assert opening(seed)[0] == played


def test_bad_opening_moves_are_refused(tmp_path):
    main = tiny_main(tmp_path / "bad_openings", eval_opening_moves=-1)
    with pytest.raises(ConfigError, match="eval_opening_moves to be an int >= 0, got -1"):
        train_alphazero([main, CREATE], seed=0, max_env_step=10)
    main = tiny_main(tmp_path / "long_openings", eval_opening_moves=9)
    with pytest.raises(
        ConfigError,
        match="eval_opening_moves: expected fewer random opening moves than the board.s 9 cells",
    ):
        train_alphazero([main, CREATE], seed=0, max_env_step=10)
    assert not (tmp_path / "long_openings").exists()


def test_resume_continues_counters_and_appends_the_csv(tmp_path):
    exp = tmp_path / "run"
    first = train_alphazero([tiny_main(exp), CREATE], seed=4, max_env_step=60)
    before = read_rows(exp / "progress.csv")
    events = sorted((exp / "tensorboard").iterdir())
    last = torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)
    assert last["seed"] == 4
    # Another seed than the run's own is refused before anything is written.
    with pytest.raises(ConfigError, match="the resumed run's own seed 4 .or none., got 0"):
        train_alphazero([tiny_main(exp), CREATE], seed=0, max_env_step=120, resume=exp)
    assert read_rows(exp / "progress.csv") == before
    # So is another battle mode: the run went on in it and config.json said so, silently.
    config = (exp / "config.json").read_text()
    bot_mode = tiny_main(exp)
    bot_mode.env.battle_mode = "play_with_bot_mode"
    with pytest.raises(
        ConfigError,
        match="resume: expected the run's battle_mode 'self_play_mode', got 'play_with_bot_mode'",
    ):
        train_alphazero([bot_mode, CREATE], max_env_step=120, resume=exp)
    assert read_rows(exp / "progress.csv") == before and (exp / "config.json").read_text() == config
    # Other evaluation bots log other columns: a ConfigError saying so (a bare ValueError from
    # the log, a traceback at the command line), the run's files as they were: no new (empty)
    # TensorBoard event file either.
    other_bots = tiny_main(exp, eval_bots=["rule", "mcts"])
    with pytest.raises(ConfigError, match=r"resume: expected .*without \['mcts_win', 'mcts_dr"):
        train_alphazero([other_bots, CREATE], max_env_step=120, resume=exp)
    assert read_rows(exp / "progress.csv") == before and (exp / "config.json").read_text() == config
    assert sorted((exp / "tensorboard").iterdir()) == events
    # No seed given: the run goes on with its own.
    second = train_alphazero(
        [tiny_main(tmp_path / "elsewhere"), CREATE], max_env_step=120, resume=exp
    )
    assert torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)["seed"] == 4
    after = read_rows(exp / "progress.csv")
    assert not (tmp_path / "elsewhere").exists()
    # config.json records where the run is, not the resuming config's exp_name.
    assert json.loads((exp / "config.json").read_text())["exp_name"] == str(exp)
    assert after[: len(before)] == before and len(after) > len(before)
    assert int(after[len(before)]["env_step"]) >= last["env_step"]
    assert second.train_iter > first.train_iter >= 1
    assert int(after[-1]["env_step"]) >= 120
    evaluated = [r["train_iter"] for r in after if r["eval_return_mean"] != ""]
    assert len(evaluated) == len(set(evaluated)) > 1  # the checkpoint's evaluation not again
    with pytest.raises(ConfigError, match="resume: expected an experiment directory holding"):
        train_alphazero([tiny_main(exp), CREATE], seed=0, max_env_step=10, resume=tmp_path / "no")


def test_a_gomoku_checkpoint_on_another_board_size_names_the_option(tmp_path, capsys):
    from lzero.agent import save_checkpoint
    from lzero.cli import main as lzero_main
    from lzero.envs import ENV_REGISTRY
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.alphazero_config import compile_alphazero_config
    from lzero.policy.board_game import BoardGame

    model = dict(observation_shape=(3, 6, 6), action_space_size=36, num_channels=8)
    cfg = compile_alphazero_config(
        [
            dict(policy=dict(model=model), env=dict(board_size=6)),
            dict(env=dict(type="gomoku", import_names=[])),
        ]
    )
    game = BoardGame.from_env(ENV_REGISTRY.build("gomoku", {"board_size": 6}))
    ckpt = tmp_path / "g6.pth.tar"
    save_checkpoint(ckpt, AlphaZeroPolicy(cfg.policy, game), cfg.create.env, cfg.env)
    assert lzero_main(["arena", "gomoku", "--bot1", f"agent:{ckpt}", "--games", "1"]) == 2
    assert "6x6 Gomoku, the board is 15x15: pass --board-size 6" in capsys.readouterr().err


def test_an_evaluation_cut_short_is_not_recorded_as_done(tmp_path, monkeypatch):
    """Ctrl-C during an evaluation saved ckpt_last with that evaluation as done, so a resume
    skipped it: no row in progress.csv, and ckpt_best could miss a better network."""
    import importlib

    entry = importlib.import_module("lzero.entry.train_alphazero")  # the package's attribute
    exp = tmp_path / "run"  # of that name is the function
    real = entry.evaluate_against_bots

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(entry, "evaluate_against_bots", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train_alphazero([tiny_main(exp), CREATE], seed=0, max_env_step=60)
    last = torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)
    assert last.get("last_eval") is None and read_rows(exp / "progress.csv") == []
    monkeypatch.setattr(entry, "evaluate_against_bots", real)
    train_alphazero([tiny_main(exp), CREATE], max_env_step=30, resume=exp)
    rows = read_rows(exp / "progress.csv")
    assert rows[0]["train_iter"] == "0" and rows[0]["eval_return_mean"] != ""


def test_the_learning_curve_draws_wins_and_losses_per_bot():
    from lzero.entry.train_alphazero import eval_curves

    assert eval_curves(["rule", "perfect"]) == (
        ("rule_win", "win rate vs rule"), ("rule_loss", "loss rate vs rule"),
        ("perfect_win", "win rate vs perfect"), ("perfect_loss", "loss rate vs perfect"),
    )  # fmt: skip
