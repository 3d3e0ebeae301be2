"""Rule bots against a uniformly random player (both colours) and on tactical positions."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from board_reference import ONGOING, connect4, gomoku, tictactoe
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from lzero.utils.nbrng import make_rng_state
from zoo.board_games.common.tactics import random_legal_action, winning_action
from zoo.board_games.connect4.envs import connect4_bot, connect4_rules
from zoo.board_games.gomoku.envs import gomoku_bot, gomoku_rules
from zoo.board_games.tictactoe.envs import tictactoe_bot, tictactoe_rules

BOTS = {
    "tictactoe": (tictactoe_rules, tictactoe_bot.rule_bot_action, (3, 3)),
    "connect4": (connect4_rules, connect4_bot.rule_bot_action, (6, 7)),
    "gomoku": (gomoku_rules, gomoku_bot.rule_bot_action, (15, 15)),
}


@njit
def _bot_vs_random(bot, apply_action, result_after, h, w, gravity, bot_player, n_games, rng):
    """Plays ``n_games``; returns the result code (1, 2 winner, 3 draw) of each game."""
    results = np.zeros(n_games, np.int64)
    for g in range(n_games):
        board = np.zeros((h, w), np.int8)
        player = 1
        for t in range(h * w):
            if player == bot_player:
                action = bot(board, player, rng)
            else:
                action = random_legal_action(board, gravity, rng)
            cell = apply_action(board, action, player)
            r = result_after(board, cell, player, t + 1)
            if r != 0:
                results[g] = r
                break
            player = 3 - player
    return results


def bot_score(name: str, n_games: int, seed: int) -> tuple[float, float]:
    """Returns (score, loss rate) of the rule bot over ``n_games`` per colour."""
    rules, bot, (h, w) = BOTS[name]
    score = losses = 0.0
    for bot_player in (1, 2):
        res = _bot_vs_random(
            bot,
            rules.apply_action,
            rules.result_after,
            h,
            w,
            rules.RULES.gravity,
            bot_player,
            n_games,
            make_rng_state(seed + bot_player),
        )
        score += np.sum(res == bot_player) + 0.5 * np.sum(res == 3)
        losses += np.sum(res == 3 - bot_player)
    return score / (2 * n_games), losses / (2 * n_games)


@pytest.mark.parametrize(
    ("name", "threshold"), [("tictactoe", 0.9), ("connect4", 0.95), ("gomoku", 0.95)]
)
def test_rule_bot_beats_random_player(name, threshold):
    score, _ = bot_score(name, 200, seed=7)
    assert score >= threshold, f"{name} rule bot scored {score:.3f} < {threshold}"


def test_bots_take_wins_and_block():
    rng = make_rng_state(0)
    board = np.array([[1, 1, 0], [2, 2, 0], [0, 0, 0]], np.int8)
    assert tictactoe_bot.rule_bot_action(board, 1, rng) == 2  # win beats blocking at 5
    assert tictactoe_bot.rule_bot_action(board, 2, rng) == 5
    board = np.zeros((6, 7), np.int8)
    board[5, 0:3] = 2
    board[4, 0:2] = 1
    assert connect4_bot.rule_bot_action(board, 1, rng) == 3  # block the bottom row
    board = np.zeros((15, 15), np.int8)
    board[7, 4:8] = 2
    board[7, 3] = 1
    assert gomoku_bot.rule_bot_action(board, 1, rng) == 7 * 15 + 8  # block the four
    board[0, 0:4] = 1
    assert gomoku_bot.rule_bot_action(board, 1, rng) == 4  # but win first


def test_connect4_bot_does_not_play_under_opponent_win():
    # Player 2 has three in row 4 (columns 0-2) and (4, 3) is empty over an empty (5, 3): a
    # stone in the central column 3 would let 2 complete the line on top of it.
    board = np.zeros((6, 7), np.int8)
    board[5, :] = [1, 2, 1, 0, 2, 1, 1]
    board[4, :] = [2, 2, 2, 0, 0, 1, 0]
    assert winning_action(board, 1, 4, True) == winning_action(board, 2, 4, True) == -1
    chosen = {connect4_bot.rule_bot_action(board, 1, make_rng_state(s)) for s in range(50)}
    assert chosen == {2, 4}  # the next most central columns, at random
    board[4, 0] = 0  # without the threat the bot goes back to the centre
    chosen = {connect4_bot.rule_bot_action(board, 1, make_rng_state(s)) for s in range(50)}
    assert chosen == {3}


def test_bots_are_deterministic_per_seed():
    board = np.zeros((15, 15), np.int8)
    board[7, 7] = 1
    a = [gomoku_bot.rule_bot_action(board, 2, make_rng_state(5)) for _ in range(3)]
    assert len(set(a)) == 1
    assert gomoku_bot.rule_bot_action(np.zeros((9, 9), np.int8), 1, make_rng_state(0)) == 40


def _immediate_wins(ref, player):
    """Actions that win at once for ``player``, by the plain-Python reference's full rescan."""
    wins = []
    for action in ref.legal():
        trial = copy.deepcopy(ref)
        trial.play(action, player)
        if trial.result() == player:
            wins.append(action)
    return wins


@pytest.mark.parametrize("name", list(BOTS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_hypothesis_bot_is_legal_wins_and_blocks_plus_compile_check(name, data):
    """On random positions: the move is legal, takes a win if there is one, else blocks the
    opponent's only win (against the plain-Python reference game); and, as a compile check
    only (not a reference), the jitted bot equals its ``py_func`` given the same generator."""
    rules, bot, (h, w) = BOTS[name]
    make_ref = {"tictactoe": tictactoe, "connect4": connect4, "gomoku": gomoku}[name]
    ref, player = make_ref(), 1
    for _ in range(data.draw(st.integers(0, h * w - 1))):
        action = data.draw(st.sampled_from(ref.legal()))
        ref.play(action, player)
        if ref.result() != ONGOING:
            return
        player = 3 - player
    board = np.array(ref.board, np.int8)
    rng = make_rng_state(data.draw(st.integers(0, 2**32)))
    action = bot(board.copy(), player, rng.copy())
    assert action == bot.py_func(board.copy(), player, rng.copy())
    assert action in ref.legal()
    mine, theirs = _immediate_wins(ref, player), _immediate_wins(ref, 3 - player)
    if mine:
        assert action in mine
    elif len(theirs) == 1:
        assert action == theirs[0]
