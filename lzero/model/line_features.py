"""Input planes from a placement board's line windows: the threats of k-in-a-row games, handed
to the network rather than left for it to learn.

A window is ``k`` cells in a row along one of the four lines (``(0, 1)``, ``(1, 0)``,
``(1, 1)``, ``(1, -1)``) inside the board; it is *open* for a side when it holds none of the
other side's stones. For every empty cell, each side (the mover, then the opponent) and
``j = k - 1, k - 2, k - 3``, a plane counts the side's open windows through that cell that hold
``j`` of its stones: a stone there would make ``j + 1`` in each of them (``j = k - 1``: a win;
``k - 2``: a threat of one; two such windows in one line make an open four; and so on). This is
the window count of classic Gomoku programs (Allis 1994, ch. 4) that the MCTS bot's line
evaluator also reads. Counts are multiplied by ``SCALE``; occupied cells are 0.

With ``directions``, four more planes: for each side and ``j = k - 2, k - 3``, in how many of
the four lines through the empty cell the side has at least one such window. The sums above
cannot tell two windows on one line (a stone there makes one threat) from two on two lines (a
double threat: a four and a three, or two threes, the moves that win Gomoku); these can.

A numba kernel sliding each window along its line, about 1 us per 9x9 board (59 us for 64 with
20 stones; 100 us when each window was counted afresh): torch convolutions with fixed
kernels inside the model computed the same planes, but cost 1-4 ms per 64 boards on 2 cores,
as much as the 9x9 Gomoku network's own forward pass.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from lzero.envs.board_step import player_planes

__all__ = [
    "NUM_DIRECTION_PLANES", "NUM_PLANES", "SCALE", "board_input", "input_writer", "line_planes",
    "num_planes",
    "with_line_planes",
]  # fmt: skip

#: Planes added: 2 sides x 3 stone counts.
NUM_PLANES = 6
#: Planes added with ``directions``: 2 sides x 2 stone counts (``k - 2``, ``k - 3``).
NUM_DIRECTION_PLANES = 4
#: Factor of the counts (four lines of up to ``k`` windows each pass through a cell).
SCALE = 0.25


def num_planes(directions: bool = False) -> int:
    """The planes :func:`line_planes` adds: 6, or 10 with ``directions``."""
    return NUM_PLANES + (NUM_DIRECTION_PLANES if directions else 0)


@njit(cache=True, inline="always")
def _add_line(board, k, out, flags, r0, c0, dr, dc, length):
    """Adds the counts of the windows on the line of ``length`` cells from ``(r0, c0)`` along
    ``(dr, dc)``, sliding: each step adds the cell that enters the window and drops the one
    that leaves it. With ``flags`` `[4, H, W]` (else `[0, H, W]`), also marks there the cells
    that some window of ``k - 2`` or ``k - 3`` stones of a side passes through."""
    if length < k:
        return
    n1 = 0
    n2 = 0
    for i in range(k - 1):
        v = board[r0 + i * dr, c0 + i * dc]
        n1 += v == 1
        n2 += v == 2
    for s in range(length - k + 1):
        v = board[r0 + (s + k - 1) * dr, c0 + (s + k - 1) * dc]
        n1 += v == 1
        n2 += v == 2
        for side in range(2):
            own, other = (n1, n2) if side == 0 else (n2, n1)
            plane = k - 1 - own  # j = k - 1, k - 2, k - 3: planes 0, 1, 2
            if other > 0 or plane > 2 or plane < 0:
                continue
            for i in range(s, s + k):
                r, c = r0 + i * dr, c0 + i * dc
                empty = board[r, c] == 0
                out[3 * side + plane, r, c] += np.float32(SCALE) * empty
                if plane > 0 and flags.shape[0] > 0:
                    f = flags[2 * side + plane - 1, r, c]
                    flags[2 * side + plane - 1, r, c] = max(f, np.float32(empty))
        v = board[r0 + s * dr, c0 + s * dc]
        n1 -= v == 1
        n2 -= v == 2


@njit(cache=True, inline="always")
def _add_flags(out, flags):
    """Adds one direction's marks ``flags`` to the direction planes ``out[6:]``; clears them."""
    n, h, w = flags.shape
    for p in range(n):
        for r in range(h):
            for c in range(w):
                if flags[p, r, c] != 0.0:
                    out[NUM_PLANES + p, r, c] += SCALE
                    flags[p, r, c] = 0.0


