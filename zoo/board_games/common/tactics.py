"""Bot building blocks shared by every game: landing cells, immediate wins, random choice.

All functions are pure numba over a board ``[H, W]`` int8 and restore the board they probe.
"""

from __future__ import annotations

from numba import njit

from lzero.utils.nbrng import randbelow
from zoo.board_games.common.kinrow import longest_line


@njit(cache=True)
def landing_cell(board, action, gravity):
    """Flat cell a stone for ``action`` would occupy, or -1 if the action is illegal."""
    h, w = board.shape
    if gravity:
        for r in range(h - 1, -1, -1):
            if board[r, action] == 0:
                return r * w + action
        return -1
    return action if board[action // w, action % w] == 0 else -1


@njit(cache=True)
def wins_at(board, cell, player, k):
    """True if ``player`` playing the empty flat ``cell`` would make ``k`` or more in a row."""
    w = board.shape[1]
    return longest_line(board, cell // w, cell % w, player) >= k


@njit(cache=True)
def winning_action(board, player, k, gravity):
    """Smallest action that wins at once for ``player`` (``k`` in a row), or -1 if none."""
    h, w = board.shape
    num_actions = w if gravity else h * w
    for a in range(num_actions):
        cell = landing_cell(board, a, gravity)
        if cell >= 0 and wins_at(board, cell, player, k):
            return a
    return -1


@njit(cache=True)
def win_or_block(board, player, k, gravity):
    """``player``'s smallest winning action, else the smallest one that blocks the opponent's
    win (the same action lands on the opponent's winning cell), else -1: a rule bot's first two
    rules."""
    a = winning_action(board, player, k, gravity)
    return a if a >= 0 else winning_action(board, 3 - player, k, gravity)


@njit(cache=True)
def count_winning_actions(board, player, k, gravity):
    """Number of actions that would win at once for ``player``."""
    h, w = board.shape
    num_actions = w if gravity else h * w
    n = 0
    for a in range(num_actions):
        cell = landing_cell(board, a, gravity)
        if cell >= 0 and wins_at(board, cell, player, k):
            n += 1
    return n


@njit(cache=True)
def random_legal_action(board, gravity, rng_state):
    """A uniformly random legal action (one draw from ``rng_state``), or -1 on a full board:
    the draw of :func:`lzero.envs.board_step.random_masked_action` on the legal mask."""
    h, w = board.shape
    num_actions = w if gravity else h * w
    n = 0
    for a in range(num_actions):
        if board[0, a] == 0 if gravity else board[a // w, a % w] == 0:
            n += 1
    if n == 0:
        return -1
    k = randbelow(rng_state, n)
    for a in range(num_actions):
        if board[0, a] == 0 if gravity else board[a // w, a % w] == 0:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def argmax_random_tie(scores, valid, rng_state):
    """Index of the largest ``scores[i]`` among ``valid[i] != 0``, ties broken at random.

    Args:
        scores: `[A]` float64 or int64.
        valid: `[A]` mask, nonzero where the index may be chosen.
        rng_state: ``lzero.utils.nbrng`` state `[1]` uint64.

    Returns:
        The chosen index, or -1 if nothing is valid.
    """
    best = -1
    ties = 0
    for i in range(scores.shape[0]):
        if valid[i] == 0:
            continue
        if best < 0 or scores[i] > scores[best]:
            best = i
            ties = 1
        elif scores[i] == scores[best]:
            ties += 1
            if randbelow(rng_state, ties) == 0:
                best = i
    return best
