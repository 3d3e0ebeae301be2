"""The line-window evaluator and priors of ``zoo.board_games.common.line_eval``: equal to a
plain-Python reference (windows listed cell by cell) on random positions, and right on
positions whose value is known (a four to complete, an open four to face, a forced block)."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo.board_games.common import line_eval
from zoo.board_games.common.line_eval import (
    DEFENCE,
    MAX_FORCED,
    MOVER_FACTOR,
    SCALE,
    WEIGHTS,
    line_priors,
    line_scores,
    line_value,
)


@functools.cache
def windows(h: int, w: int, k: int) -> list[list[tuple[int, int]]]:
    """Every ``k``-cell line segment of an ``h`` x ``w`` board, as lists of cells."""
    found = set()
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < h and 0 <= x < w for y, x in cells):
                    found.add(tuple(sorted(cells)))
    return [list(cells) for cells in sorted(found)]


def reference_scores(board: np.ndarray, k: int) -> tuple[list[float], list[set[int]]]:
    """Each player's window score and set of cells completing ``k``."""
    h, w = board.shape
    scores, wins = [0.0, 0.0], [set(), set()]
    for cells in windows(h, w, k):
        values = [int(board[y, x]) for y, x in cells]
        for p in (1, 2):
            if values.count(3 - p) == 0 and values.count(p) > 0:
                scores[p - 1] += WEIGHTS[values.count(p)]
                if values.count(p) == k - 1:
                    y, x = cells[values.index(0)]
                    wins[p - 1].add(y * w + x)
    return scores, wins


def reference_value(board: np.ndarray, to_play: int, k: int) -> float:
    board, player, sign = board.copy(), to_play, 1.0
    for ply in range(MAX_FORCED + 1):
        scores, wins = reference_scores(board, k)
        mine, theirs = scores[player - 1], scores[2 - player]
        if wins[player - 1]:
            return sign
        if len(wins[2 - player]) >= 2:
            return -sign
        if not wins[2 - player] or ply == MAX_FORCED:
            return sign * math.tanh((MOVER_FACTOR * mine - theirs) / SCALE)
        (block,) = wins[2 - player]
        board.reshape(-1)[block] = player
        player, sign = 3 - player, -sign
    raise AssertionError("not reached")


def reference_priors(board: np.ndarray, to_play: int, actions: list[int], k: int) -> np.ndarray:
    """A move's weight from the change of both window scores when it is played."""
    before, _ = reference_scores(board, k)
    weights = []
    for a in actions:
        gains = []
        for p in (1, 2):
            after = board.copy()
            after.reshape(-1)[a] = p
            gains.append(reference_scores(after, k)[0][p - 1] - before[p - 1])
        attack, defence = gains[to_play - 1], gains[2 - to_play]
        weights.append(attack + DEFENCE * defence + 1.0)
    return np.array(weights) / sum(weights)


def random_position(seed: int, size: int, k: int) -> np.ndarray:
    """Random stones with no line of ``k``: dense enough for fours and blocked windows."""
    rng = np.random.default_rng(seed)
    board = np.zeros((size, size), np.int8)
    for _ in range(int(rng.integers(0, size * size // 2))):
        trial = board.copy()
        trial.reshape(-1)[rng.integers(size * size)] = rng.integers(1, 3)
        h, w = trial.shape
        if not any(
            len({int(trial[y, x]) for y, x in cells} - {0}) == 1
            and all(trial[y, x] for y, x in cells)
            for cells in windows(h, w, k)
        ):
            board = trial  # no line of k
    return board


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), size=st.sampled_from([5, 7, 9]), to_play=st.sampled_from([1, 2]))
def test_scores_values_and_priors_equal_the_reference(seed, size, to_play):
    k = 5
    board = random_position(seed, size, k)
    scores, wins = reference_scores(board, k)
    s1, s2, w1a, w1b, w2a, w2b = line_scores(board, k)
    assert (s1, s2) == pytest.approx(scores)
    for found, expected in (((w1a, w1b), wins[0]), ((w2a, w2b), wins[1])):
        found = {c for c in found if c >= 0}
        assert found <= expected and len(found) == min(len(expected), 2)
    assert line_value(board.copy(), to_play, k) == pytest.approx(reference_value(board, to_play, k))
    actions = np.flatnonzero(board.reshape(-1) == 0).astype(np.int64)
    if len(actions):
        out = np.zeros(size * size, np.float32)
        assert line_priors(board, to_play, actions, len(actions), out, k) == len(actions)
        expected = reference_priors(board, to_play, actions.tolist(), k)
        np.testing.assert_allclose(out[: len(actions)], expected, rtol=1e-5)


def rows_to_board(rows: list[str]) -> np.ndarray:
    return np.array([[".xo".index(ch) for ch in row] for row in rows], np.int8)


@pytest.mark.parametrize(
    ("rows", "to_play", "expected"),
    [
        # X to move completes the broken four at (2, 3).
        ([".......", ".......", "xxx.x..", ".......", "oo.o...", ".......", "......."], 1, 1.0),
        # O to move faces X's open four (two completing cells): lost.
        ([".......", ".......", ".xxxx..", ".......", ".o.o.o.", ".......", "......."], 2, -1.0),
        # X to move has no four; O's four at (4, 4) must be blocked, after which X faces
        # nothing decisive: a window value, not a loss.
        ([".......", ".......", "..x....", ".......", "oooo...", "x......", "x......"], 1, None),
    ],
)
def test_decided_positions(rows, to_play, expected):
    board = rows_to_board(rows)
    value = line_value(board.copy(), to_play, 5)
    if expected is None:
        assert -1.0 < value < 1.0
        blocked = board.copy()
        blocked[4, 4] = to_play
        assert value == pytest.approx(-line_value(blocked, 3 - to_play, 5))
    else:
        assert value == expected


def test_the_evaluator_and_priors_have_the_search_signatures():
    board = np.zeros((15, 15), np.int8)
    board[7, 7] = 1
    scratch, rng = np.zeros((4, 225), np.int64), np.zeros(1, np.uint64)
    value = line_eval.evaluate_five.py_func(board.copy(), 2, 1, 2, rng, scratch, 0, 0, 0)
    assert value == line_value(board.copy(), 2, 5)
    actions = np.array([6 * 15 + 6, 0], np.int64)
    out = np.zeros(225, np.float32)
    assert line_eval.priors_five(board, 2, actions, 2, out) == 2
    assert out[0] > out[1] > 0 and out[:2].sum() == pytest.approx(1.0)
