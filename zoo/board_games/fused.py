"""Fused kernels of the env's hot path: a step (check a move, play it, write the next
observation and reward) and a reset, each one numba call, because at a microsecond per env
step the call overheads are the cost.

Both write the observation the env hands out into output arrays (planes, a copy of the board
and of the legal mask, the reward), never into the env's own state: the parts of one reused
buffer, or new arrays while the caller holds both of the env's buffers (see ``env_outputs``).

A move is always played by the game's own ``BoardRules`` kernels, through the library's
:func:`~lzero.envs.board_step.play_move` (the pool's step plays it too), with the kernels
compiled into the fused function. numba cannot disk-cache a function that closes over jitted
functions or takes them as arguments (it keys them on a per-process id, see
``lzero.mcts.jit``), and such a set takes 1-2 s to compile; so the bundled games' sets are
written out below with their kernels as module globals, cached on disk, and picked when a
game's three kernels are exactly theirs. Any other game, or a bundled one with a kernel
replaced, gets closures over its own kernels, compiled once per process; both run the same
code. Inside, the arrays are used ``borrowed``: a view, or a call that is not inlined, would
take and release each array with atomic reference counting, which cost TicTacToe's step more
than its rules (137 -> 44 ns).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit, types

from lzero.envs.board_step import (
    episode_streams,
    move_reward,
    play_move,
    player_planes,
    random_masked_action,
)
from lzero.utils.nbarrays import borrowed, inlined
from zoo.board_games.common.rules import BoardRules
from zoo.board_games.connect4.envs import connect4_rules as c4
from zoo.board_games.gomoku.envs import gomoku_rules as gomoku
from zoo.board_games.tictactoe.envs import tictactoe_rules as ttt

_planes_inline = inlined(player_planes)


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
def split_outputs(out, board, mask, channel_last):
    """Views of an output set's float32 buffer ``out`` (``env_outputs.buffer_size``):
    ``(planes, board_out, mask_out, reward)`` shaped as ``board``, ``mask`` and the planes."""
    h, w = board.shape
    n, a = h * w, mask.shape[0]
    planes = out[: 3 * n]
    obs = planes.reshape((h, w, 3)) if channel_last else planes.reshape((3, h, w))
    ints = out[3 * n + 1 :].view(np.int8)
    return obs, ints[:n].reshape((h, w)), ints[n : n + a], out[3 * n : 3 * n + 1]


@njit(inline="always")
def fused_step(apply_action, result_after, legal_mask, board, mask, action, player, num_moves,
               consts, obs, board_out, mask_out, reward):  # fmt: skip
    """Checks ``action``, plays it with the game's kernels and writes the step's outputs.

    Args:
        apply_action, result_after, legal_mask: the game's ``BoardRules`` kernels.
        board: `[H, W]` int8 and ``mask`` `[A]` int8: the env's state, updated in place.
        action, player, num_moves: the move, its player (1 or 2), stones before it.
        consts: ``(stone, channel_last)``: the planes' stone value (1.0, or 0.5 when scaled;
            plane 2 holds ``stone * player``) and their layout.
        obs: float32 `[3, H, W]` (or `[H, W, 3]`): the next player's planes.
        board_out, mask_out: copies of the new ``board`` and ``mask``.
        reward: `[1]` float32, self-play's reward for the mover (``move_reward``): 1.0 if
            the move won, -1.0 if it lost (a game decided by a count), else 0.0.

    Returns:
        ``cell * 4 + result``, or -1 if ``action`` is not legal now (out of range, taken, or
        the game is over: its mask is all zero); then nothing is written.
    """
    board, mask, obs = borrowed(board), borrowed(mask), borrowed(obs)
    board_out, mask_out, reward = borrowed(board_out), borrowed(mask_out), borrowed(reward)
    stone, channel_last = consts
    if action < 0 or action >= mask.shape[0] or mask[action] == 0:
        return -1
    cell, result = play_move(apply_action, result_after, legal_mask, board, mask, action,
                             player, num_moves + 1)  # fmt: skip
    _write_outputs(board, mask, 3 - player, stone, channel_last, obs, board_out, mask_out)
    reward[0] = move_reward(result, player)
    return cell * 4 + result


@njit(inline="always")
def fused_step_buffer(apply_action, result_after, legal_mask, board, mask, action, player,
                      num_moves, consts, out):  # fmt: skip
    """:func:`fused_step` writing into an output set's buffer ``out`` (one array to unbox
    instead of four: see ``env_outputs``)."""
    out = borrowed(out)
    obs, board_out, mask_out, reward = split_outputs(out, board, mask, consts[1])
    return fused_step(apply_action, result_after, legal_mask, board, mask, action, player,
                      num_moves, consts, obs, board_out, mask_out, reward)  # fmt: skip


@njit(inline="always")
def fused_reset(legal_mask, board, mask, clear, player, consts, seed_state, dynamic,
                static_seed, streams, out):  # fmt: skip
    """Starts an episode: empties ``board`` if ``clear``, writes its legal ``mask``, draws the
    episode's generator ``streams`` (:func:`~lzero.envs.board_step.episode_streams`) and
    writes ``player``'s first observation into the output buffer ``out`` as
    :func:`fused_step_buffer` does (not the reward)."""
    board, mask, out = borrowed(board), borrowed(mask), borrowed(out)
    seed_state, streams = borrowed(seed_state), borrowed(streams)
    stone, channel_last = consts
    if clear:
        board[:, :] = 0
    legal_mask(board, player, mask)
    episode_streams(seed_state, dynamic, static_seed, streams)
    obs, board_out, mask_out, _ = split_outputs(out, board, mask, channel_last)
    _write_outputs(board, mask, player, stone, channel_last, obs, board_out, mask_out)


# The bundled games' sets, cached on disk (see the module doc); what any game gets from
# ``_closures``, with the kernels named as globals instead of closed over, and inlined: a
# call of TicTacToe's ``result_after`` added a tenth to its step.
_ttt_apply, _ttt_result, _ttt_mask = map(
    inlined, (ttt.apply_action, ttt.result_after, ttt.legal_mask)
)
_c4_apply, _c4_result, _c4_mask = map(inlined, (c4.apply_action, c4.result_after, c4.legal_mask))
_gomoku_apply, _gomoku_result, _gomoku_mask = map(
    inlined, (gomoku.apply_action, gomoku.result_after, gomoku.legal_mask)
)


@njit(cache=True)
def _tictactoe_play(board, mask, action, player, num_moves):
    cell, result = play_move(_ttt_apply, _ttt_result, _ttt_mask, board, mask, action, player,
                             num_moves + 1)  # fmt: skip
    return cell * 4 + result


@njit(cache=True)
def _tictactoe_step(board, mask, action, player, num_moves, consts, out):
    return fused_step_buffer(_ttt_apply, _ttt_result, _ttt_mask, board, mask, action, player,
                             num_moves, consts, out)  # fmt: skip


@njit(cache=True)
def _tictactoe_step_into(board, mask, action, player, num_moves, consts, obs, board_out,
                       mask_out, reward):  # fmt: skip
    return fused_step(_ttt_apply, _ttt_result, _ttt_mask, board, mask, action, player,
                      num_moves, consts, obs, board_out, mask_out, reward)  # fmt: skip


@njit(cache=True)
def _tictactoe_reset(board, mask, clear, player, consts, seed_state, dynamic, static_seed,
                     streams, out):  # fmt: skip
    fused_reset(_ttt_mask, board, mask, clear, player, consts, seed_state, dynamic,
                static_seed, streams, out)  # fmt: skip


@njit(cache=True)
def _connect4_play(board, mask, action, player, num_moves):
    cell, result = play_move(_c4_apply, _c4_result, _c4_mask, board, mask, action, player,
                             num_moves + 1)  # fmt: skip
    return cell * 4 + result


@njit(cache=True)
def _connect4_step(board, mask, action, player, num_moves, consts, out):
    return fused_step_buffer(_c4_apply, _c4_result, _c4_mask, board, mask, action, player,
                             num_moves, consts, out)  # fmt: skip


@njit(cache=True)
def _connect4_step_into(board, mask, action, player, num_moves, consts, obs, board_out,
                       mask_out, reward):  # fmt: skip
    return fused_step(_c4_apply, _c4_result, _c4_mask, board, mask, action, player,
                      num_moves, consts, obs, board_out, mask_out, reward)  # fmt: skip


@njit(cache=True)
def _connect4_reset(board, mask, clear, player, consts, seed_state, dynamic, static_seed,
                    streams, out):  # fmt: skip
    fused_reset(_c4_mask, board, mask, clear, player, consts, seed_state, dynamic,
                static_seed, streams, out)  # fmt: skip


@njit(cache=True)
def _gomoku_play(board, mask, action, player, num_moves):
    cell, result = play_move(_gomoku_apply, _gomoku_result, _gomoku_mask, board, mask,
                             action, player, num_moves + 1)  # fmt: skip
    return cell * 4 + result


@njit(cache=True)
def _gomoku_step(board, mask, action, player, num_moves, consts, out):
    return fused_step_buffer(_gomoku_apply, _gomoku_result, _gomoku_mask, board, mask, action, player,
                             num_moves, consts, out)  # fmt: skip


@njit(cache=True)
def _gomoku_step_into(board, mask, action, player, num_moves, consts, obs, board_out,
                       mask_out, reward):  # fmt: skip
    return fused_step(_gomoku_apply, _gomoku_result, _gomoku_mask, board, mask, action, player,
                      num_moves, consts, obs, board_out, mask_out, reward)  # fmt: skip


@njit(cache=True)
def _gomoku_reset(board, mask, clear, player, consts, seed_state, dynamic, static_seed,
                  streams, out):  # fmt: skip
    fused_reset(_gomoku_mask, board, mask, clear, player, consts, seed_state, dynamic,
                static_seed, streams, out)  # fmt: skip


#: The cached sets by the exact ``(apply_action, result_after, legal_mask)`` they were bound to.
_BOUND = {
    (ttt.apply_action, ttt.result_after, ttt.legal_mask): (
        _tictactoe_play, _tictactoe_step, _tictactoe_step_into, _tictactoe_reset,
    ),
    (c4.apply_action, c4.result_after, c4.legal_mask): (
        _connect4_play, _connect4_step, _connect4_step_into, _connect4_reset,
    ),
    (gomoku.apply_action, gomoku.result_after, gomoku.legal_mask): (
        _gomoku_play, _gomoku_step, _gomoku_step_into, _gomoku_reset,
    ),
}  # fmt: skip


def step_kernels(rules: BoardRules):
    """Returns ``(play, step, step_into, reset)`` for the game's own kernels:
    ``play(board, mask, action, player, num_moves) -> code`` (:func:`play_move` with
    ``num_moves`` stones before the move), ``step`` with :func:`fused_step_buffer`'s
    arguments after the kernels, ``step_into`` with :func:`fused_step`'s, ``reset`` with
    :func:`fused_reset`'s. A bundled game's cached set if the three kernels are exactly its
    own, else closures over them."""
    kernels = (rules.apply_action, rules.result_after, rules.legal_mask)
    return _BOUND.get(kernels) or _closures(*kernels)


@functools.cache
def _closures(apply_action, result_after, legal_mask):
    apply_action, result_after, legal_mask = map(inlined, (apply_action, result_after, legal_mask))

    @njit
    def play(board, mask, action, player, num_moves):
        cell, result = play_move(apply_action, result_after, legal_mask, board, mask, action,
                                 player, num_moves + 1)  # fmt: skip
        return cell * 4 + result

    @njit
    def step(board, mask, action, player, num_moves, consts, out):
        return fused_step_buffer(apply_action, result_after, legal_mask, board, mask, action,
                                 player, num_moves, consts, out)  # fmt: skip

    @njit
    def step_into(board, mask, action, player, num_moves, consts, obs, board_out, mask_out,
                  reward):  # fmt: skip
        return fused_step(apply_action, result_after, legal_mask, board, mask, action, player,
                          num_moves, consts, obs, board_out, mask_out, reward)  # fmt: skip

    @njit
    def reset(board, mask, clear, player, consts, seed_state, dynamic, static_seed, streams,
              out):  # fmt: skip
        fused_reset(legal_mask, board, mask, clear, player, consts, seed_state, dynamic,
                    static_seed, streams, out)  # fmt: skip

    return play, step, step_into, reset


class EntryPoints(NamedTuple):
    """Compiled wrappers of the env's hot kernels, for the argument types the env always uses.

    Calling a numba dispatcher spends about 0.3 us per call finding the compiled version for
    the arguments' types, as much as the kernels themselves take on small boards. The env
    passes fixed types (C-contiguous int8 boards and masks, float32 observations, Python
    ints, floats and bools), so it calls the wrappers of ``Dispatcher.compile(signature)``
    directly; other types raise ``TypeError`` instead of compiling a new version.
    """

    play: Callable  # (board, mask, action, player, num_moves) -> code
    step: Callable  # fused_step_buffer's arguments after the kernels -> code or -1
    step_into: Callable  # fused_step's arguments after the kernels -> code or -1
    reset: Callable  # fused_reset's arguments after legal_mask
    random_move: Callable  # (mask, rng_state) -> action
    planes: Callable  # (board, player, fill, channel_last, obs)


_BOARD = types.Array(types.int8, 2, "C")
_MASK = types.Array(types.int8, 1, "C")
_OBS = types.Array(types.float32, 3, "C")
_OUT = _REWARD = types.Array(types.float32, 1, "C")  # _OUT: an output set's buffer
_RNG = types.Array(types.uint64, 1, "C")
_I, _F, _B = types.int64, types.float64, types.boolean
_CONSTS = types.Tuple((_F, _B))  # fused_step's (stone, channel_last)


@functools.cache
def entry_points(rules: BoardRules) -> EntryPoints:
    """Returns the :class:`EntryPoints` of ``rules`` (compiled or loaded from numba's cache)."""
    play, step, step_into, reset = step_kernels(rules)
    outputs = (_OBS, _BOARD, _MASK, _REWARD)
    return EntryPoints(
        play=play.compile((_BOARD, _MASK, _I, _I, _I)),
        step=step.compile((_BOARD, _MASK, _I, _I, _I, _CONSTS, _OUT)),
        step_into=step_into.compile((_BOARD, _MASK, _I, _I, _I, _CONSTS, *outputs)),
        reset=reset.compile((_BOARD, _MASK, _B, _I, _CONSTS, _RNG, _B, _I, _RNG, _OUT)),
        random_move=random_masked_action.compile((_MASK, _RNG)),
        planes=player_planes.compile((_BOARD, _I, _F, _B, _OBS)),
    )
