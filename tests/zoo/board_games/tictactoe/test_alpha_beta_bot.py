"""The alpha-beta TicTacToe bot against exhaustive minimax over every reachable position."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from zoo.board_games.env_support import bot_move
from zoo.board_games.tictactoe.envs import alpha_beta_bot
from zoo.board_games.tictactoe.envs.alpha_beta_bot import alpha_beta_action, alpha_beta_values
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _winner(cells: tuple[int, ...]) -> int:
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


@functools.cache
def _minimax(cells: tuple[int, ...], player: int) -> int:
    """Plain minimax, no pruning: score for ``player`` to move on an unfinished board."""
    return max(_move_score(cells, player, i) for i in range(9) if cells[i] == 0)


def _move_score(cells: tuple[int, ...], player: int, i: int) -> int:
    after = cells[:i] + (player,) + cells[i + 1 :]
    stones = sum(v != 0 for v in after)
    if _winner(after) == player:
        return 10 - stones
    if stones == 9:
        return 0
    return -_minimax(after, 3 - player)


def _reachable() -> list[tuple[tuple[int, ...], int]]:
    """Every unfinished position reachable from the empty board, with the player to move,
    whichever player opens."""
    seen, frontier = set(), [((0,) * 9, 1), ((0,) * 9, 2)]
    while frontier:
        cells, player = frontier.pop()
        if (cells, player) in seen:
            continue
        seen.add((cells, player))
        for i in range(9):
            if cells[i] == 0:
                after = cells[:i] + (player,) + cells[i + 1 :]
                if not _winner(after) and not all(after):
                    frontier.append((after, 3 - player))
    return sorted(seen)


def test_every_reachable_position_matches_exhaustive_minimax():
    positions = _reachable()  # sorted by board: both openers' positions interleave
    assert len(positions) == 2 * 4520  # unfinished positions (5478 with finished), per opener
    for cells, player in positions:
        board = np.array(cells, np.int8).reshape(3, 3)
        got = alpha_beta_values(board, player)
        want = [_move_score(cells, player, i) if cells[i] == 0 else -100 for i in range(9)]
        assert got.tolist() == want, (cells, player)
        assert _move_score(cells, player, alpha_beta_action(board, player)) == max(want)


def test_the_same_board_with_either_player_to_move():
    """Equal stone counts arise with either player to move when either may open."""
    cells = (1, 0, 0, 0, 2, 0, 0, 0, 0)
    board = np.array(cells, np.int8).reshape(3, 3)
    for player in (2, 1, 2):  # the table must not mix the two positions up
        want = [_move_score(cells, player, i) if cells[i] == 0 else -100 for i in range(9)]
        assert alpha_beta_values(board, player).tolist() == want


def test_a_fresh_table_gives_the_same_values_as_the_shared_one():
    board = np.array([[1, 0, 0], [0, 2, 0], [0, 0, 1]], np.int8)
    tt_value = np.zeros_like(alpha_beta_bot._TT_VALUE)
    tt_flag = np.zeros_like(alpha_beta_bot._TT_FLAG)
    fresh = alpha_beta_bot._root_values(board.copy(), 2, tt_value, tt_flag)
    assert fresh.tolist() == alpha_beta_values(board, 2).tolist()
    assert 0 < (tt_flag != 0).sum() < 4520  # the table filled, pruning skipped positions


@pytest.mark.parametrize(
    ("rows", "player", "best"),
    [
        (["xx.", "oo.", "..."], 1, {2}),  # win at once
        (["xx.", "o..", "o.."], 2, {2}),  # block the only threat
        (["x..", "...", "..."], 2, {4}),  # the only drawing reply to a corner opening
    ],
)
def test_solved_positions(rows, player, best):
    board = np.array([[".xo".index(ch) for ch in row] for row in rows], np.int8)
    assert alpha_beta_action(board, player) in best


def test_perfect_play_from_the_start_is_a_draw():
    assert alpha_beta_values(np.zeros((3, 3), np.int8), 1).max() == 0


@pytest.mark.parametrize("kind", ["perfect", "alpha_beta"])
def test_the_envs_perfect_bot_plays_a_best_move_everywhere(kind):
    """The env's ``perfect`` and ``alpha_beta`` bots (its seeded tie-break included) play a
    move of the best exhaustive-minimax score on every tenth reachable position; two perfect
    bots draw."""
    env = TicTacToeEnv({"battle_mode": "self_play_mode", "bot_action_type": kind})
    env.seed(0)
    for cells, player in _reachable()[::10]:
        env.reset(init_state=np.array(cells, np.int8).reshape(3, 3), start_player_index=player - 1)
        want = max(_move_score(cells, player, i) for i in range(9) if cells[i] == 0)
        assert _move_score(cells, player, bot_move(env, kind)) == want, (cells, player)
    env.reset()
    done = False
    while not done:
        done = env.step(bot_move(env, kind)).done
    assert env.get_done_winner() == (True, -1)  # a draw


def test_ties_are_broken_by_the_generator():
    board = np.zeros((3, 3), np.int8)
    moves = {alpha_beta_action(board, 1, np.random.default_rng(s)) for s in range(30)}
    assert len(moves) > 1 and alpha_beta_action(board, 1) == 0


@pytest.mark.parametrize(
    ("board", "player", "match"),
    [
        (np.zeros((3, 4), np.int8), 1, r"shape \(3, 3\), got \(3, 4\)"),
        (np.full((3, 3), 5, np.int8), 1, r"values in \{0, 1, 2\}"),
        (np.zeros((3, 3), np.int8), 3, "expected player 1 or 2, got 3"),
        (np.array([[1, 1, 1], [2, 2, 0], [0, 0, 0]], np.int8), 2, "unfinished game"),
    ],
)
def test_invalid_input_is_rejected(board, player, match):
    with pytest.raises(ValueError, match=match):
        alpha_beta_action(board, player)
