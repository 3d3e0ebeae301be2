"""The window-count input planes: equal to a plain-Python count of every window through every
cell, blind to the board's symmetries (so augmentation stays exact), and refusing bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.model.line_features import (
    NUM_DIRECTION_PLANES,
    NUM_PLANES,
    SCALE,
    board_input,
    line_planes,
    with_line_planes,
)

LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def windows_through(board: np.ndarray, r: int, c: int, k: int):
    """``(line, values)`` of every window of ``k`` cells on the board through ``(r, c)``: the
    line's index in ``LINES`` and the window's cell values."""
    h, w = board.shape
    for line, (dr, dc) in enumerate(LINES):
        for offset in range(k):
            cells = [(r + (i - offset) * dr, c + (i - offset) * dc) for i in range(k)]
            if all(0 <= a < h and 0 <= b < w for a, b in cells):
                yield line, [int(board[a, b]) for a, b in cells]


def reference(board: np.ndarray, k: int) -> np.ndarray:
    """Cell by cell: for each empty cell, each line through it and each of the ``k`` offsets
    of a window along that line, count the window if it lies on the board and holds no stone of
    the other side."""
    out = np.zeros((NUM_PLANES, *board.shape))
    for r, c in zip(*np.nonzero(board == 0)):
        for _, values in windows_through(board, r, c, k):
            for side, (me, other) in enumerate(((1, 2), (2, 1))):
                if other in values:
                    continue
                for i, j in enumerate((k - 1, k - 2, k - 3)):
                    out[3 * side + i, r, c] += values.count(me) == j
    return out * SCALE


def direction_reference(board: np.ndarray, k: int) -> np.ndarray:
    """Cell by cell: for each empty cell, each side and ``j = k - 2, k - 3``, the number of
    the four lines through the cell on which some window through it holds ``j`` of the side's
    stones and none of the other's."""
    out = np.zeros((NUM_DIRECTION_PLANES, *board.shape))
    for r, c in zip(*np.nonzero(board == 0)):
        found = set()  # (plane, line)
        for line, values in windows_through(board, r, c, k):
            for side, (me, other) in enumerate(((1, 2), (2, 1))):
                for i, j in enumerate((k - 2, k - 3)):
                    if other not in values and values.count(me) == j:
                        found.add((2 * side + i, line))
        for plane, _ in found:
            out[plane, r, c] += 1
    return out * SCALE


def planes_of(boards: np.ndarray, factor: float = 0.5) -> np.ndarray:
    """LightZero's planes with player 1 to move."""
    return np.stack(
        [(boards == 1) * factor, (boards == 2) * factor, np.full(boards.shape, factor)], axis=1
    ).astype(np.float32)


@st.composite
def boards(draw):
    h, w, k = draw(st.sampled_from([(3, 3, 3), (6, 7, 4), (6, 6, 5), (9, 9, 5), (5, 8, 5)]))
    fill = draw(st.floats(0.0, 0.9))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cells = rng.choice(3, size=(h, w), p=[1 - fill, fill / 2, fill / 2]).astype(np.int8)
    return cells, k


@settings(max_examples=150, deadline=None)
@given(boards(), st.sampled_from([0.5, 1.0]))
def test_planes_equal_a_plain_count_of_every_window(case, factor):
    board, k = case
    got = line_planes(planes_of(board[None], factor), k)[0]
    np.testing.assert_allclose(got, reference(board, k))


@settings(max_examples=150, deadline=None)
@given(boards(), st.sampled_from([0.5, 1.0]))
def test_direction_planes_count_the_lines_holding_such_a_window(case, factor):
    """With ``directions``: the six window counts unchanged, then per side and stone count
    the number of lines through the cell holding such a window, against a plain count."""
    board, k = case
    got = line_planes(planes_of(board[None], factor), k, directions=True)[0]
    assert got.shape == (NUM_PLANES + NUM_DIRECTION_PLANES, *board.shape)
    np.testing.assert_allclose(got[:NUM_PLANES], reference(board, k))
    np.testing.assert_allclose(got[NUM_PLANES:], direction_reference(board, k))


def test_a_double_threat_shows_in_the_direction_planes_only():
    """Two stones on a row and two on a column, both pointing at one empty cell: a stone there
    makes a three in two lines (a double threat); two stones on one row make threes through
    that cell in two windows of one line. The window sums can be equal; the direction planes
    tell 2 lines from 1."""
    double = np.zeros((9, 9), np.int8)
    double[4, 2:4] = 1  # row 4, columns 2-3
    double[5:7, 4] = 1  # column 4, rows 5-6: both point at (4, 4)
    single = np.zeros((9, 9), np.int8)
    single[4, 2:4] = 1
    single[4, 6:8] = 1  # row 4, columns 2-3 and 6-7: both on the row through (4, 4)
    a = line_planes(planes_of(double[None]), 5, directions=True)[0] / SCALE
    b = line_planes(planes_of(single[None]), 5, directions=True)[0] / SCALE
    assert a[NUM_PLANES + 1, 4, 4] == 2 and b[NUM_PLANES + 1, 4, 4] == 1
    assert a[2, 4, 4] > 0 and b[2, 4, 4] > 0  # threes through the cell in both


def test_known_gomoku_threats():
    """An open three on a 9x9 row, stones in columns 3-5: a stone in column 2 or 6 makes four
    in two windows (columns 1-5 and 2-6, or 2-6 and 3-7), and one in column 1 or 7 in one."""
    board = np.zeros((9, 9), np.int8)
    board[4, 3:6] = 1
    got = line_planes(planes_of(board[None]), 5)[0] / SCALE
    assert got[1, 4, 2] == 2 and got[1, 4, 6] == 2
    assert got[1, 4, 1] == 1 and got[1, 4, 7] == 1 and got[1, 4, 0] == 0
    assert got[0].sum() == 0  # no window holds four stones: no winning cell
    assert got[3:].sum() == 0  # no opponent stones: windows with 2-4 of them do not exist
    assert (got[:, 4, 3:6] == 0).all()  # occupied cells


