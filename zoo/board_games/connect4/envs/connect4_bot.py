"""Connect4 rule bot: win now, block, never set up the opponent's win, then prefer the centre."""

from __future__ import annotations

import numpy as np
from numba import njit

from zoo.board_games.common.tactics import argmax_random_tie, win_or_block, wins_at


@njit(cache=True)
def rule_bot_action(board, player, rng_state):
    """Chooses the rule bot's column.

    Order: a column that wins now; else one that blocks the opponent's immediate win; else,
    among the columns that do not let the opponent win by playing on top of our stone, the
    most central (ties at random); if every column is unsafe, the most central one.

    Args:
        board: `[6, 7]` int8 (any ``[H, W]`` works) with a non-full column, game not over.
        player: 1 or 2, the player to move.
        rng_state: ``lzero.utils.nbrng`` state `[1]` uint64 (advanced in place).

    Returns:
        The column to play.
    """
    h, w = board.shape
    opponent = 3 - player
    a = win_or_block(board, player, 4, True)
    if a >= 0:
        return a
    legal = np.zeros(w, np.int8)
    safe = np.zeros(w, np.int8)
    scores = np.zeros(w, np.float64)
    any_safe = False
    for c in range(w):
        if board[0, c] != 0:
            continue
        legal[c] = 1
        scores[c] = -abs(c - (w - 1) / 2.0)
        r = h - 1
        while board[r, c] != 0:
            r -= 1
        if r == 0:
            safe[c] = 1
        else:
            board[r, c] = player
            safe[c] = not wins_at(board, (r - 1) * w + c, opponent, 4)
            board[r, c] = 0
        any_safe = any_safe or safe[c] == 1
    return argmax_random_tie(scores, safe if any_safe else legal, rng_state)
