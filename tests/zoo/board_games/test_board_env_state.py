"""Setting a board env's state from outside, as LightZero code does: ``board``, ``battle_mode``,
and copies made by ``simulate_action``."""

from __future__ import annotations

import numpy as np
import pytest

from lzero.errors import ConfigError
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv


def test_a_board_of_another_dtype_is_stored_as_int8_and_the_game_goes_on():
    env = TicTacToeEnv()
    env.seed(0)
    env.reset()
    env.board = np.zeros((3, 3), dtype=np.int64)
    assert env.board.dtype == np.int8 and env.board.flags.c_contiguous
    obs = env.reset()
    assert not obs["board"].any() and env.step(4).obs["board"][1, 1] == 1


def test_a_board_of_another_shape_is_refused():
    env = TicTacToeEnv()
    with pytest.raises(ValueError, match=r"board: expected shape \(3, 3\) or \(9,\), got \(4, 4\)"):
        env.board = np.zeros((4, 4))


def test_battle_mode_can_be_switched_as_lightzero_alphazero_does():
    """LightZero's AlphaZero MCTS sets ``battle_mode`` to ``battle_mode_in_simulation_env`` on
    its simulation envs, then resets them to a position: the switched env plays one move per
    step and reports ``to_play``."""
    env = Connect4Env({"battle_mode": "play_with_bot_mode"})
    assert env.battle_mode_in_simulation_env == "self_play_mode"
    env.seed(0)
    env.reset()
    assert np.count_nonzero(env.step(3).obs["board"]) == 2  # the agent's move and the bot's
    env.battle_mode = env.battle_mode_in_simulation_env
    obs = env.reset(start_player_index=1, init_state=np.zeros((6, 7)))
    assert obs["to_play"] == 2
    ts = env.step(3)
    assert np.count_nonzero(ts.obs["board"]) == 1 and ts.obs["to_play"] == 1


def test_an_unknown_battle_mode_is_refused_and_the_mode_kept():
    env = TicTacToeEnv()
    with pytest.raises(ConfigError, match=r"battle_mode: unknown battle mode 'self_play'"):
        env.battle_mode = "self_play"
    assert env.battle_mode == "self_play_mode"


def test_resetting_a_simulated_copy_leaves_the_original_games_alone():
    """The copy draws its episodes from a seed stream of its own (found by QA: it shared the
    original's, so resetting the copy changed the original's next games)."""

    def next_game(touch_copy: bool) -> list[bytes]:
        env = Connect4Env({"battle_mode": "play_with_bot_mode", "bot_action_type": "random"})
        env.seed(3)
        env.reset()
        if touch_copy:
            env.simulate_action(0).reset()
        env.reset()
        return [env.step(c).obs["board"].tobytes() for c in (0, 0, 0)]

    assert next_game(False) == next_game(True)