@njit(cache=True, inline="always")
def _add_window_counts(board, k, out, flags):
    """Adds the window counts of ``board`` `[H, W]` int8 (0 empty, 1 the mover's, 2 the
    opponent's) to ``out`` `[6, H, W]`, line by line in the four directions; with ``flags``
    `[4, H, W]` of zeros (else `[0, H, W]`), also the direction planes to ``out[6:10]``."""
    h, w = board.shape
    for r in range(h):
        _add_line(board, k, out, flags, r, 0, 0, 1, w)
    _add_flags(out, flags)
    for c in range(w):
        _add_line(board, k, out, flags, 0, c, 1, 0, h)
    _add_flags(out, flags)
    for r in range(h):  # diagonals down-right, from the first column, then the first row
        _add_line(board, k, out, flags, r, 0, 1, 1, min(h - r, w))
    for c in range(1, w):
        _add_line(board, k, out, flags, 0, c, 1, 1, min(h, w - c))
    _add_flags(out, flags)
    for c in range(w):  # diagonals down-left, from the first row, then the last column
        _add_line(board, k, out, flags, 0, c, 1, -1, min(h, c + 1))
    for r in range(1, h):
        _add_line(board, k, out, flags, r, w - 1, 1, -1, min(h - r, w))
    _add_flags(out, flags)


@njit(cache=True)
def _line_planes(planes, k, out):
    b_size, _, h, w = planes.shape
    board = np.zeros((h, w), np.int8)
    flags = np.zeros((out.shape[1] - NUM_PLANES, h, w), np.float32)
    for b in range(b_size):
        for r in range(h):
            for c in range(w):
                board[r, c] = 1 if planes[b, 0, r, c] > 0 else (2 if planes[b, 1, r, c] > 0 else 0)
        _add_window_counts(board, k, out[b], flags)


@njit(cache=True)
def _board_input(boards, to_play, rows, scale, k, out):
    """Writes into ``out`` `[m, 3 (+ 6 or 10 if k), H, W]` the input of ``boards[rows[i]]``
    for ``to_play[rows[i]]``: the env's observation planes (``player_planes``), then with
    ``k`` the window counts (and the direction planes if ``out`` has room for them). Returns
    False, writing nothing, if a row is not one of the boards'."""
    n, h, w = boards.shape
    for i in range(rows.shape[0]):  # here, not in NumPy: two reductions cost more than this
        if not 0 <= rows[i] < n:
            return False
    board = np.zeros((h, w), np.int8)
    flags = np.zeros((max(out.shape[1] - 3 - NUM_PLANES, 0), h, w), np.float32)
    for i in range(rows.shape[0]):
        src, mover = boards[rows[i]], to_play[rows[i]]
        player_planes(src, mover, mover / 2.0 if scale else float(mover), False, out[i, :3])
        if k > 0:
            for r in range(h):
                for c in range(w):
                    v = src[r, c]
                    board[r, c] = 1 if v == mover else (2 if v == 3 - mover else 0)
            out[i, 3:] = 0.0
            _add_window_counts(board, k, out[i, 3:], flags)
    return True


def check_window_length(k, shape: tuple[int, ...]) -> int:
    """``k`` as an int if it is a window length from 2 to the longer side of a board of
    ``shape`` `(..., H, W)`; else ValueError."""
    longest = max(shape[-2:])
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= longest:
        raise ValueError(
            f"expected a window length k from 2 to the board's longer side ({longest}), got {k!r}"
        )
    return int(k)


