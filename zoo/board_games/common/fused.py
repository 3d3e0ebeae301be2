"""Fused kernels of the env's hot path: a step (check a move, play it, write the next
observation and reward) and a reset, each one numba call, because at a microsecond per env
step the call overheads are the cost.

Both write the observation the env hands out into output arrays (planes, a copy of the board
and of the legal mask, the reward), never into the env's own state; the env reuses those
arrays once nobody holds them any more (see ``BoardGameEnv._next_outputs``).

Every game whose kernels are the shared k-in-a-row ones (``kinrow`` placing or ``gravity``
dropping, judged by ``result_after_k``) is fully described by its ``gravity`` and
``win_length``, so one compiled, disk-cached set of functions serves them all. Other games
get closures over their own ``BoardRules`` functions (compiled per process, not cached: numba
cannot key a cache on closed-over functions). Inside, the helpers are inlined and the arrays
used ``borrowed``: a call to a helper, or a view, would take and release each array with
atomic reference counting, which cost TicTacToe's step more than its rules (137 -> 44 ns).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

from numba import njit, types

from lzero.envs.board_step import episode_streams, player_planes, random_masked_action
from lzero.utils.nbarrays import borrowed, inlined
from zoo.board_games.common.gravity import drop_apply_action, drop_legal_mask
from zoo.board_games.common.kinrow import (
    place_apply_action,
    place_legal_mask,
    result_after_k,
)
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


_play_inline, _planes_inline = inlined(kinrow_play), inlined(player_planes)
_place_mask_inline, _drop_mask_inline = inlined(place_legal_mask), inlined(drop_legal_mask)


@njit(inline="always")
def _write_outputs(board, mask, player, stone, channel_last, obs, board_out, mask_out):
    """``player``'s planes into ``obs``, and copies of ``board`` and ``mask``."""
    _planes_inline(board, player, stone * player, channel_last, obs)
    h, w = board.shape
    for r in range(h):
        for c in range(w):
            board_out[r, c] = board[r, c]
    for a in range(mask.shape[0]):
        mask_out[a] = mask[a]


@njit(inline="always")
def _fused_step(play, board, mask, action, player, num_moves, consts, obs, board_out, mask_out,
                reward):  # fmt: skip
    board, mask, obs = borrowed(board), borrowed(mask), borrowed(obs)
    board_out, mask_out, reward = borrowed(board_out), borrowed(mask_out), borrowed(reward)
    stone, channel_last, gravity, k = consts
    if action < 0 or action >= mask.shape[0] or mask[action] == 0:
        return -1
    code = play(board, mask, action, player, num_moves, gravity, k)
    _write_outputs(board, mask, 3 - player, stone, channel_last, obs, board_out, mask_out)
    reward[0] = 1.0 if code & 3 == player else 0.0
    return code


@njit(cache=True)
def kinrow_step(board, mask, action, player, num_moves, consts, obs, board_out, mask_out, reward):
    """Checks ``action``, plays it (:func:`kinrow_play`) and writes the outputs of the step.

    Args:
        board: `[H, W]` int8 and ``mask`` `[A]` int8: the env's state, updated in place.
        action, player, num_moves: the move, its player (1 or 2), stones before it.
        consts: ``(stone, channel_last, gravity, k)``: the planes' stone value (1.0, or 0.5
            when scaled; plane 2 holds ``stone * player``), their layout, and the game.
        obs: float32 `[3, H, W]` (or `[H, W, 3]`): the next player's planes.
        board_out, mask_out: copies of the new ``board`` and ``mask``.
        reward: `[1]` float32, 1.0 if the move won, else 0.0 (self-play's reward).

    Returns:
        ``cell * 4 + result``, or -1 if ``action`` is not legal now (out of range, taken, or
        the game is over: its mask is all zero); then nothing is written.
    """
    return _fused_step(_play_inline, board, mask, action, player, num_moves, consts, obs,
                       board_out, mask_out, reward)  # fmt: skip


@njit(inline="always")
def _fused_reset(legal_mask, board, mask, clear, player, consts, seed_state, dynamic,
                 static_seed, streams, obs, board_out, mask_out):  # fmt: skip
    board, mask, obs = borrowed(board), borrowed(mask), borrowed(obs)
    board_out, mask_out = borrowed(board_out), borrowed(mask_out)
    seed_state, streams = borrowed(seed_state), borrowed(streams)
    stone, channel_last = consts[0], consts[1]
    if clear:
        board[:, :] = 0
    legal_mask(board, mask)
    episode_streams(seed_state, dynamic, static_seed, streams)
    _write_outputs(board, mask, player, stone, channel_last, obs, board_out, mask_out)


