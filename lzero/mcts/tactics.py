"""Tactical move filters for k-in-a-row games: take a win, block a loss.

Both hold for placement and gravity games alike: a stone is undone by ``board.flat[cell] = 0``,
and blocking a winning move of the opponent means playing that same action (it lands on the
same cell).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lzero.mcts.game import ONGOING

__all__ = ["decisive_moves", "root_tactics"]


@njit(cache=True)
def decisive_moves(board, to_play, num_moves, actions, n, blocks, apply_action, result_after):
    """Decisive and anti-decisive moves (Teytaud and Teytaud, "On the huge benefit of decisive
    moves in Monte-Carlo tree search algorithms", CIG 2010): if one of ``actions[:n]`` wins
    at once, it alone is kept; else, if the opponent could win at once on some of them, only
    those (the blocks) are kept. Returns the number kept, at the front of ``actions``.

    Uses ``blocks`` (int64 `[>= n]`) as work space; restores ``board``. A placed stone is
    undone by ``board.flat[cell] = 0``, and a block is the move onto the opponent's winning
    cell, which holds for placement and gravity games alike.
    """
    flat = board.reshape(-1)
    for i in range(n):
        cell = apply_action(board, actions[i], to_play)
        result = result_after(board, cell, to_play, num_moves + 1)
        flat[cell] = 0
        if result == to_play:
            actions[0] = actions[i]
            return 1
    opponent = 3 - to_play
    m = 0
    for i in range(n):
        cell = apply_action(board, actions[i], opponent)
        result = result_after(board, cell, opponent, num_moves + 1)
        flat[cell] = 0
        if result == opponent:
            blocks[m] = actions[i]
            m += 1
    if m == 0:
        return n
    for i in range(m):
        actions[i] = blocks[i]
    return m


@njit(cache=True)
def root_tactics(
    board, to_play, num_moves, actions, n, keep, replies, legal_actions, apply_action, result_after
):  # fmt: skip
    """The root moves worth searching among ``actions[:n]``: a winning move alone if there is
    one, else the moves after which the opponent cannot win at once (all of them when none
    or all are such). Writes their indices into ``actions`` to ``keep`` (int64 `[>= n]`,
    ascending) and returns how many. ``replies`` (int64 `[A]`) is work space; ``board`` is
    restored."""
    flat = board.reshape(-1)
    opponent = 3 - to_play
    for k in range(n):
        cell = apply_action(board, np.int64(actions[k]), to_play)
        result = result_after(board, cell, to_play, num_moves + 1)
        flat[cell] = 0
        if result == to_play:
            keep[0] = k
            return 1
    m = 0
    for k in range(n):
        cell = apply_action(board, np.int64(actions[k]), to_play)
        is_safe = True
        if result_after(board, cell, to_play, num_moves + 1) == ONGOING:
            for j in range(legal_actions(board, replies)):
                reply = apply_action(board, replies[j], opponent)
                lost = result_after(board, reply, opponent, num_moves + 2) == opponent
                flat[reply] = 0
                if lost:
                    is_safe = False
                    break
        flat[cell] = 0
        if is_safe:
            keep[m] = k
            m += 1
    if m == 0 or m == n:
        for k in range(n):
            keep[k] = k
        return n
    return m
