"""Leaf values and move priors for k-in-a-row placement games, from line windows.

Random rollouts cannot value the threats that decide Gomoku (an open three becomes an open
four, which wins): with them MCTS lost every game to the Gomoku threat bot. So for games of
five in a row ``zoo.board_games.mcts_bot`` hands the search these instead (its ``evaluate`` and
``priors`` hooks, with PUCT selection). A leaf is valued statically:

1. *Forced replies* (a quiescence search on fours): if the player to move can complete ``k``
   it wins (+1); if the opponent has two or more distinct completing cells it loses (-1); if
   the opponent has exactly one, the mover plays it and the roles swap. Repeated while forced
   (at most ``MAX_FORCED`` plies).
2. *Window score*: every ``k``-cell window along the four line directions that holds stones of
   one player only counts ``WEIGHTS[j]`` for that player, ``j`` its stones (the window
   evaluation of classic Gomoku programs; see Allis, "Searching for Solutions in Games and
   Artificial Intelligence", 1994, ch. 4, on threats). The mover's windows count
   ``MOVER_FACTOR`` times more, as the mover extends first. The value is
   ``tanh((mover - opponent) / SCALE)``.

A move's prior is what it adds to the mover's window score plus ``DEFENCE`` times what it
would add to the opponent's (``cell_gains``), normalised: moves that make or stop threats
come first, which is what lets 2,000 simulations look deep enough.

Board layout and cells as in ``kinrow``: ``[H, W]`` int8, 0 empty, 1/2 the players, flat
``row * W + col``. Windows are walked along ``(0, 1)``, ``(1, 0)``, ``(1, 1)`` and
``(1, -1)``.
"""

from __future__ import annotations

import math

from numba import njit

from lzero.mcts.tactics import window_stones

__all__ = [
    "cell_gains",
    "evaluate_five",
    "line_priors",
    "line_scores",
    "line_value",
    "priors_five",
]

#: Score of a window holding ``j`` stones of one player and none of the other, ``j = 0..5``
#: (``k = 5``: a window of 4 is a four, and none is left after the forced replies).
WEIGHTS = (0.0, 1.0, 8.0, 64.0, 512.0, 4096.0)
#: The constants below were tuned against the Gomoku rule bot at 2,000 simulations (100
#: games from random 4-stone openings: SCALE 150 won 88, 600 won 95; MOVER_FACTOR 2,
#: DEFENCE 0.6 or 1.0, other WEIGHTS and sharper priors stayed within 91-96).
MOVER_FACTOR = 1.5
SCALE = 600.0
DEFENCE = 0.8
#: Forced replies played out at most (a chain of fours rarely runs longer).
MAX_FORCED = 12


@njit(inline="always")
def _count_window(n, empty, k, score, win_a, win_b):
    """Adds a window holding ``n`` stones of one player (and ``empty`` one of its empty
    cells) to that player's ``score`` and winning cells ``win_a``, ``win_b``."""
    score += WEIGHTS[n]
    if n == k - 1:
        if win_a < 0:
            win_a = empty
        elif win_b < 0 and empty != win_a:
            win_b = empty
    return score, win_a, win_b


@njit(cache=True)
def line_scores(board, k):
    """Scores every ``k``-cell window of ``board``.

    Args:
        board: `[H, W]` int8 position, no line of ``k`` on it; ``2 <= k <= 5``.
        k: win length.

    Returns:
        ``(score1, score2, win1a, win1b, win2a, win2b)``: each player's sum of ``WEIGHTS``
        over its windows, and up to two distinct cells (``-1`` if fewer) where that player
        would complete ``k``.
    """
    h, w = board.shape
    s1 = 0.0
    s2 = 0.0
    win1a = win1b = win2a = win2b = -1
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(h):
            er = r + (k - 1) * dr
            if er >= h:
                break
            for c in range(w):
                ec = c + (k - 1) * dc
                if ec < 0 or ec >= w:
                    continue
                n1 = 0
                n2 = 0
                empty = -1
                for i in range(k):
                    v = board[r + i * dr, c + i * dc]
                    if v == 1:
                        n1 += 1
                    elif v == 2:
                        n2 += 1
                    else:
                        empty = (r + i * dr) * w + c + i * dc
                if n2 == 0 and n1 > 0:
                    s1, win1a, win1b = _count_window(n1, empty, k, s1, win1a, win1b)
                elif n1 == 0 and n2 > 0:
                    s2, win2a, win2b = _count_window(n2, empty, k, s2, win2a, win2b)
    return s1, s2, win1a, win1b, win2a, win2b


