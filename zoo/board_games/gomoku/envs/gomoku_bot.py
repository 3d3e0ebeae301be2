"""Gomoku threat bot: five, block five, open four, block an open four, open three, block an
open three, then a positional score; only cells within two of a stone are considered.

Each candidate cell is rated per player and per direction by the line the stone would make
there: its run of consecutive stones and how many of the run's two ends are empty.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zoo.board_games.common.tactics import argmax_random_tie

_DIRS = ((0, 1), (1, 0), (1, 1), (1, -1))
# Shape codes.
_NONE, _TWO, _OPEN_TWO, _THREE, _OPEN_THREE, _FOUR, _OPEN_FOUR, _FIVE = 0, 1, 2, 3, 4, 5, 6, 7
# Positional value of each shape code (index), for the side to move; defence counts 0.8 of it.
_SHAPE_VALUE = np.array([1.0, 10.0, 60.0, 60.0, 400.0, 500.0, 5000.0, 50000.0])
_TIER = 1e7  # every tier outranks any positional score


@njit(cache=True)
def _shape(board, row, col, dr, dc, player):
    """Shape code of ``player``'s line through the empty ``(row, col)`` along ``(dr, dc)``."""
    h, w = board.shape
    run = 1
    open_ends = 0
    for sign in (1, -1):
        r = row + sign * dr
        c = col + sign * dc
        while r >= 0 and r < h and c >= 0 and c < w and board[r, c] == player:
            run += 1
            r += sign * dr
            c += sign * dc
        if r >= 0 and r < h and c >= 0 and c < w and board[r, c] == 0:
            open_ends += 1
    if run >= 5:
        return _FIVE
    if open_ends == 0:
        return _NONE
    if run == 4:
        return _OPEN_FOUR if open_ends == 2 else _FOUR
    if run == 3:
        return _OPEN_THREE if open_ends == 2 else _THREE
    if run == 2:
        return _OPEN_TWO if open_ends == 2 else _TWO
    return _NONE


@njit(cache=True)
def _rate(board, row, col, player):
    """Returns ``(best shape, number of fours, number of open threes, positional value)``."""
    best = 0
    fours = 0
    threes = 0
    value = 0.0
    for dr, dc in _DIRS:
        s = _shape(board, row, col, dr, dc, player)
        best = max(best, s)
        fours += s == _FOUR or s == _OPEN_FOUR
        threes += s == _OPEN_THREE
        value += _SHAPE_VALUE[s]
    return best, fours, threes, value


@njit(cache=True)
def _tier(board, row, col, player):
    """Threat tier of playing ``(row, col)``: 6 five ... 1 block open three, 0 none; and value."""
    mine, my_fours, my_threes, my_value = _rate(board, row, col, player)
    theirs, _, _, their_value = _rate(board, row, col, 3 - player)
    tier = 0
    if mine == _FIVE:
        tier = 6
    elif theirs == _FIVE:
        tier = 5
    elif mine == _OPEN_FOUR or my_fours >= 2 or (my_fours >= 1 and my_threes >= 1):
        tier = 4  # an open four, or a double threat the opponent cannot answer both of
    elif theirs == _OPEN_FOUR:
        tier = 3
    elif mine == _OPEN_THREE or mine == _FOUR:
        tier = 2
    elif theirs == _OPEN_THREE:
        tier = 1
    return tier, my_value + 0.8 * their_value


@njit(cache=True)
def rule_bot_action(board, player, rng_state):
    """Chooses the threat bot's move.

    Args:
        board: `[N, N]` int8 (5 <= N <= 19) with an empty cell, game not over.
        player: 1 or 2, the player to move.
        rng_state: ``lzero.utils.nbrng`` state `[1]` uint64 (advanced in place, ties only).

    Returns:
        The action ``row * N + col``.
    """
    h, w = board.shape
    near = np.zeros((h, w), np.int8)  # empty cells within distance 2 of a stone
    any_stone = False
    for r in range(h):
        for c in range(w):
            if board[r, c] == 0:
                continue
            any_stone = True
            for rr in range(max(0, r - 2), min(h, r + 3)):
                for cc in range(max(0, c - 2), min(w, c + 3)):
                    if board[rr, cc] == 0:
                        near[rr, cc] = 1
    if not any_stone:
        return (h // 2) * w + w // 2
    scores = np.zeros(h * w, np.float64)
    valid = near.ravel().copy()
    if valid.sum() == 0:  # every empty cell is far from the stones: any empty cell will do
        for i in range(h * w):
            valid[i] = board[i // w, i % w] == 0
    centre_r = (h - 1) / 2.0
    centre_c = (w - 1) / 2.0
    for r in range(h):
        for c in range(w):
            if near[r, c] == 0:
                continue
            tier, value = _tier(board, r, c, player)
            centrality = -0.01 * (abs(r - centre_r) + abs(c - centre_c))
            scores[r * w + c] = tier * _TIER + value + centrality
    return argmax_random_tie(scores, valid, rng_state)
