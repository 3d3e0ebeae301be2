"""Near-stone candidates of the rollouts and expansions, on a known position and against
brute force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.mcts.batched_search import BatchedSearch
from lzero.mcts.game import GameKernels
from lzero.mcts.python_uct import PythonUCT
from lzero.mcts.rollout import MAX_NEAR_WIDTH, candidate_actions, mark_near_stones


def test_near_stone_candidates_are_the_empty_cells_within_the_radius(ttt):
    board = np.zeros((9, 9), np.int8)
    board[0, 0], board[4, 4] = 1, 2
    out, scratch = np.zeros(81, np.int64), np.zeros((4, 81), np.int64)
    n = candidate_actions(board, 1, 1, scratch, out, ttt.legal_actions)
    assert sorted(out[:n]) == [1, 9, 10, 30, 31, 32, 39, 41, 48, 49, 50]
    n = candidate_actions(board, 1, 2, scratch, out, ttt.legal_actions)
    want = sorted(
        r * 9 + c
        for r in range(9)
        for c in range(9)
        if board[r, c] == 0
        and any(max(abs(r - sr), abs(c - sc)) <= 2 for sr, sc in ((0, 0), (4, 4)))
    )
    assert sorted(out[:n]) == want


@settings(max_examples=200, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 12), st.sampled_from([1, 2, 3, 9, 15, 19, 63, MAX_NEAR_WIDTH])),
    radius=st.sampled_from([1, 2, 3, 5, 70]),
    density=st.floats(0.0, 0.5),
    seed=st.integers(0, 2**16),
)
def test_near_stone_marks_equal_brute_force(shape, radius, density, seed):
    rng = np.random.default_rng(seed)
    h, w = shape
    board = np.where(rng.random(shape) < density, rng.integers(1, 3, shape), 0).astype(np.int8)
    stones = list(zip(*np.nonzero(board)))
    want = [
        int(any(max(abs(r - sr), abs(c - sc)) <= radius for sr, sc in stones))
        for r in range(h)
        for c in range(w)
    ]
    mark = np.full(h * w + 3, 7, np.int64)
    assert mark_near_stones(board, radius, mark) == len(stones)
    assert mark[: h * w].tolist() == want
    assert mark[h * w :].tolist() == [7, 7, 7]  # nothing written past the board


def test_a_radius_on_a_board_too_wide_for_the_marks_is_refused(ttt):
    wide = GameKernels(ttt.legal_actions, ttt.apply_action, ttt.result_after, 2 * 65, (2, 65), True)
    with pytest.raises(ValueError, match="expected radius 0 on a board wider than 64 columns"):
        BatchedSearch(wide, radius=2)
    with pytest.raises(ValueError, match="expected radius 0 on a board wider than 64 columns"):
        PythonUCT(wide, radius=2)
    BatchedSearch(wide, radius=0)
    PythonUCT(wide, radius=0)