@njit(cache=True)
def line_value(board, to_play, k):
    """Value of ``board`` for ``to_play`` (1 or 2) in ``[-1, 1]`` (see the module doc).

    Args:
        board: `[H, W]` int8 unfinished position, no line of ``k``; overwritten by the forced
            replies.
        to_play: player to move.
        k: win length, ``2 <= k <= 5``.

    Returns:
        +1 or -1 if the forced replies decide the game, else the window score's value.
    """
    w = board.shape[1]
    player = to_play
    sign = 1.0
    for ply in range(MAX_FORCED + 1):
        s1, s2, win1a, win1b, win2a, win2b = line_scores(board, k)
        if player == 1:
            mine, theirs, my_win, their_win, their_second = s1, s2, win1a, win2a, win2b
        else:
            mine, theirs, my_win, their_win, their_second = s2, s1, win2a, win1a, win1b
        if my_win >= 0:
            return sign
        if their_second >= 0:
            return -sign
        if their_win < 0 or ply == MAX_FORCED:
            return sign * math.tanh((MOVER_FACTOR * mine - theirs) / SCALE)
        board[their_win // w, their_win % w] = player  # the only block
        player = 3 - player
        sign = -sign
    return 0.0  # not reached


@njit(cache=True)
def evaluate_five(
    board, to_play, num_moves, radius, rng, scratch, legal_actions, apply_action, result_after
):
    """``line_value`` for five in a row, with the search's evaluator signature
    (``lzero.mcts.rollout.EVALUATE_T``; the kernels and generator are not needed)."""
    return line_value(board, to_play, 5)


@njit(cache=True)
def cell_gains(board, cell, k):
    """What a stone on the empty flat ``cell`` adds to each player's window score.

    Returns:
        ``(gain1, gain2)``: the sums over the ``k``-cell windows through ``cell`` that hold no
        stone of the other player of ``WEIGHTS[j + 1] - WEIGHTS[j]``, ``j`` the player's
        stones in the window.
    """
    h, w = board.shape
    row, col = cell // w, cell % w
    gain1 = 0.0
    gain2 = 0.0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for back in range(k):  # the window starts ``back`` cells before ``cell``
            r0, c0 = row - back * dr, col - back * dc
            r1, c1 = r0 + (k - 1) * dr, c0 + (k - 1) * dc
            if r0 < 0 or r1 >= h or min(c0, c1) < 0 or max(c0, c1) >= w:
                continue
            n1, n2 = window_stones(board, r0, c0, dr, dc, k)
            if n2 == 0:
                gain1 += WEIGHTS[n1 + 1] - WEIGHTS[n1]
            if n1 == 0:
                gain2 += WEIGHTS[n2 + 1] - WEIGHTS[n2]
    return gain1, gain2


@njit(cache=True)
def line_priors(board, to_play, actions, n, out, k):
    """Priors of the moves ``actions[:n]`` (empty cells) for ``to_play``, into ``out[:n]``.

    A move's weight is ``attack + DEFENCE * defence + 1``, its gains for the mover and for
    the opponent (``cell_gains``; the 1 keeps every move possible); the priors are the
    weights normalised.

    Args:
        board: `[H, W]` int8 position; ``actions[:n]`` must be empty cells of it.
        to_play: player to move, 1 or 2.
        actions: `[>= n]` int64 flat cells.
        n: number of moves, ``>= 1``.
        out: `[>= n]` float32 output.
        k: win length, ``2 <= k <= 5``.

    Returns:
        ``n``.
    """
    total = 0.0
    for i in range(n):
        gain1, gain2 = cell_gains(board, actions[i], k)
        attack, defence = (gain1, gain2) if to_play == 1 else (gain2, gain1)
        weight = attack + DEFENCE * defence + 1.0
        out[i] = weight
        total += weight
    for i in range(n):
        out[i] = out[i] / total
    return n


@njit(cache=True)
def priors_five(board, to_play, actions, n, out):
    """``line_priors`` for five in a row, with the search's prior signature
    (``lzero.mcts.game.PRIORS_T``)."""
    return line_priors(board, to_play, actions, n, out, 5)
