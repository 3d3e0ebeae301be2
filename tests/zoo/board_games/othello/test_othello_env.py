"""OthelloEnv: the three battle modes, its bots, its render modes, typed moves with ``pass``,
positions set whole, and the ``lzero play`` terminal game, as a player meets them."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import othello_reference as ref
import pytest

from lzero.errors import IllegalActionError
from zoo.board_games import human_input
from zoo.board_games.env_support import bot_move
from zoo.board_games.othello.envs.othello_env import OthelloEnv
from zoo.board_games.othello.envs.othello_rules import PASS


def discs_of(board: np.ndarray) -> dict:
    return {(int(r), int(c)): int(board[r, c]) for r, c in zip(*np.nonzero(board))}


def test_self_play_rewards_follow_the_count():
    """Random self-play games: each step's reward is the mover's (+1 won, -1 lost by the
    count, 0 otherwise), and the episode return is black's result, as the reference says."""
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.seed(3)
    for _ in range(3):
        env.reset()
        done = False
        while not done:
            mover = env.current_player
            ts = env.step(env.random_action())
            done = ts.done
        result = ref.winner(discs_of(env.board))
        want = 0.0 if result == 3 else (1.0 if result == mover else -1.0)
        assert float(ts.reward[0]) == want
        assert ts.info["eval_episode_return"] == {1: 1.0, 2: -1.0, 3: 0.0}[result]


@pytest.mark.parametrize("bot", ["rule", "alpha_beta", "mcts", "random"])
def test_every_bot_plays_legal_moves_to_the_end(bot):
    env = OthelloEnv(
        dict(battle_mode="play_with_bot_mode", bot_action_type=bot, mcts_bot_num_simulations=20)
    )
    env.seed(0)
    env.reset()
    done = False
    while not done:
        ts = env.step(env.random_action())  # the env checks the bot's replies too
        done = ts.done
    assert ts.info["eval_episode_return"] in (-1.0, 0.0, 1.0)


def bot_score(bot: str, opponent: str, games: int) -> float:
    """Wins minus losses per game of ``bot`` against ``opponent``, both colours."""
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.seed(11)
    score = 0.0
    for g in range(games):
        env.reset()
        colour = 1 + g % 2
        while not env.get_done_winner()[0]:
            env.step(bot_move(env, bot if env.current_player == colour else opponent))
        winner = env.get_done_winner()[1]
        score += 0 if winner == -1 else (1 if winner == colour else -1)
    return score / games


def test_the_rule_bot_beats_random_play_and_alpha_beta_beats_the_rule_bot():
    assert bot_score("rule", "random", 8) >= 0.5
    assert bot_score("alpha_beta", "rule", 6) >= 1 / 3


def test_render_modes_show_coordinates_counts_and_legal_moves(tmp_path):
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.reset()
    text = env.render("ansi")
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefgh") and lines[1].split()[0] == "1"
    assert text.count("*") == 4 and "X to move (X 2, O 2)" in text
    env.step(19)  # d3
    text = env.render("ansi")
    assert "[X]" in text and "O to move (X 4, O 1)" in text and text.count("*") == 3
    frame = env.render("rgb_array")
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    gif_env = OthelloEnv(
        dict(battle_mode="self_play_mode", render_mode="image_savefile_mode",
             replay_path=str(tmp_path))
    )  # fmt: skip
    gif_env.seed(0)
    gif_env.reset()
    while not gif_env.step(gif_env.random_action()).done:
        pass
    assert gif_env.last_replay_file and os.path.getsize(gif_env.last_replay_file) > 0


def test_moves_are_typed_like_d3_or_pass():
    assert human_input.parse_move("d3", "grid", 8, 8, passes=True) == 19
    assert human_input.parse_move(" PASS ", "grid", 8, 8, passes=True) == PASS
    assert human_input.move_to_string(19, "grid", 8, 8) == "d3"
    assert human_input.move_to_string(PASS, "grid", 8, 8) == "pass"
    with pytest.raises(ValueError, match=r"a coordinate a1-h8 \(column letter, row number from the top\), e\.g\. d3, or pass, got 'i9'"):  # fmt: skip
        human_input.parse_move("i9", "grid", 8, 8, passes=True)
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.reset()
    assert env.action_to_string(PASS) == "pass"
    with pytest.raises(IllegalActionError, match=r"got 64; legal actions: \[19, 26, 37, 44\]"):
        env.step(PASS)  # no pass while a placement is there
    with pytest.raises(IllegalActionError, match="got 0"):
        env.step(0)  # a1 flips nothing


def test_a_forced_pass_is_the_only_move_and_a_finished_position_is_refused():
    board = np.zeros((8, 8), np.int8)
    board[0, 0], board[0, 1] = 1, 2  # black a1; white b1: only black's c1 is a move
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.reset(start_player_index=1, init_state=board)  # white to move: it must pass
    assert env.legal_actions == [PASS]
    env.step(PASS)
    assert env.current_player == 1 and env.legal_actions == [2]
    ts = env.step(2)
    assert ts.done and env.get_done_winner() == (True, 1) and float(ts.reward[0]) == 1.0
    with pytest.raises(ValueError, match="expected a running game, got a finished one"):
        env.reset(init_state=env.board)


