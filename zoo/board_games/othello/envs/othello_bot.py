"""Othello's bots: a rule bot (corners, then mobility) and a depth-limited alpha-beta bot
with a positional evaluation, both numba ``(board, player, rng_state) -> action``.

The positional weights are the classic table of Othello programs (corners high, the cells
beside an empty corner low; Rosenbloom's IAGO, 1982, and most teaching programs since);
mobility is the number of legal placements, which the strong programs weigh heavily.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zoo.board_games.common.tactics import argmax_random_tie
from zoo.board_games.othello.envs.othello_rules import (
    PASS,
    SIZE,
    apply_action,
    can_place,
    disc_counts,
    legal_actions,
    result_after,
)

#: Classic positional weights, `[8, 8]`, for the side that owns the disc.
WEIGHTS = np.array(
    [
        [100, -20, 10, 5, 5, 10, -20, 100],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [10, -2, -1, -1, -1, -1, -2, 10],
        [5, -2, -1, -1, -1, -1, -2, 5],
        [5, -2, -1, -1, -1, -1, -2, 5],
        [10, -2, -1, -1, -1, -1, -2, 10],
        [-20, -50, -2, -2, -2, -2, -50, -20],
        [100, -20, 10, 5, 5, 10, -20, 100],
    ],
    dtype=np.int64,
)
_CORNERS = (0, SIZE - 1, SIZE * (SIZE - 1), SIZE * SIZE - 1)
_WIN = 1_000_000  # a decided game, beyond any evaluation


@njit(cache=True)
def _mobility(board, player):
    out = np.empty(PASS + 1, np.int64)
    n = legal_actions(board, player, out)
    return 0 if out[0] == PASS else n


@njit(cache=True)
def rule_bot_action(board, player, rng_state):
    """The rule bot's move: a corner if one is legal, else the move that leaves the
    opponent the fewest placements, cells beside an empty corner last; ties at random.

    Args:
        board: `[8, 8]` int8 position of a running game.
        player: 1 or 2, the player to move.
        rng_state: ``lzero.utils.nbrng`` state `[1]` uint64 (advanced in place).
    """
    actions = np.empty(PASS + 1, np.int64)
    n = legal_actions(board, player, actions)
    if actions[0] == PASS:
        return PASS
    scores = np.zeros(PASS + 1, np.int64)
    valid = np.zeros(PASS + 1, np.int8)
    work = np.empty_like(board)
    for i in range(n):
        a = actions[i]
        work[:, :] = board
        apply_action(work, a, player)
        score = -10 * _mobility(work, 3 - player)
        r, c = a // SIZE, a % SIZE
        if WEIGHTS[r, c] == 100:
            score += 10_000
        elif WEIGHTS[r, c] <= -20:
            score -= 1_000
        scores[a], valid[a] = score, 1
    return argmax_random_tie(scores, valid, rng_state)


@njit(cache=True)
def evaluate(board, player):
    """The position's worth for ``player``: positional weights plus mobility, or
    ``+-_WIN`` (scaled by the disc margin) once neither side can place."""
    if not (can_place(board, 1) or can_place(board, 2)):
        black, white = disc_counts(board)
        margin = black - white if player == 1 else white - black
        return 0 if margin == 0 else (_WIN + margin if margin > 0 else -_WIN + margin)
    score = 0
    for r in range(SIZE):
        for c in range(SIZE):
            v = board[r, c]
            if v == player:
                score += WEIGHTS[r, c]
            elif v != 0:
                score -= WEIGHTS[r, c]
    return score + 5 * (_mobility(board, player) - _mobility(board, 3 - player))


@njit(cache=True)
def _negamax(board, player, depth, alpha, beta):
    if depth == 0:
        return evaluate(board, player)
    actions = np.empty(PASS + 1, np.int64)
    n = legal_actions(board, player, actions)
    best = -2 * _WIN
    work = np.empty_like(board)
    for i in range(n):
        work[:, :] = board
        cell = apply_action(work, actions[i], player)
        if result_after(work, cell, player, 0) != 0:
            score = evaluate(work, player)
        else:
            score = -_negamax(work, 3 - player, depth - 1, -beta, -alpha)
        if score > best:
            best = score
        if score > alpha:
            alpha = score
        if alpha >= beta:
            break
    return best


@njit(cache=True)
def alpha_beta_action(board, player, rng_state, depth=4):
    """The move a ``depth``-ply negamax with alpha-beta pruning rates best by
    :func:`evaluate` (Knuth and Moore, 1975); ties at random."""
    actions = np.empty(PASS + 1, np.int64)
    n = legal_actions(board, player, actions)
    if n == 1:
        return actions[0]
    scores = np.full(PASS + 1, -4 * _WIN, np.int64)
    valid = np.zeros(PASS + 1, np.int8)
    work = np.empty_like(board)
    for i in range(n):
        a = actions[i]
        work[:, :] = board
        cell = apply_action(work, a, player)
        if result_after(work, cell, player, 0) != 0:
            scores[a] = evaluate(work, player)
        else:  # a full window per move, so that equal moves tie and are drawn at random
            scores[a] = -_negamax(work, 3 - player, depth - 1, -4 * _WIN, 4 * _WIN)
        valid[a] = 1
    return argmax_random_tie(scores, valid, rng_state)
