"""Board-game MuZero checkpoints as players: ``lzero.agent.load_agent`` rebuilds the run's
policy from the config the checkpoint records, plays what MuZero's evaluation plays, and the
command line takes it as ``agent:PATH`` and evaluates it without its config file. AlphaZero
agents are tested with their training (``tests/zoo/board_games/test_alphazero_training.py``).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
from lzero.agent import MuZeroAgent, line_winner, load_agent  # noqa: E402
from lzero.cli import main as lzero_main  # noqa: E402
from lzero.entry import eval_muzero_with_gym_env, muzero_setup  # noqa: E402
from lzero.entry.config import compile_config  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from lzero.worker.muzero_board_evaluator import MuZeroBoardEvaluator  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_muzero_bot_mode_config as bot  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_muzero_sp_mode_config as sp  # noqa: E402
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv  # noqa: E402
from zoo.classic_control.cartpole.config import cartpole_muzero_config as cartpole  # noqa: E402


def write_checkpoint(tmp_path, module, name="ckpt.pth.tar", seed=0):
    """An untrained policy of ``module``'s config (8 simulations, so not the config's) saved
    as the train entry saves it; returns the path and the ``[main, create]`` it was made of."""
    main = copy.deepcopy(module.main_config)
    main.exp_name = str(tmp_path / "exp")
    main.policy.num_simulations = 8
    input_cfg = [main, copy.deepcopy(module.create_config)]
    cfg = compile_config(copy.deepcopy(input_cfg))
    muzero_setup.seed_everything(seed)
    policy = muzero_setup.make_policy(cfg)
    path = tmp_path / name
    muzero_setup.save_checkpoint(policy, path, cfg, env_step=0)
    return path, input_cfg


def positions(n, seed):
    """``n`` unfinished TicTacToe positions after 0-6 random moves: (observation dict, board,
    player to move, legal mask)."""
    rng = np.random.default_rng(seed)
    env = TicTacToeEnv(dict(battle_mode="self_play_mode"))
    out = []
    while len(out) < n:
        obs = env.reset()
        for _ in range(rng.integers(0, 7)):
            ts = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if ts.done:
                break
            obs = ts.obs
        else:
            out.append((obs, env.board.copy(), env.current_player, obs["action_mask"].astype(bool)))
    return out


@pytest.mark.parametrize(("module", "two_player"), [(sp, True), (bot, False)])
def test_the_agent_is_the_run_and_plays_what_its_evaluation_plays(tmp_path, module, two_player):
    path, input_cfg = write_checkpoint(tmp_path, module)
    agent = load_agent(path)
    assert isinstance(agent, MuZeroAgent) and agent.two_player is two_player
    # The same compiled policy config as the run's (8 simulations, the bot-mode root rules).
    cfg = compile_config(copy.deepcopy(input_cfg))
    assert dict(agent._policy.cfg) == dict(cfg.policy) and agent.num_simulations == 8
    # The evaluation of `lzero eval CONFIG --ckpt PATH`: the config module, the checkpoint
    # loaded into its policy.
    policy = muzero_setup.make_policy(cfg)
    muzero_setup.load_checkpoint(policy, path, cfg)
    for key, tensor in policy.model.state_dict().items():
        torch.testing.assert_close(agent._policy.model.state_dict()[key], tensor, rtol=0, atol=0)
    evaluator = MuZeroBoardEvaluator(policy, cfg.create_env, cfg.env)
    cases = positions(40, seed=1)
    boards = np.stack([c[1] for c in cases])
    to_play = np.array([c[2] for c in cases])
    legal = np.stack([c[3] for c in cases])
    want = evaluator.act(boards, to_play, legal)
    np.testing.assert_array_equal(agent.act_batch(boards, to_play, legal), want)
    assert [agent.act(c[0]) for c in cases] == want.tolist()
    assert all(legal[i, a] for i, a in enumerate(want))


def test_the_raw_network_is_the_eager_model_on_the_envs_planes(tmp_path):
    path, _ = write_checkpoint(tmp_path, sp, seed=3)
    agent = load_agent(path, num_simulations=0)
    assert agent.num_simulations == 0
    model = agent._policy.model
    for obs, _, _, legal in positions(20, seed=2):
        planes = torch.as_tensor(np.asarray(obs["observation"], np.float32).reshape(1, -1))
        with torch.no_grad():
            logits = model.initial_inference(planes).policy_logits[0].double().numpy()
        want = np.where(legal, np.exp(logits - logits[legal].max()), 0.0)
        want /= want.sum()
        got = agent.policy(obs)
        np.testing.assert_allclose(got, want, atol=1e-5)
        assert got[~legal].sum() == 0 and got.sum() == pytest.approx(1.0)
        assert agent.act(obs) == int(np.argmax(np.where(legal, want, -1.0)))


def test_a_trained_self_play_run_is_an_agent_on_the_command_line(
    tmp_path, capsys, tiny_muzero, monkeypatch
):
    from lzero.entry import train_muzero

    train_muzero(list(tiny_muzero(tmp_path / "exp", sp)), seed=0, max_env_step=60)
    ckpt = tmp_path / "exp" / "ckpt" / "ckpt_last.pth.tar"
    arena = ["arena", "tictactoe", "--bot1", f"agent:{ckpt}", "--bot2", "random", "--games", "2"]
    assert lzero_main(arena) == 0
    out = capsys.readouterr().out
    assert "tictactoe: 2 games" in out and f"bot1 agent:{ckpt}" in out
    # The shell leaves '~' after 'agent:' as it is; the command expands it.
    monkeypatch.setenv("HOME", str(tmp_path))
    home = ["arena", "tictactoe", "--bot1", "agent:~/exp/ckpt/ckpt_last.pth.tar", "--games", "1"]
    assert lzero_main([*home, "--bot2", "random"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert lzero_main([*arena, "--agent-simulations", "0"]) == 0
    capsys.readouterr()
    # Its config's options are AlphaZero's search settings: refused, named.
    assert lzero_main([*arena, "--agent-fpu-reduction", "0.2"]) == 2
    err = capsys.readouterr().err
    assert "is a MuZero checkpoint" in err and "fpu_reduction" in err
    assert lzero_main(["arena", "connect4", "--bot1", f"agent:{ckpt}", "--games", "1"]) == 2
    assert "expected a checkpoint of connect4" in capsys.readouterr().err


def test_lzero_eval_reads_the_recorded_config_and_takes_openings(tmp_path, capsys):
    path, input_cfg = write_checkpoint(tmp_path, sp)
    base = ["eval", "--ckpt", str(path), "--episodes", "2", "--bots", "rule", "--seed", "4"]
    assert lzero_main(base) == 0
    without_config = capsys.readouterr().out
    input_cfg[0].policy.eval_bots = ["rule"]
    eval_muzero_with_gym_env(input_cfg, seed=4, model_path=str(path), num_episodes=2)
    assert capsys.readouterr().out == without_config
    assert "vs       rule" in without_config
    # --openings reaches MuZero's games (it was once ignored there).
    assert lzero_main([*base, "--openings", "2"]) == 0
    assert "both colours, 2-move random openings:" in capsys.readouterr().out
    assert lzero_main([*base, "--fpu-reduction", "0.2"]) == 2
    assert "--fpu-reduction: expected an AlphaZero checkpoint" in capsys.readouterr().err


def test_recorded_openings_replay_the_evaluators_games(tmp_path):
    """``opening_moves`` of ``eval_muzero_with_gym_env`` is the evaluator's: the same seed and
    openings give the evaluator's own results, and refused for a gym task."""
    path, input_cfg = write_checkpoint(tmp_path, sp)
    mean, returns = eval_muzero_with_gym_env(
        input_cfg, seed=5, model_path=str(path), num_episodes=4, opening_moves=2
    )
    cfg = compile_config(copy.deepcopy(input_cfg))
    policy = muzero_setup.make_policy(cfg)
    muzero_setup.load_checkpoint(policy, path, cfg)
    evaluator = MuZeroBoardEvaluator(
        policy, cfg.create_env, cfg.env, bots=cfg.policy.eval_bots, seed=5, opening_moves=2
    )
    assert evaluator.eval(4).tolist() == returns
    with pytest.raises(
        ConfigError, match=r"opening_moves \(lzero eval --openings\): expected 0 for a gym task"
    ):
        eval_muzero_with_gym_env(copy.deepcopy([cartpole.main_config, cartpole.create_config]),
                                 num_episodes=1, opening_moves=2)  # fmt: skip
    with pytest.raises(ConfigError, match="expected opening_moves to be an int >= 0, got -1"):
        eval_muzero_with_gym_env(input_cfg, model_path=str(path), opening_moves=-1)


