"""Per-column kernels over the Connect4 search (``connect4_search``): each column's exact
score, whether a column keeps the position's score, and the perfect bot's columns, in numba
so that the env's bot and the vectorised pool's (which runs in one numba call) share them.

Every kernel takes the solver's buffers ``keys, vals, moves, frames`` and book ``codes,
values, book_ply`` (see :class:`~.connect4_solver.Connect4Solver`) as ``*tables`` in this doc.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zoo.board_games.connect4.envs.connect4_position import (
    BOARD_MASK,
    BOTTOM_MASK,
    HEIGHT,
    SIZE,
    WIDTH,
)
from zoo.board_games.connect4.envs.connect4_search import (
    can_win_next,
    negamax,
    non_losing_moves,
    order_moves,
    popcount,
    solve_bits,
    winning_cells,
)

#: Score of a full column in ``column_scores`` (below every real score).
FULL = -100


@njit(cache=True)
def keeps_score(current, mask, move, score, keys, vals, moves, frames, codes, values, book_ply):
    """True if playing ``move`` (one playable cell) from a position of exact score ``score``
    keeps that score: one null-window probe of the child, not its exact score.

    Precondition: the position is not won and not full; ``score`` is its exact score.
    """
    n = popcount(mask)
    if winning_cells(current, mask) & move:
        return (SIZE + 1 - n) // 2 >= score
    child, child_mask = current ^ mask, mask | move
    if n + 1 == SIZE:
        return 0 >= score
    if can_win_next(child, child_mask):
        return -((SIZE - n) // 2) >= score
    r = negamax(
        child,
        child_mask,
        n + 1,
        -score,
        -score + 1,
        keys,
        vals,
        moves,
        frames,
        codes,
        values,
        book_ply,
    )
    return -r >= score


@njit(cache=True)
def first_optimal_move(current, mask, score, keys, vals, moves, frames, codes, values, book_ply):
    """The first move, in the search's own order, that keeps the exact score ``score``
    (a cell bit; 0 only if ``score`` was not the position's score).

    Precondition: the position is not won and not full.
    """
    playable = (mask + BOTTOM_MASK) & BOARD_MASK
    wins = winning_cells(current, mask) & playable
    if wins:
        return wins & -wins
    possible = non_losing_moves(current, mask)
    if possible == 0:  # every move loses at once: any playable one will do
        possible = playable
    n = popcount(mask)
    count = order_moves(current, mask, possible, moves, n)  # row n: the probes use n + 1 up
    for i in range(count - 1, -1, -1):
        move = moves[n, i] & BOARD_MASK
        if keeps_score(
            current, mask, move, score, keys, vals, moves, frames, codes, values, book_ply
        ):
            return move
    return 0


@njit(cache=True, nogil=True)  # nogil: lzero solve waits for it in another thread
def column_scores(current, mask, out, keys, vals, moves, frames, codes, values, book_ply):
    """Writes each column's exact score for the player to move into ``out`` `[7]` int64
    (``FULL`` for a full column). Precondition: the position is not won."""
    n = popcount(mask)
    wins = winning_cells(current, mask)
    for col in range(WIDTH):
        move = ((mask + BOTTOM_MASK) & BOARD_MASK) & (np.int64(63) << (col * (HEIGHT + 1)))
        if not move:
            out[col] = FULL
        elif wins & move:
            out[col] = (SIZE + 1 - n) // 2
        elif n + 1 == SIZE:
            out[col] = 0
        else:
            out[col] = -solve_bits(
                current ^ mask, mask | move, keys, vals, moves, frames, codes, values, book_ply
            )


@njit(cache=True)
def perfect_columns(current, mask, out, keys, vals, moves, frames, codes, values, book_ply):
    """Sets ``out`` `[7]` bool to the columns the perfect bot picks from: below ``book_ply``
    stones every optimal column (the children's searches stop at the book, so each column's
    exact score is cheap); from there on the first optimal column in the search's move order
    (each column's exact score would need a search to the end of the game).

    Precondition: the position is not won and not full; ``book_ply`` is the book's (not -1).
    """
    out[:] = False
    if popcount(mask) >= book_ply:
        score = solve_bits(current, mask, keys, vals, moves, frames, codes, values, book_ply)
        move = first_optimal_move(
            current, mask, score, keys, vals, moves, frames, codes, values, book_ply
        )
        for col in range(WIDTH):
            if move & (np.int64(63) << (col * (HEIGHT + 1))):
                out[col] = True
        return
    scores = np.empty(WIDTH, dtype=np.int64)
    column_scores(current, mask, scores, keys, vals, moves, frames, codes, values, book_ply)
    best = scores.max()
    for col in range(WIDTH):
        out[col] = scores[col] == best
