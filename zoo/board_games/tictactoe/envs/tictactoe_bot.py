"""TicTacToe rule bot: win, block, make or stop a fork, then center, corners, edges.

The fork steps extend LightZero's "win, block, fixed preference" bot cheaply; ties within a
preference tier are broken with the caller's seeded ``nbrng`` state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zoo.board_games.common.tactics import argmax_random_tie, count_winning_actions, win_or_block

# Fixed preference per cell: center 2, corners 1, edges 0.
_PREFERENCE = np.array([1, 0, 1, 0, 2, 0, 1, 0, 1], dtype=np.int64)


@njit(cache=True)
def _fork_cell(board, player):
    """An empty cell where ``player`` would get two immediate wins at once, or -1."""
    for cell in range(9):
        r, c = cell // 3, cell % 3
        if board[r, c] != 0:
            continue
        board[r, c] = player
        n = count_winning_actions(board, player, 3, False)
        board[r, c] = 0
        if n >= 2:
            return cell
    return -1


@njit(cache=True)
def rule_bot_action(board, player, rng_state):
    """Chooses the rule bot's move.

    Args:
        board: `[3, 3]` int8 position with at least one empty cell, game not over.
        player: 1 or 2, the player to move.
        rng_state: ``lzero.utils.nbrng`` state `[1]` uint64 (advanced in place).

    Returns:
        The action (cell ``row * 3 + col``).
    """
    opponent = 3 - player
    a = win_or_block(board, player, 3, False)
    if a >= 0:
        return a
    a = _fork_cell(board, player)
    if a >= 0:
        return a
    a = _fork_cell(board, opponent)
    if a >= 0:
        return a
    valid = np.zeros(9, np.int8)
    for cell in range(9):
        valid[cell] = board[cell // 3, cell % 3] == 0
    return argmax_random_tie(_PREFERENCE, valid, rng_state)
