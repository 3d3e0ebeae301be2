"""The Othello kernel against a plain-Python Othello written from the rules, over random
games (hypothesis), and against OpenSpiel's ``othello`` where it is installed."""

from __future__ import annotations

import numpy as np
import othello_reference as ref
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo.board_games.common.rules import DRAW, ONGOING
from zoo.board_games.othello.envs import othello_rules as rules


def as_board(discs: dict) -> np.ndarray:
    board = np.zeros((8, 8), np.int8)
    for (r, c), p in discs.items():
        board[r, c] = p
    return board


def test_the_start_and_its_four_moves():
    board = rules.RULES.start_board()
    assert np.array_equal(board, as_board(ref.start()))
    out = np.zeros(65, np.int64)
    n = rules.legal_actions(board, 1, out)
    assert out[:n].tolist() == [19, 26, 37, 44]  # d3, c4, f5, e6
    mask = np.zeros(65, np.int8)
    rules.legal_mask(board, 2, mask)
    assert np.flatnonzero(mask).tolist() == [20, 29, 34, 43]  # e3, f4, c5, d6


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_match_the_reference(seed):
    """Every position of a random game: the same legal moves (mask and list), the same board
    after each move, the same result after each move and of the position as a whole."""
    rng = np.random.default_rng(seed)
    discs, player = ref.start(), 1
    board = rules.RULES.start_board()
    out, mask = np.zeros(65, np.int64), np.zeros(65, np.int8)
    for ply in range(200):
        want = [ref.action(m) for m in ref.legal(discs, player)]
        n = rules.legal_actions(board, player, out)
        assert out[:n].tolist() == want
        rules.legal_mask(board, player, mask)
        assert np.flatnonzero(mask).tolist() == want
        assert rules.position_result(board) == ONGOING
        move = ref.legal(discs, player)[rng.integers(len(want))]
        discs = ref.play(discs, move, player)
        cell = rules.apply_action(board, ref.action(move), player)
        assert cell == ref.action(move)
        assert np.array_equal(board, as_board(discs))
        result = rules.result_after(board, cell, player, ply + 1)
        if ref.over(discs):
            assert result == ref.winner(discs) == rules.position_result(board)
            break
        assert result == ONGOING
        player = 3 - player
    else:
        pytest.fail("a game of Othello lasted 200 plies")


def test_a_forced_pass_and_an_early_end():
    # White's only disc is taken on black's move: neither side can place, black wins 4-0.
    board = np.zeros((8, 8), np.int8)
    board[0, 0:3] = (1, 2, 0)
    board[1, 0] = 1
    cell = rules.apply_action(board, 2, 1)  # c1 flips b1
    assert board[0].tolist()[:3] == [1, 1, 1]
    assert rules.result_after(board, cell, 1, 1) == 1
    # A position where white has no placement but black has: white's only move is the pass.
    board = np.zeros((8, 8), np.int8)
    board[0, 0], board[0, 1] = 1, 2  # black a1 in the corner: white brackets nothing
    # black's c1 takes b1
    out = np.zeros(65, np.int64)
    assert out[: rules.legal_actions(board, 2, out)].tolist() == [rules.PASS]
    assert out[: rules.legal_actions(board, 1, out)].tolist() == [2]
    before = board.copy()
    assert rules.apply_action(board, rules.PASS, 2) == rules.PASS
    assert np.array_equal(board, before)
    assert rules.result_after(board, rules.PASS, 2, 1) == ONGOING


def test_equal_discs_draw():
    board = np.zeros((8, 8), np.int8)
    board[0, 0], board[7, 7] = 1, 2
    assert rules.position_result(board) == DRAW


def test_openspiel_plays_the_same_games():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is in the bench extra")
    game = pyspiel.load_game("othello")
    rng = np.random.default_rng(0)
    out = np.zeros(65, np.int64)
    for _ in range(20):
        state, board, player = game.new_initial_state(), rules.RULES.start_board(), 1
        while not state.is_terminal():
            n = rules.legal_actions(board, player, out)
            assert out[:n].tolist() == sorted(state.legal_actions())
            a = int(out[rng.integers(n)])
            state.apply_action(a)
            rules.apply_action(board, a, player)
            player = 3 - player
        black, white = rules.disc_counts(board)
        returns = state.returns()  # OpenSpiel's player 0 is black
        assert np.sign(returns[0]) == np.sign(black - white)
