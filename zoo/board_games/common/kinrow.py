"""k-in-a-row kernels shared by every game: placing stones, and judging a move by its lines.

Board layout (``[H, W]`` int8, 0 empty, 1/2 the players), flat cell ``row * W + col``::

      col 0   1   2
    row 0 [0] [1] [2]
    row 1 [3] [4] [5]
    row 2 [6] [7] [8]

Kernels do not validate inputs; their preconditions are stated in each docstring.
"""

from __future__ import annotations

from numba import njit

from zoo.board_games.common.rules import DRAW, ONGOING

# The four line directions through a cell (the opposite four are walked by negation).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@njit(cache=True)
def place_legal_actions(board, player, out):
    """Writes the empty cells of ``board`` `[H, W]` (whoever ``player`` is to move), ascending, into ``out[:n]`` (``out``
    `[>= H * W]`: every cell is written at ``out[n]`` and kept if empty, without a branch that
    the board's pattern would make mispredicted); returns ``n``."""
    h, w = board.shape
    n = 0
    for r in range(h):
        for c in range(w):
            out[n] = r * w + c
            n += board[r, c] == 0
    return n


@njit(cache=True)
def place_legal_mask(board, player, out):
    """Writes 1 (for either ``player``) into ``out`` `[H * W]` int8 for every empty cell of ``board``, 0 elsewhere."""
    h, w = board.shape
    for r in range(h):
        for c in range(w):
            out[r * w + c] = 1 if board[r, c] == 0 else 0


@njit(cache=True)
def place_apply_action(board, action, player):
    """Puts ``player``'s stone on cell ``action`` (must be empty); returns ``action``."""
    w = board.shape[1]
    board[action // w, action % w] = player
    return action


@njit(cache=True, inline="always")
def run_length(board, row, col, dr, dc, player):
    """Length of ``player``'s line through ``(row, col)`` along ``(dr, dc)`` and its opposite.

    The cell itself is counted as the player's, whatever it holds.
    """
    h, w = board.shape
    n = 1
    r = row + dr
    c = col + dc
    while r >= 0 and r < h and c >= 0 and c < w and board[r, c] == player:
        n += 1
        r += dr
        c += dc
    r = row - dr
    c = col - dc
    while r >= 0 and r < h and c >= 0 and c < w and board[r, c] == player:
        n += 1
        r -= dr
        c -= dc
    return n


@njit(cache=True, inline="always")
def longest_line(board, row, col, player):
    """Longest line of ``player`` through ``(row, col)`` over the four directions."""
    best = 0
    for dr, dc in _DIRECTIONS:
        n = run_length(board, row, col, dr, dc, player)
        if n > best:
            best = n
    return best


@njit(cache=True, inline="always")
def result_after_k(board, cell, player, num_moves, k):
    """Result after ``player`` played flat ``cell``, with ``k`` (or more) in a row winning.

    Args:
        board: `[H, W]` int8, the position after the move (the game was ongoing before it).
        cell: flat index ``row * W + col`` of the stone just placed.
        player: 1 or 2, the mover.
        num_moves: stones on the board after the move; ``H * W`` means the board is full.
        k: win length.

    Returns:
        ``player`` if the move completes a line of at least ``k``; else ``DRAW`` (3) if the
        board is full; else ``ONGOING`` (0).
    """
    h, w = board.shape
    if longest_line(board, cell // w, cell % w, player) >= k:
        return player
    if num_moves >= h * w:
        return DRAW
    return ONGOING
