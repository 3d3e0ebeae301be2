"""Candidate moves and random-rollout leaf evaluators.

An evaluator has the signature ``evaluate(board, to_play, num_moves, radius, rng, scratch,
legal_actions, apply_action, result_after) -> value`` (``EVALUATE_T``): it may overwrite
``board`` (the search recopies it each simulation) and returns the value of the position for
``to_play`` in ``[-1, 1]``. ``scratch`` is an int64 work array `[4, A]` owned by the search.

*Near-stone candidates* (for placement games, where an action is the flat cell
``row * W + col`` and the legal moves are the empty cells, as in TicTacToe and Gomoku): the
empty cells within Chebyshev distance ``radius`` of a stone; every legal move while the board
is empty. ``radius <= 0`` means all legal moves. On a 15x15 board this keeps about 20-40 of
225 moves, which is what makes search and rollouts informative there. A radius needs a board
at most ``MAX_NEAR_WIDTH`` (64) columns wide (``mark_near_stones``); the searches check it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from lzero.envs.board_rules import ONGOING
from lzero.mcts.game import (
    BOARD_T,
    KERNELS_T,
    RNG_T,
    SCRATCH_T,
    randbelow_fast,
    terminal_value,
)

#: The widest board near-stone candidates serve: a row's marks are one 64-bit word.
MAX_NEAR_WIDTH = 64


def check_near_width(radius: int, width: int) -> None:
    """Raises ValueError if a ``radius > 0`` is asked of a board ``width`` columns wide, more
    than the near-stone marks serve (``MAX_NEAR_WIDTH``)."""
    if radius and width > MAX_NEAR_WIDTH:
        raise ValueError(
            f"expected radius 0 on a board wider than {MAX_NEAR_WIDTH} columns (the near-stone "
            f"marks keep a row in one 64-bit word), got radius {radius} on a board {width} wide"
        )


EVALUATE_T = types.FunctionType(
    types.float64(
        BOARD_T,
        types.int64,
        types.int64,
        types.int64,
        RNG_T,
        SCRATCH_T,
        *KERNELS_T,
    )
)


@njit(cache=True)
def mark_near_stones(board, radius, mark):
    """Sets ``mark[cell] = 1`` for the cells within ``radius`` of a stone, 0 elsewhere.

    Each row's stones are one 64-bit word, widened by shifts along the row and OR-ed over the
    rows within ``radius``: about 0.2 us a 9x9 board with 0-45 stones, where marking each
    stone's square took 1.0-1.5 us.

    Args:
        board: `[H, W]` int8 position, ``W <= MAX_NEAR_WIDTH``.
        radius: Chebyshev radius, ``>= 1``.
        mark: `[>= H * W]` int64 output.

    Returns:
        The number of stones on the board.
    """
    height, width = board.shape
    flat = board.reshape(-1)
    rows = np.empty(height, np.uint64)
    reach = min(radius, width - 1)  # a longer shift moves every stone off the row (and one
    # by 64 or more is undefined)
    stones = 0
    for r in range(height):
        word = np.uint64(0)
        for c in range(width):
            stone = flat[r * width + c] != 0
            word |= np.uint64(stone) << np.uint64(c)
            stones += stone
        near = word
        for d in range(1, reach + 1):
            near |= (word << np.uint64(d)) | (word >> np.uint64(d))
        rows[r] = near  # bits past the row's end are never read
    for r in range(height):
        near = np.uint64(0)
        for other in range(max(0, r - radius), min(height, r + radius + 1)):
            near |= rows[other]
        for c in range(width):
            mark[r * width + c] = (near >> np.uint64(c)) & np.uint64(1)
    return stones


@njit(cache=True, inline="always")
def candidate_actions(board, to_play, radius, scratch, out, legal_actions):
    """Writes the candidate moves of ``to_play`` (legal, near a stone if ``radius > 0`` and
    any such cell is empty) into ``out``.

    Uses ``scratch[2]`` as work space. Returns their number.
    """
    n = legal_actions(board, to_play, out)
    if radius <= 0:
        return n
    mark = scratch[2]
    if mark_near_stones(board, radius, mark) == 0:
        return n
    m = 0
    for i in range(n):  # kept without a branch: the marks follow the position
        out[m] = out[i]
        m += mark[out[i]] != 0
    if m == 0:  # every cell near a stone is taken: any legal move is a candidate
        return legal_actions(board, to_play, out)
    return m


@njit(cache=True)
def uniform_rollout(
    board, to_play, num_moves, radius, rng, scratch, legal_actions, apply_action, result_after
):
    """Plays uniformly random legal moves to the end (any game; ``radius`` is ignored).

    Returns:
        The final result as a value for ``to_play``: 1 win, 0 draw, -1 loss.
    """
    actions = scratch[0]
    player = to_play
    while True:
        n = legal_actions(board, player, actions)
        action = actions[randbelow_fast(rng, n)]
        cell = apply_action(board, action, player)
        num_moves += 1
        result = result_after(board, cell, player, num_moves)
        if result != ONGOING:
            return terminal_value(result, to_play)
        player = 3 - player


@njit(cache=True)
def placement_rollout(
    board, to_play, num_moves, radius, rng, scratch, legal_actions, apply_action, result_after
):
    """Plays uniformly random near-stone candidates to the end (placement games only).

    Keeps the candidate cells in a list with swap-removal (``scratch[1]``, positions in
    ``scratch[2]``) and adds a placed stone's empty neighbours, so a move costs
    ``O(radius ** 2)`` instead of a board scan.

    Returns:
        The final result as a value for ``to_play``: 1 win, 0 draw, -1 loss.
    """
    height, width = board.shape
    flat = board.reshape(-1)
    # scratch[1] holds the candidate list, scratch[2] each cell's position in it (or -1);
    # indexed in place, since taking row views costs reference counting per rollout.
    m = 0
    if radius <= 0 or num_moves == 0:
        for cell in range(height * width):
            scratch[2, cell] = -1
            if flat[cell] == 0:
                scratch[2, cell] = m
                scratch[1, m] = cell
                m += 1
    else:
        mark_near_stones(board, radius, scratch[2])
        for cell in range(height * width):
            if scratch[2, cell] != 0 and flat[cell] == 0:
                scratch[2, cell] = m
                scratch[1, m] = cell
                m += 1
            else:
                scratch[2, cell] = -1
    player = to_play
    while m > 0:
        i = randbelow_fast(rng, m)
        cell = scratch[1, i]
        m -= 1
        last = scratch[1, m]
        scratch[1, i] = last
        scratch[2, last] = i
        scratch[2, cell] = -1
        apply_action(board, cell, player)
        num_moves += 1
        result = result_after(board, cell, player, num_moves)
        if result != ONGOING:
            return terminal_value(result, to_play)
        if radius > 0:
            row, col = cell // width, cell % width
            for r in range(max(0, row - radius), min(height, row + radius + 1)):
                for c in range(max(0, col - radius), min(width, col + radius + 1)):
                    near = r * width + c
                    if flat[near] == 0 and scratch[2, near] < 0:
                        scratch[2, near] = m
                        scratch[1, m] = near
                        m += 1
        player = 3 - player
    return 0.0