def board_input(
    boards: np.ndarray,
    to_play: np.ndarray,
    *,
    scale: bool,
    k: int = 0,
    rows=None,
    directions: bool = False,
) -> np.ndarray:
    """The network's input straight from boards, in one numba pass: `[m, 3, H, W]` float32,
    or `[m, 3 + 6, H, W]` with the window counts of length ``k`` appended (``k = 0``: none;
    `[m, 3 + 10, H, W]` with ``directions``, the direction planes too), of
    ``boards`` `[B, H, W]` (0 empty, 1 and 2 the players' stones) for the movers ``to_play``
    `[B]` (1 or 2), the rows ``rows`` `[m]` of them (all if None). The planes are the env's
    observation (LightZero's: the mover's stones, the opponent's, the mover's id; halved with
    ``scale``), written by the env's own kernel; the counts are those :func:`line_planes`
    makes from them.

    Raises:
        ValueError: boards not `[B, H, W]`, movers not `[B]`, rows outside them, or ``k``
            outside 0 and 2 to the board's longer side.
    """
    boards = np.ascontiguousarray(boards, np.int8)
    to_play = np.ascontiguousarray(to_play, np.int64).reshape(-1)
    if boards.ndim != 3 or to_play.shape[0] != boards.shape[0]:
        raise ValueError(
            f"expected boards [B, H, W] and movers [B], got shapes {boards.shape} and "
            f"{to_play.shape}"
        )
    rows = np.arange(boards.shape[0]) if rows is None else np.ascontiguousarray(rows, np.int64)
    if rows.ndim != 1:
        raise ValueError(f"expected rows [m] of the {boards.shape[0]} boards, got {rows!r}")
    write = input_writer(boards.shape[1:], scale=scale, k=k, directions=directions)
    return write(boards, to_play, rows)


def input_writer(
    shape: tuple[int, int], *, scale: bool, k: int = 0, directions: bool = False
) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """:func:`board_input` for boards of ``shape`` `(H, W)` with its settings checked once:
    ``write(boards, to_play, rows)`` takes boards `[B, H, W]` int8 and movers `[B]` int64,
    both C-contiguous, and the rows `[m]` int64 to write, and makes one allocation and one
    numba call (a search's evaluator calls it at every simulation step, where each NumPy call
    costs microseconds).

    Raises:
        ValueError: ``k`` outside 0 and 2 to the board's longer side; from ``write``, rows
            outside the boards.
    """
    h, w = shape
    k = check_window_length(k, shape) if k != 0 else 0
    planes = 3 + (num_planes(directions) if k else 0)
    scale = bool(scale)

    def write(boards: np.ndarray, to_play: np.ndarray, rows: np.ndarray) -> np.ndarray:
        out = np.empty((rows.shape[0], planes, h, w), np.float32)
        if not _board_input(boards, to_play, rows, scale, k, out):
            raise ValueError(f"expected rows [m] of the {boards.shape[0]} boards, got {rows!r}")
        return out

    return write


def line_planes(planes: np.ndarray, k: int, directions: bool = False) -> np.ndarray:
    """The `[B, 6, H, W]` float32 window-count planes (module docstring) of board planes
    `[B, C, H, W]` whose channel 0 holds the mover's stones and channel 1 the opponent's (any
    positive value is a stone: LightZero's planes, scaled or not); `[B, 10, H, W]` with the
    direction planes after them with ``directions``.

    Raises:
        ValueError: ``k`` outside 2 to the board's longer side, or fewer than 2 channels.
    """
    planes = np.asarray(planes, np.float32)
    if planes.ndim != 4 or planes.shape[1] < 2:
        raise ValueError(f"expected board planes [B, C >= 2, H, W], got shape {planes.shape}")
    k = check_window_length(k, planes.shape)
    out = np.zeros((planes.shape[0], num_planes(directions), *planes.shape[2:]), np.float32)
    _line_planes(planes, k, out)
    return out


def with_line_planes(planes: np.ndarray, k: int, directions: bool = False) -> np.ndarray:
    """``planes`` `[B, C, H, W]` followed by their :func:`line_planes`: `[B, C + 6, H, W]`
    (`[B, C + 10, H, W]` with ``directions``)."""
    planes = np.asarray(planes, np.float32)
    return np.concatenate([planes, line_planes(planes, k, directions)], axis=1)
