"""Gravity kernels (Connect4-style): an action is a column and the stone drops to its bottom.

Board ``[H, W]`` int8 with row 0 at the top, so a column is full when its row-0 cell is taken.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def drop_legal_actions(board, player, out):
    """Writes the non-full columns of ``board`` `[H, W]` (for either ``player``), ascending,
    into ``out[:n]``; returns ``n``."""
    n = 0
    for c in range(board.shape[1]):
        if board[0, c] == 0:
            out[n] = c
            n += 1
    return n


@njit(cache=True)
def drop_legal_mask(board, player, out):
    """Writes 1 (for either ``player``) into ``out`` `[W]` int8 for every non-full column, 0 elsewhere."""
    for c in range(board.shape[1]):
        out[c] = 1 if board[0, c] == 0 else 0


@njit(cache=True)
def drop_apply_action(board, column, player):
    """Drops ``player``'s stone into ``column`` (must not be full); returns its flat cell.

    Returns -1 if the column is full (a violated precondition, never reached by legal play).
    """
    h, w = board.shape
    for r in range(h - 1, -1, -1):
        if board[r, column] == 0:
            board[r, column] = player
            return r * w + column
    return -1
