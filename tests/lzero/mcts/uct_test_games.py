"""Small k-in-a-row games written for these tests to the board-kernel contract.

They keep the tests of ``lzero.mcts`` independent of ``zoo`` and serve as a second, plainly
written implementation of the contract: ``ttt_*`` is TicTacToe (placement, 3 in a row, any
``H x W`` board with ``k = 3``) and ``c4_*`` is Connect Four's gravity variant with ``k = 4``.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _run(board, row, col, dr, dc, player):
    height, width = board.shape
    n = 0
    r, c = row + dr, col + dc
    while 0 <= r < height and 0 <= c < width and board[r, c] == player:
        n += 1
        r += dr
        c += dc
    return n


@njit(cache=True)
def _line(board, row, col, dr, dc, player):
    return 1 + _run(board, row, col, dr, dc, player) + _run(board, row, col, -dr, -dc, player)


@njit(cache=True)
def _result(board, cell, player, num_moves, k):
    width = board.shape[1]
    row, col = cell // width, cell % width
    if (
        _line(board, row, col, 0, 1, player) >= k
        or _line(board, row, col, 1, 0, player) >= k
        or _line(board, row, col, 1, 1, player) >= k
        or _line(board, row, col, 1, -1, player) >= k
    ):
        return player
    return 3 if num_moves == board.size else 0


@njit(cache=True)
def ttt_legal_actions(board, player, out):
    height, width = board.shape
    n = 0
    for row in range(height):
        for col in range(width):
            if board[row, col] == 0:
                out[n] = row * width + col
                n += 1
    return n


@njit(cache=True)
def ttt_apply_action(board, action, player):
    board[action // board.shape[1], action % board.shape[1]] = player
    return action


@njit(cache=True)
def ttt_result_after(board, cell, player, num_moves):
    return _result(board, cell, player, num_moves, 3)


@njit(cache=True)
def c4_legal_actions(board, player, out):
    n = 0
    for col in range(board.shape[1]):
        if board[0, col] == 0:
            out[n] = col
            n += 1
    return n


@njit(cache=True)
def c4_apply_action(board, action, player):
    row = board.shape[0] - 1
    while board[row, action] != 0:
        row -= 1
    board[row, action] = player
    return row * board.shape[1] + action


@njit(cache=True)
def c4_result_after(board, cell, player, num_moves):
    return _result(board, cell, player, num_moves, 4)


def board_from(rows: list[str]) -> np.ndarray:
    """``["x.o", ...]`` to an int8 board (x = 1, o = 2)."""
    return np.array([[".xo".index(ch) for ch in row] for row in rows], np.int8)


@njit(cache=True)
def index_priors(board, to_play, actions, n, out):
    """Test priors (``PRIORS_T``): proportional to ``action + 1``, whatever the position."""
    total = 0.0
    for i in range(n):
        total += actions[i] + 1
    for i in range(n):
        out[i] = (actions[i] + 1) / total
    return n