def test_checkpoints_that_cannot_play_a_board_game_are_refused(tmp_path, capsys):
    """A gym task's checkpoint is no board player (lzero eval still evaluates it), AlphaZero's
    search settings are refused, and so is a checkpoint that records no config."""
    path, _ = write_checkpoint(tmp_path, cartpole, name="cartpole.pth.tar")
    with pytest.raises(ConfigError, match="a MuZero checkpoint of the gym task 'CartPole-v0'"):
        load_agent(path)
    # lzero eval takes it without its config all the same: returns on its task.
    assert lzero_main(["eval", "--ckpt", str(path), "--episodes", "1"]) == 0
    assert "eval over 1 episodes: mean return" in capsys.readouterr().out
    board, _ = write_checkpoint(tmp_path, sp)
    with pytest.raises(ConfigError, match="got inference_dtype, reuse_tree"):
        load_agent(board, inference_dtype="float32", reuse_tree=True)
    # One written before checkpoints recorded their config.
    state = torch.load(board, weights_only=True)
    del state["config"]
    old = tmp_path / "old.pth.tar"
    torch.save(state, old)
    with pytest.raises(ConfigError, match="does not record its config"):
        load_agent(old)
    assert lzero_main(["eval", "--ckpt", str(old), "--episodes", "1"]) == 2
    assert "lzero eval CONFIG --ckpt PATH evaluates it" in capsys.readouterr().err
    missing = r"expected an AlphaZero or MuZero checkpoint file, got .*missing.pth.tar' \(not found"
    with pytest.raises(ConfigError, match=missing):
        load_agent(tmp_path / "missing.pth.tar")
    # 0.5 was truncated to 0, the raw network, without a word; -0.5 passed too.
    for bad in (0.5, 2.5, -0.5, "7", True, -1):
        with pytest.raises(ValueError, match="expected num_simulations to be an int >= 0 or None"):
            load_agent(board, num_simulations=bad)


