"""Fused step kernels: play a move, update the legal mask and write the next observation in
one numba call, because at a few microseconds per env step the call overhead is the cost.

Every game whose kernels are the shared k-in-a-row ones (``kinrow`` placing or ``gravity``
dropping, judged by ``result_after_k``) is fully described by its ``gravity`` and
``win_length``, so one compiled, disk-cached pair of functions serves them all. Other games
get closures over their own ``BoardRules`` functions (compiled per process, not cached: numba
cannot key a cache on closed-over functions).
"""

from __future__ import annotations

import functools

from numba import njit

from zoo.board_games.common.gravity import drop_apply_action, drop_legal_mask
from zoo.board_games.common.kinrow import (
    place_apply_action,
    place_legal_mask,
    result_after_k,
)
from zoo.board_games.common.planes import player_planes
from zoo.board_games.common.rules import ONGOING, BoardRules


@njit(cache=True)
def kinrow_play(board, mask, action, player, num_moves, gravity, k):
    """Plays legal ``action`` for ``player`` (``num_moves`` stones before it) in a k-in-a-row
    game; rewrites ``mask`` `[A]` (all zero once over); returns ``cell * 4 + result``."""
    if gravity:
        cell = drop_apply_action(board, action, player)
    else:
        cell = place_apply_action(board, action, player)
    result = result_after_k(board, cell, player, num_moves + 1, k)
    if result != ONGOING:
        mask[:] = 0
    elif gravity:
        drop_legal_mask(board, mask)
    else:
        place_legal_mask(board, mask)
    return cell * 4 + result


@njit(cache=True)
def kinrow_play_observe(
    board, mask, obs, action, player, num_moves, fill, channel_last, gravity, k
):
    """:func:`kinrow_play`, then the next player's planes into ``obs`` (``fill``: plane 2)."""
    code = kinrow_play(board, mask, action, player, num_moves, gravity, k)
    player_planes(board, 3 - player, fill, channel_last, obs)
    return code


def step_kernels(rules: BoardRules):
    """Returns ``(play, play_observe)`` for ``rules``, with the signatures of
    :func:`kinrow_play` and :func:`kinrow_play_observe` (``gravity`` and ``k`` are passed as
    ``rules.gravity`` and ``rules.win_length``; the closures of other games ignore them)."""
    shared = (place_apply_action, place_legal_mask), (drop_apply_action, drop_legal_mask)
    if (rules.apply_action, rules.legal_mask) in shared:
        return kinrow_play, kinrow_play_observe
    return _closures(rules.apply_action, rules.result_after, rules.legal_mask)


@functools.cache
def _closures(apply_action, result_after, legal_mask):
    @njit
    def play(board, mask, action, player, num_moves, gravity, k):
        cell = apply_action(board, action, player)
        result = result_after(board, cell, player, num_moves + 1)
        if result == ONGOING:
            legal_mask(board, mask)
        else:
            mask[:] = 0
        return cell * 4 + result

    @njit
    def play_observe(board, mask, obs, action, player, num_moves, fill, channel_last, gravity, k):
        code = play(board, mask, action, player, num_moves, gravity, k)
        player_planes(board, 3 - player, fill, channel_last, obs)
        return code

    return play, play_observe
