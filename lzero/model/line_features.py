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

A numba kernel, about 2 us per 9x9 board (130 us for 64): torch convolutions with fixed
kernels inside the model computed the same planes, but cost 1-4 ms per 64 boards on 2 cores,
as much as the 9x9 Gomoku network's own forward pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lzero.mcts.tactics import window_stones

__all__ = ["NUM_PLANES", "SCALE", "line_planes", "with_line_planes"]

#: Planes added: 2 sides x 3 stone counts.
NUM_PLANES = 6
#: Factor of the counts (four lines of up to ``k`` windows each pass through a cell).
SCALE = 0.25
_DR = np.array([0, 1, 1, 1])
_DC = np.array([1, 0, 1, -1])


@njit(cache=True)
def _line_planes(planes, k, out):
    b_size, _, h, w = planes.shape
    board = np.zeros((h, w), np.int8)  # 0 empty, 1 the mover's, 2 the opponent's
    for b in range(b_size):
        for r in range(h):
            for c in range(w):
                board[r, c] = 1 if planes[b, 0, r, c] > 0 else (2 if planes[b, 1, r, c] > 0 else 0)
        for d in range(4):
            dr, dc = _DR[d], _DC[d]
            for r0 in range(h - (k - 1) * dr):
                for c0 in range(max(0, -(k - 1) * dc), w - max(0, (k - 1) * dc)):
                    mine, theirs = window_stones(board, r0, c0, dr, dc, k)
                    if mine > 0 and theirs > 0:
                        continue
                    for side in range(2):
                        own, other = (mine, theirs) if side == 0 else (theirs, mine)
                        plane = k - 1 - own  # j = k - 1, k - 2, k - 3: planes 0, 1, 2
                        if other > 0 or plane > 2:
                            continue
                        for i in range(k):
                            r, c = r0 + i * dr, c0 + i * dc
                            if board[r, c] == 0:
                                out[b, 3 * side + plane, r, c] += SCALE


def line_planes(planes: np.ndarray, k: int) -> np.ndarray:
    """The `[B, 6, H, W]` float32 window-count planes (module docstring) of board planes
    `[B, C, H, W]` whose channel 0 holds the mover's stones and channel 1 the opponent's (any
    positive value is a stone: LightZero's planes, scaled or not).

    Raises:
        ValueError: ``k`` outside 2 to the board's longer side, or fewer than 2 channels.
    """
    planes = np.asarray(planes, np.float32)
    if planes.ndim != 4 or planes.shape[1] < 2:
        raise ValueError(f"expected board planes [B, C >= 2, H, W], got shape {planes.shape}")
    longest = max(planes.shape[2:])
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 2 <= k <= longest:
        raise ValueError(
            f"expected a window length k from 2 to the board's longer side ({longest}), got {k!r}"
        )
    out = np.zeros((planes.shape[0], NUM_PLANES, *planes.shape[2:]), np.float32)
    _line_planes(planes, int(k), out)
    return out


def with_line_planes(planes: np.ndarray, k: int) -> np.ndarray:
    """``planes`` `[B, C, H, W]` followed by their :func:`line_planes`: `[B, C + 6, H, W]`."""
    planes = np.asarray(planes, np.float32)
    return np.concatenate([planes, line_planes(planes, k)], axis=1)
