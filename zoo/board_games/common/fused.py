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
from collections.abc import Callable
from typing import NamedTuple

from numba import njit, types

from zoo.board_games.common.gravity import drop_apply_action, drop_legal_mask
from zoo.board_games.common.kinrow import (
    place_apply_action,
    place_legal_mask,
    result_after_k,
)
from zoo.board_games.common.planes import player_planes
from zoo.board_games.common.rules import ONGOING, BoardRules
from zoo.board_games.common.tactics import random_masked_action
from zoo.board_games.env_support import episode_streams


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
def kinrow_step(board, mask, obs, action, player, num_moves, consts):
    """Checks ``action``, then :func:`kinrow_play` and the next player's planes into ``obs``.

    Args:
        consts: ``(stone, channel_last, gravity, k)``: the planes' stone value (1.0, or 0.5
            when scaled; plane 2 holds ``stone * player``), their layout, and the game.

    Returns:
        ``cell * 4 + result``, or -1 if ``action`` is not legal now (out of range, taken, or
        the game is over: its mask is all zero); then nothing is written.
    """
    stone, channel_last, gravity, k = consts
    if action < 0 or action >= mask.shape[0] or mask[action] == 0:
        return -1
    code = kinrow_play(board, mask, action, player, num_moves, gravity, k)
    player_planes(board, 3 - player, stone * (3 - player), channel_last, obs)
    return code


def step_kernels(rules: BoardRules):
    """Returns ``(play, step)`` for ``rules``, with the signatures of :func:`kinrow_play` and
    :func:`kinrow_step` (``gravity`` and ``k`` are passed as ``rules.gravity`` and
    ``rules.win_length``; the closures of other games ignore them)."""
    shared = (place_apply_action, place_legal_mask), (drop_apply_action, drop_legal_mask)
    if (rules.apply_action, rules.legal_mask) in shared:
        return kinrow_play, kinrow_step
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
    def step(board, mask, obs, action, player, num_moves, consts):
        stone, channel_last, gravity, k = consts
        if action < 0 or action >= mask.shape[0] or mask[action] == 0:
            return -1
        code = play(board, mask, action, player, num_moves, gravity, k)
        player_planes(board, 3 - player, stone * (3 - player), channel_last, obs)
        return code

    return play, step


class EntryPoints(NamedTuple):
    """Compiled wrappers of the env's hot kernels, for the argument types the env always uses.

    Calling a numba dispatcher spends about 0.3 us per call finding the compiled version for
    the arguments' types, as much as the kernels themselves take on small boards. The env
    passes fixed types (C-contiguous int8 boards and masks, float32 observations, Python
    ints, floats and bools), so it calls the wrappers of ``Dispatcher.compile(signature)``
    directly; other types raise ``TypeError`` instead of compiling a new version.
    """

    play: Callable  # (board, mask, action, player, num_moves, gravity, k) -> code
    step: Callable  # (board, mask, obs, action, player, num_moves, consts) -> code or -1
    random_move: Callable  # (mask, rng_state) -> action
    planes: Callable  # (board, player, fill, channel_last, obs)
    legal_mask: Callable  # (board, mask)
    episode_streams: Callable  # (seed_state, dynamic, static_seed, streams)


_BOARD = types.Array(types.int8, 2, "C")
_MASK = types.Array(types.int8, 1, "C")
_OBS = types.Array(types.float32, 3, "C")
_RNG = types.Array(types.uint64, 1, "C")
_I, _F, _B = types.int64, types.float64, types.boolean
_CONSTS = types.Tuple((_F, _B, _B, _I))  # kinrow_step's (stone, channel_last, gravity, k)


@functools.cache
def entry_points(rules: BoardRules) -> EntryPoints:
    """Returns the :class:`EntryPoints` of ``rules`` (compiled or loaded from numba's cache)."""
    play, step = step_kernels(rules)
    return EntryPoints(
        play=play.compile((_BOARD, _MASK, _I, _I, _I, _B, _I)),
        step=step.compile((_BOARD, _MASK, _OBS, _I, _I, _I, _CONSTS)),
        random_move=random_masked_action.compile((_MASK, _RNG)),
        planes=player_planes.compile((_BOARD, _I, _F, _B, _OBS)),
        legal_mask=rules.legal_mask.compile((_BOARD, _MASK)),
        episode_streams=episode_streams.compile((_RNG, _B, _I, _RNG)),
    )
