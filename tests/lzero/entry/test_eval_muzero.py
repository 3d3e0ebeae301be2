"""`lzero eval CONFIG --ckpt PATH` for MuZero: the same numbers for the same seed, win/draw/loss
per bot on a board game, a GIF on request, and clear errors."""

from __future__ import annotations

import argparse
import copy

import pytest

pytest.importorskip("torch")
from lzero.cli_train import add_eval_subcommand  # noqa: E402
from lzero.entry import eval_muzero_with_gym_env, train_muzero  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_muzero_sp_mode_config as sp  # noqa: E402
from zoo.classic_control.cartpole.config import cartpole_muzero_config as cartpole  # noqa: E402


@pytest.fixture(scope="module")
def trained(tmp_path_factory, tiny_muzero):
    tmp = tmp_path_factory.mktemp("eval")
    main, create = tiny_muzero(tmp / "run", sp, eval_freq=1000)
    train_muzero([main, create], seed=0, max_env_step=40)
    path = tmp / "tiny_config.py"
    path.write_text(
        "from easydict import EasyDict\n"
        f"main_config = EasyDict({dict(main)!r})\ncreate_config = EasyDict({dict(sp.create_config)!r})\n"
    )
    return tmp, path


def run_eval(argv):
    parser = argparse.ArgumentParser()
    add_eval_subcommand(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["eval", *argv])
    return args.func(args)


def test_board_eval_prints_win_draw_loss_and_repeats_for_the_same_seed(trained, capsys):
    tmp, path = trained
    ckpt = str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    argv = [str(path), "--ckpt", ckpt, "--episodes", "4", "--bots", "rule,random"]
    assert run_eval(argv) == 0
    first = capsys.readouterr().out
    assert "vs       rule: win" in first and "vs     random: win" in first
    assert run_eval(argv) == 0
    assert capsys.readouterr().out == first
    assert run_eval([*argv, "--gif", str(tmp / "gif"), "--simulations", "2"]) == 0
    assert list((tmp / "gif").glob("*.gif"))
    capsys.readouterr()
    # Without the config file: the checkpoint records the config it ran with.
    assert run_eval(argv[1:]) == 0
    assert capsys.readouterr().out == first
    assert run_eval([*argv[1:], "--gif", str(tmp / "gif2"), "--simulations", "2"]) == 0
    assert list((tmp / "gif2").glob("*.gif"))


def test_lightzeros_eval_muzero_call_plays_rounds_of_the_evaluator_episodes(trained, capsys):
    from lzero.cli_train import load_config_module
    from lzero.entry import eval_muzero

    tmp, path = trained
    module = load_config_module(str(path))
    main = copy.deepcopy(module.main_config)
    main.env.n_evaluator_episode = 2
    cfg, ckpt = [main, module.create_config], str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    capsys.readouterr()
    mean, returns = eval_muzero(
        cfg, seed=0, model=None, model_path=ckpt, num_episodes_each_seed=2,
        print_seed_details=True,
    )  # fmt: skip
    out = capsys.readouterr().out
    assert f"In seed 0, returns: {returns}" in out and "win rate: " in out
    # 4 games against the config's bot (rule, with its 0.3 share of random moves), the agent
    # first; the same seed plays them again.
    assert "eval over 4 games per bot, the agent first:\n  vs       rule: " in out
    assert len(returns) == 4 and set(returns) <= {-1.0, 0.0, 1.0} and mean == sum(returns) / 4
    assert eval_muzero(cfg, seed=0, model_path=ckpt, num_episodes_each_seed=2) == (mean, returns)
    # The config's policy.model_path stands in for the argument (LightZero's eval scripts).
    main.policy.model_path = ckpt
    assert eval_muzero(cfg, seed=0, num_episodes_each_seed=2) == (mean, returns)
    main.policy.model_path = str(tmp / "missing.pth.tar")
    with pytest.raises(ConfigError, match="expected model_path to be a checkpoint file"):
        eval_muzero(cfg, seed=0)
    with pytest.raises(ConfigError, match="model: expected None"):
        eval_muzero(cfg, model=object(), model_path=ckpt)
    with pytest.raises(ConfigError, match="expected num_episodes_each_seed to be a positive"):
        eval_muzero(cfg, model_path=ckpt, num_episodes_each_seed=0)


def test_lightzeros_board_eval_keys_are_honoured_or_refused(trained):
    """LightZero's board eval scripts offer agent_vs_human and a replay_path: the first is
    refused (the entries play the bots; lzero play plays a person), the second records every
    evaluated game there as a GIF (as LightZero's eval_mode envs do), playing the same games."""
    from lzero.cli_train import load_config_module
    from lzero.entry import eval_muzero

    tmp, path = trained
    module = load_config_module(str(path))
    ckpt = str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    main = copy.deepcopy(module.main_config)
    main.env.agent_vs_human = True
    with pytest.raises(ConfigError, match=r"agent_vs_human=True: eval_muzero plays .*lzero play"):
        eval_muzero([main, module.create_config], seed=0, model_path=ckpt)
    main.env.agent_vs_human = False
    main.env.n_evaluator_episode = 2
    plain = eval_muzero([main, module.create_config], seed=0, model_path=ckpt)
    main.env.replay_path = str(tmp / "video")
    assert eval_muzero([main, module.create_config], seed=0, model_path=ckpt) == plain
    assert len(list((tmp / "video").glob("*.gif"))) == 2 * len(main.policy.eval_bots)