def test_setting_the_player_to_move_updates_the_legal_moves():
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.reset()
    env.current_player = 2
    assert env.legal_actions == [20, 29, 34, 43]


def test_lzero_play_othello_at_the_terminal():
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    moves = "a1\npass\nd3\n" + "\n".join(f"{c}{r}" for r in range(1, 9) for c in "abcdefgh")
    proc = subprocess.run(
        [sys.executable, "-m", "zoo.board_games.cli", "play", "othello", "--bot", "rule"],
        input=moves + "\npass\n" * 40, capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in out + proc.stderr
    assert "Invalid move: 'a1' is not legal now (a move must flip a disc" in out
    assert "Invalid move: 'pass' is not legal now" in out
    assert "(X 4, O 1)" in out  # after d3


def test_one_alphazero_collect_and_update_with_the_pass_and_the_symmetries():
    """AlphaZero's collector plays Othello (the pass included) and its positions train; the
    8 symmetries permute the 64 cells' targets and keep the pass's."""
    pytest.importorskip("torch")
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.alphazero_config import compile_alphazero_config
    from lzero.policy.board_game import BoardGame
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    game = BoardGame.from_env(env)
    cfg = compile_alphazero_config(
        [
            dict(
                policy=dict(
                    model=dict(observation_shape=(3, 8, 8), action_space_size=65, num_channels=8),
                    mcts=dict(num_simulations=4),
                )
            ),
            dict(env=dict(type="othello")),
        ]
    )
    policy = AlphaZeroPolicy(cfg.policy, game, seed=0)
    collector = AlphaZeroCollector(policy, "othello", {"battle_mode": "self_play_mode"}, 2, seed=0)
    data = collector.collect(2)
    collector.close()
    assert data["policy"].shape[1] == 65 and len(data["value"]) >= 2 * 30
    assert np.abs(data["value"]).max() <= 1.0
    assert policy.learn(data["planes"], data["policy"], data["value"])["total_loss"] > 0
    from lzero.worker.board_agents import Agent

    agent = Agent(policy, num_simulations=4)
    finished = np.ones((8, 8), np.int8)
    finished[4:] = 2  # 32 discs each, no move left: a draw
    with pytest.raises(ValueError, match="got a finished game \\(neither player has a move\\)"):
        agent.act({"board": finished, "to_play": 1})
    start = env.rules.start_board()
    assert agent.act({"board": start, "to_play": 1}) in (19, 26, 37, 44)
    assert game.num_symmetries == 8
    cells, actions = game.symmetry_permutations()
    assert (actions[:, 64] == 64).all() and sorted(actions[3, :64]) == list(range(64))


def test_the_mcts_bot_leaves_tactics_off_and_the_search_refuses_them():
    """The tactics undo a move by clearing its cell, which leaves Othello's turned discs: the
    bot keeps them off, the search refuses them, and the root board is searched as given."""
    from lzero.mcts import BatchedSearch, GameKernels
    from zoo.board_games.mcts_bot import MCTSBot

    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.reset()
    start = env.board.copy()
    bot = MCTSBot(env, "mcts", 50)
    assert bot.get_actions(start, player_index=0) in (19, 26, 37, 44)
    assert np.array_equal(bot._search._boards[0, 0], start)
    with pytest.raises(ValueError, match="expected tactics and tree_tactics False for a game"):
        BatchedSearch(GameKernels.from_rules(env.rules), tactics=True)


def test_lightzeros_state_setters_follow_the_player_to_move():
    env = OthelloEnv(dict(battle_mode="self_play_mode"))
    env.reset()
    board, legal = env.simulate_action_v2(env.rules.start_board(), 1, 20)  # white's e3
    assert board[2, 4] == 2 and board[3, 4] == 2  # e4 turned
    env.reset_v2()  # no position: the start, black to move
    assert env.get_done_winner() == (False, -1) and env.legal_actions == [19, 26, 37, 44]
    env.reset_v2(start_player_index=1)
    assert env.legal_actions == [20, 29, 34, 43]


def test_a_losing_move_is_rewarded_minus_one_on_the_general_path_too():
    """With ``prob_random_agent`` the step goes the general way; its reward is the mover's
    as on the fast path (-1 when the count goes against the last mover)."""
    rewards = {}
    for p in (0.0, 1e-12):
        env = OthelloEnv(dict(battle_mode="self_play_mode", prob_random_agent=p))
        env.seed(0)
        out = []
        for _ in range(6):
            env.reset()
            while not (ts := env.step(env.random_action())).done:
                pass
            out.append(float(ts.reward[0]))
        rewards[p] = out
    assert rewards[0.0] == rewards[1e-12] and -1.0 in rewards[0.0]