@settings(max_examples=40, deadline=None)
@given(boards(), st.booleans())
def test_planes_follow_the_boards_symmetries(case, directions):
    """The planes of a rotated or mirrored board are the rotated or mirrored planes, so the
    replay buffer's symmetry augmentation stays exact with them."""
    board, k = case
    base = line_planes(planes_of(board[None]), k, directions)[0]
    transforms = [lambda a: a[..., ::-1], lambda a: a[..., ::-1, :]]
    if board.shape[0] == board.shape[1]:
        transforms += [lambda a: np.rot90(a, 1, axes=(-2, -1)), lambda a: np.swapaxes(a, -1, -2)]
    for t in transforms:
        moved = np.ascontiguousarray(t(board))
        np.testing.assert_allclose(line_planes(planes_of(moved[None]), k, directions)[0], t(base))


def test_sides_swap_with_the_mover():
    rng = np.random.default_rng(5)
    board = rng.choice(3, size=(2, 9, 9)).astype(np.int8)
    swapped = np.where(board == 0, 0, 3 - board).astype(np.int8)
    a = line_planes(planes_of(board), 5)
    b = line_planes(planes_of(swapped), 5)
    np.testing.assert_array_equal(a[:, :3], b[:, 3:])
    np.testing.assert_array_equal(a[:, 3:], b[:, :3])


def test_with_line_planes_appends_to_the_input():
    planes = planes_of(np.zeros((3, 6, 6), np.int8))
    out = with_line_planes(planes, 5)
    assert out.shape == (3, 3 + NUM_PLANES, 6, 6) and out.dtype == np.float32
    np.testing.assert_array_equal(out[:, :3], planes)
    out = with_line_planes(planes, 5, directions=True)
    assert out.shape == (3, 3 + NUM_PLANES + NUM_DIRECTION_PLANES, 6, 6)
    np.testing.assert_array_equal(out[:, :3], planes)


@pytest.mark.parametrize(
    "planes, k, match",
    [
        (
            np.zeros((1, 3, 6, 6), np.float32),
            7,
            r"k from 2 to the board's longer side \(6\), got 7",
        ),
        (np.zeros((1, 3, 6, 6), np.float32), 1, "got 1"),
        (np.zeros((1, 3, 6, 6), np.float32), True, "got True"),
        (np.zeros((3, 6, 6), np.float32), 5, r"\[B, C >= 2, H, W\], got shape \(3, 6, 6\)"),
        (np.zeros((1, 1, 6, 6), np.float32), 5, "got shape"),
    ],
)
def test_bad_input_is_refused(planes, k, match):
    with pytest.raises(ValueError, match=match):
        line_planes(planes, k)


@settings(max_examples=60, deadline=None)
@given(boards(), st.booleans(), st.integers(0, 2**32 - 1), st.booleans())
def test_board_input_equals_the_planes_and_their_counts(case, scale, seed, directions):
    """Straight from boards, for any movers and any rows (in any order, repeated): the
    LightZero planes of those rows followed by their window counts; without ``k``, the planes
    alone."""
    board, k = case
    rng = np.random.default_rng(seed)
    boards = np.stack([board, np.where(board == 0, 0, 3 - board), np.zeros_like(board)])
    boards = boards.astype(np.int8)
    to_play = rng.integers(1, 3, 3)
    rows = rng.integers(0, 3, rng.integers(0, 5))
    factor = 0.5 if scale else 1.0
    want = np.stack(
        [
            (boards == to_play[:, None, None]) * factor,
            (boards == 3 - to_play[:, None, None]) * factor,
            np.broadcast_to(to_play[:, None, None] * factor, boards.shape),
        ],
        axis=1,
    ).astype(np.float32)[rows]
    got = board_input(boards, to_play, scale=scale, k=k, rows=rows, directions=directions)
    extra = NUM_PLANES + (NUM_DIRECTION_PLANES if directions else 0)
    assert got.dtype == np.float32 and got.shape == (len(rows), 3 + extra, *board.shape)
    np.testing.assert_array_equal(got[:, :3], want)
    for i, row in enumerate(rows):
        mover = boards[row] if to_play[row] == 1 else np.where(boards[row] == 0, 0, 3 - boards[row])
        np.testing.assert_allclose(got[i, 3 : 3 + NUM_PLANES], reference(mover, k))
        if directions:
            np.testing.assert_allclose(got[i, 3 + NUM_PLANES :], direction_reference(mover, k))
    np.testing.assert_array_equal(board_input(boards, to_play, scale=scale, rows=rows), want)


def test_board_input_refuses_bad_input():
    boards = np.zeros((2, 6, 6), np.int8)
    with pytest.raises(ValueError, match=r"boards \[B, H, W\] and movers \[B\], got shapes"):
        board_input(boards, np.array([1]), scale=False)
    with pytest.raises(ValueError, match=r"k from 2 to the board's longer side \(6\), got 7"):
        board_input(boards, np.array([1, 2]), scale=False, k=7)
    for rows in ([2], [-1], [[0]], [0, 1, 2]):
        with pytest.raises(ValueError, match="expected rows \\[m\\] of the 2 boards, got"):
            board_input(boards, np.array([1, 2]), scale=False, rows=np.array(rows))