def plain_winner(board, k):
    """The player with ``k`` of their stones in a row, column or diagonal of ``board`` (0 if
    none), by scanning every line start in plain Python."""
    h, w = board.shape
    for r in range(h):
        for c in range(w):
            p = int(board[r, c])
            if p == 0:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < h and 0 <= x < w and board[y, x] == p for y, x in cells):
                    return p
    return 0


@settings(max_examples=200, deadline=None)
@given(game=st.sampled_from(["gomoku", "connect4"]), data=st.data())
def test_line_winner_finds_exactly_the_boards_with_a_winning_line(game, data):
    """``line_winner`` (the game's ``result_after`` about every stone) against a plain scan
    of every line, on random boards dense enough that about half hold a line, with one
    side's stones only so that the winner is unique."""
    from zoo.board_games.connect4.envs import connect4_rules
    from zoo.board_games.gomoku.envs import gomoku_rules

    rules = gomoku_rules.make_rules(9) if game == "gomoku" else connect4_rules.RULES
    k = rules.win_length
    seed = data.draw(st.integers(0, 2**32 - 1))
    density = data.draw(st.floats(0.2, 0.7))
    rng = np.random.default_rng(seed)
    player = int(rng.integers(1, 3))
    board = np.where(rng.random((rules.height, rules.width)) < density, player, 0).astype(np.int8)
    assert line_winner(board, rules.result_after) == plain_winner(board, k)


@pytest.mark.parametrize("simulations", [8, 0])
def test_analyze_shows_the_search_behind_the_move(tmp_path, simulations):
    """``analyze``: the move ``act`` plays, the search's visit shares and root value (the
    network's probabilities and value without a search), as the policy computes them."""
    path, _ = write_checkpoint(tmp_path, sp, seed=4)
    agent = load_agent(path, num_simulations=simulations)
    initial, _ = agent._policy.inference_steps()
    for obs, _, player, legal in positions(12, seed=5):
        view = agent.analyze(obs)
        assert view.action == agent.act(obs) and legal[view.action]
        assert view.num_simulations == simulations
        assert view.policy.sum() == pytest.approx(1.0) and view.policy[~legal].sum() == 0
        planes = np.asarray(obs["observation"], np.float32).reshape(1, -1)
        if simulations:
            _, shares, values = agent._policy.search(
                planes, legal[None], rng=None, explore=False, to_play=np.array([player])
            )
            np.testing.assert_allclose(view.policy, shares[0])
            assert view.value == pytest.approx(float(values[0]))
        else:
            np.testing.assert_allclose(view.policy, agent.policy(obs))
            value = float(initial(torch.from_numpy(planes))[1].reshape(-1)[0])
            assert view.value == pytest.approx(value, abs=1e-6)