@njit(cache=True)
def kinrow_reset(board, mask, clear, player, consts, seed_state, dynamic, static_seed, streams,
                 obs, board_out, mask_out):  # fmt: skip
    """Starts an episode: empties ``board`` if ``clear``, writes its legal ``mask``, draws the
    episode's generator ``streams`` (:func:`~lzero.envs.board_step.episode_streams`) and
    writes ``player``'s first observation, as :func:`kinrow_step` does."""
    if consts[2]:
        _fused_reset(_drop_mask_inline, board, mask, clear, player, consts, seed_state, dynamic,
                     static_seed, streams, obs, board_out, mask_out)  # fmt: skip
    else:
        _fused_reset(_place_mask_inline, board, mask, clear, player, consts, seed_state,
                     dynamic, static_seed, streams, obs, board_out, mask_out)  # fmt: skip


def step_kernels(rules: BoardRules):
    """Returns ``(play, step, reset)`` for ``rules``, with the signatures of
    :func:`kinrow_play`, :func:`kinrow_step` and :func:`kinrow_reset` (``gravity`` and ``k``
    are passed as ``rules.gravity`` and ``rules.win_length``; other games' closures ignore
    them)."""
    shared = (place_apply_action, place_legal_mask), (drop_apply_action, drop_legal_mask)
    if (rules.apply_action, rules.legal_mask) in shared:
        return kinrow_play, kinrow_step, kinrow_reset
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
    def step(board, mask, action, player, num_moves, consts, obs, board_out, mask_out, reward):
        return _fused_step(play, board, mask, action, player, num_moves, consts, obs,
                           board_out, mask_out, reward)  # fmt: skip

    @njit
    def reset(board, mask, clear, player, consts, seed_state, dynamic, static_seed, streams,
              obs, board_out, mask_out):  # fmt: skip
        _fused_reset(legal_mask, board, mask, clear, player, consts, seed_state, dynamic,
                     static_seed, streams, obs, board_out, mask_out)  # fmt: skip

    return play, step, reset


class EntryPoints(NamedTuple):
    """Compiled wrappers of the env's hot kernels, for the argument types the env always uses.

    Calling a numba dispatcher spends about 0.3 us per call finding the compiled version for
    the arguments' types, as much as the kernels themselves take on small boards. The env
    passes fixed types (C-contiguous int8 boards and masks, float32 observations, Python
    ints, floats and bools), so it calls the wrappers of ``Dispatcher.compile(signature)``
    directly; other types raise ``TypeError`` instead of compiling a new version.
    """

    play: Callable  # (board, mask, action, player, num_moves, gravity, k) -> code
    step: Callable  # kinrow_step's arguments -> code or -1
    reset: Callable  # kinrow_reset's arguments
    random_move: Callable  # (mask, rng_state) -> action
    planes: Callable  # (board, player, fill, channel_last, obs)


_BOARD = types.Array(types.int8, 2, "C")
_MASK = types.Array(types.int8, 1, "C")
_OBS = types.Array(types.float32, 3, "C")
_REWARD = types.Array(types.float32, 1, "C")
_RNG = types.Array(types.uint64, 1, "C")
_I, _F, _B = types.int64, types.float64, types.boolean
_CONSTS = types.Tuple((_F, _B, _B, _I))  # kinrow_step's (stone, channel_last, gravity, k)


@functools.cache
def entry_points(rules: BoardRules) -> EntryPoints:
    """Returns the :class:`EntryPoints` of ``rules`` (compiled or loaded from numba's cache)."""
    play, step, reset = step_kernels(rules)
    outputs = (_OBS, _BOARD, _MASK)
    return EntryPoints(
        play=play.compile((_BOARD, _MASK, _I, _I, _I, _B, _I)),
        step=step.compile((_BOARD, _MASK, _I, _I, _I, _CONSTS, *outputs, _REWARD)),
        reset=reset.compile((_BOARD, _MASK, _B, _I, _CONSTS, _RNG, _B, _I, _RNG, *outputs)),
        random_move=random_masked_action.compile((_MASK, _RNG)),
        planes=player_planes.compile((_BOARD, _I, _F, _B, _OBS)),
    )
