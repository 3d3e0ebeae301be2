"""Near-stone candidates of the rollouts and expansions, on a known position."""

from __future__ import annotations

import numpy as np

from lzero.mcts.rollout import candidate_actions


def test_near_stone_candidates_are_the_empty_cells_within_the_radius(ttt):
    board = np.zeros((9, 9), np.int8)
    board[0, 0], board[4, 4] = 1, 2
    out, scratch = np.zeros(81, np.int64), np.zeros((4, 81), np.int64)
    n = candidate_actions(board, 1, scratch, out, ttt.legal_actions)
    assert sorted(out[:n]) == [1, 9, 10, 30, 31, 32, 39, 41, 48, 49, 50]
    n = candidate_actions(board, 2, scratch, out, ttt.legal_actions)
    want = sorted(
        r * 9 + c
        for r in range(9)
        for c in range(9)
        if board[r, c] == 0
        and any(max(abs(r - sr), abs(c - sc)) <= 2 for sr, sc in ((0, 0), (4, 4)))
    )
    assert sorted(out[:n]) == want