def test_simulations_0_plays_the_raw_network_without_a_search(trained, capsys, monkeypatch):
    """``--simulations 0``: every move is the raw network's (``MuZeroAgent``'s raw play, whose
    priors ``tests/lzero/test_agent.py`` checks against the eager model); no search runs."""
    from lzero.policy.muzero import MuZeroPolicy

    def no_search(*args, **kwargs):
        raise AssertionError("searched with --simulations 0")

    tmp, _ = trained
    ckpt = str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    argv = ["--ckpt", ckpt, "--episodes", "4", "--bots", "rule", "--gif", str(tmp / "raw_gif")]
    monkeypatch.setattr(MuZeroPolicy, "search", no_search)
    assert run_eval([*argv, "--simulations", "0"]) == 0
    out = capsys.readouterr().out
    assert "vs       rule: win" in out and list((tmp / "raw_gif").glob("*.gif"))
    with pytest.raises(AssertionError, match="searched"):  # the guard holds: 1 simulation searches
        run_eval([*argv, "--simulations", "1"])


def test_eval_errors(trained):
    tmp, path = trained
    ckpt = str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    for argv in ([str(path), "--ckpt", ckpt], ["--ckpt", ckpt]):  # with the config, and without
        with pytest.raises(ConfigError, match="--gif: expected a writable directory.*a file"):
            run_eval([*argv, "--gif", str(path / "replays")])  # a folder under a file
        with pytest.raises(ConfigError, match="--gif: expected a folder"):
            run_eval([*argv, "--gif", str(tmp / "e.gif")])
    assert not (tmp / "e.gif").exists()
    with pytest.raises(ConfigError, match=r"num_simulations \(lzero eval --simulations\): exp"):
        eval_muzero_with_gym_env(
            copy.deepcopy([cartpole.main_config, cartpole.create_config]), num_simulations=0
        )
    with pytest.raises(ConfigError, match="expected --ckpt to be a checkpoint file"):
        run_eval([str(path), "--ckpt", str(tmp / "missing.pth.tar")])
    for option in (["--reuse-tree"], ["--fpu-reduction", "0.2"], ["--dtype", "float32"]):
        with pytest.raises(ConfigError, match=f"{option[0]}: expected an AlphaZero checkpoint"):
            run_eval([str(path), "--ckpt", ckpt, *option])


def test_an_unknown_bot_or_too_long_an_opening_is_refused_naming_the_option(trained):
    tmp, _ = trained
    ckpt = str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    with pytest.raises(
        ConfigError,
        match=r"\(lzero eval --bots\): expected bots of tictactoe among .*got \['bogus'\]",
    ):
        run_eval(["--ckpt", ckpt, "--bots", "rule,bogus"])
    with pytest.raises(ConfigError, match=r"opening_moves \(lzero eval --openings\): expected"):
        run_eval(["--ckpt", ckpt, "--openings", "9"])


def test_the_mcts_bots_rollouts_are_an_option_and_printed(trained, capsys, mcts_bot_simulations):
    """``lzero eval`` played the MCTS bot at the config's 50 rollouts a move with no way to
    change it and no word of it, so a figure "against the MCTS bot at 1,000 rollouts" could not
    be reproduced from the command. ``--mcts-simulations N`` sets it; the results say it."""
    seen = mcts_bot_simulations
    tmp, path = trained
    ckpt = str(tmp / "run" / "ckpt" / "ckpt_last.pth.tar")
    base = ["--ckpt", ckpt, "--episodes", "2", "--bots", "mcts", "--simulations", "2"]
    assert run_eval(base) == 0
    assert "(the mcts bot: 50 rollouts a move)" in capsys.readouterr().out
    assert set(seen) == {50}
    seen.clear()
    assert run_eval([*base, "--mcts-simulations", "7"]) == 0
    assert "(the mcts bot: 7 rollouts a move)" in capsys.readouterr().out
    assert set(seen) == {7}
    with pytest.raises(ConfigError, match=r"--mcts-simulations\): expected an mcts bot among"):
        run_eval(["--ckpt", ckpt, "--bots", "rule", "--mcts-simulations", "7"])
    with pytest.raises(ConfigError, match=r"--bots\): expected bots of tictactoe .*\['bogus'\]"):
        run_eval(["--ckpt", ckpt, "--bots", "rule,bogus", "--mcts-simulations", "7"])
    with pytest.raises(ConfigError, match=r"--mcts-simulations\): expected a board game"):
        eval_muzero_with_gym_env(
            copy.deepcopy([cartpole.main_config, cartpole.create_config]), mcts_bot_simulations=7
        )
