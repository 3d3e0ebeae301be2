"""One numba call that steps a batch of board-game envs: moves, results, bot replies, auto-reset.

:func:`make_stepper` compiles the step function for one game and one setting: the game's
jitted functions (its ``BoardRules`` kernels and its rule bot) and the settings are closed
over, so they are compile-time constants, the calls are direct, and a step's call passes
arrays only (numba's fast dispatch path). This file serves every game without importing
``zoo``; the price is a compilation per game and setting in each process (a few seconds;
numba cannot disk-cache a closure), shared by all pools of that process. The loop is
serial, so there is no ``num_threads`` knob: ``parallel=True`` with ``prange`` over the envs
lost on our shared 2-core machine every time it was measured (Connect4 at 1,024 envs, load
2.8, same run: 9.9 million steps per second serial against 0.37 million with numba's OpenMP
threads spinning for a core another job held, 8.8 million with ``OMP_WAIT_POLICY=passive``).

A move is :func:`~lzero.envs.board_step.play_move`, as in the single env's fused step. The
per-move kernels (``apply_action``, ``result_after``, ``legal_mask``, ``player_planes``)
are compiled again from their Python source with ``inline="always"``, so numba inlines them
into the step loop: called, each took and released the board and mask views it was handed
with atomic reference counting (Connect4 at 1,024 envs: 149 -> 123 us per step, with our
own helpers inlined too). The arrays it takes views of are used "borrowed" (see
:func:`~lzero.utils.nbarrays.borrowed`): 123 -> 106 us.

State lives in arrays indexed by env id (``N`` envs); a call steps the envs of ``ids`` and
writes env ``i``'s outputs into row ``i`` of each `[N, ...]` output array. Auto-reset as
envpool documents it: an env whose episode ended is reset by its next step, whose action is
ignored and whose reward is 0 and ``done`` False.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from lzero.envs.board_step import (
    episode_streams,
    move_reward,
    play_move,
    player_planes,
    random_masked_action,
)
from lzero.utils.nbarrays import borrowed, inlined
from lzero.utils.nbrng import uniform

SELF_PLAY, WITH_BOT = 0, 1
RULE_BOT, RANDOM_BOT = 0, 1


@functools.cache
def make_stepper(fns: tuple, params: tuple):
    """Returns the jitted ``step(ids, actions, reset_now, *state, seed_states, rngs, *out) -> k``.

    ``step`` first checks every action: if env ``ids[k]`` would play an illegal one it returns
    that ``k`` and changes nothing; else it steps every env and returns -1.

    Args:
        fns: ``(apply_action, result_after, legal_mask, rule_bot)``, the game's jitted
            ``BoardRules`` kernels and its env class's rule bot (or, for 'perfect', the
            bot its ``pool_perfect_bot()`` builds, which takes the same arguments).
        params: ``(mode, bot_kind, p_bot_random, p_random_agent, p_expert_agent, scale,
            channel_last, max_steps, start)`` (``max_steps`` 0: no time limit; ``start``:
            the start position as ``BoardRules.initial_board`` rows, every reset's board).

    The returned function's arguments (``state`` and ``out`` are passed unpacked: tuples
    would take numba's slow dispatch path):
        ids: `[B]` int64, distinct env ids to step.
        actions: `[N]` int64, env ``i`` plays ``actions[i]`` (ignored when it resets).
        reset_now: `[B]` bool, reset this env now (envs whose episode ended reset anyway).
        state: ``(boards [N, H, W] int8, player [N], num_moves [N], elapsed [N],
            needs_reset [N] bool, masks [N, A] int8)``, updated in place.
        seed_states: `[N, 1]` uint64, each env's stream of episode seeds.
        rngs: `[N, 2]` uint64, each episode's streams: the env's (bots, ``prob_*``) and the
            caller's, drawn from ``seed_states`` at every reset as ``BoardGameEnv.reset`` does.
        out: ``(obs [N, 3, H, W] or [N, H, W, 3] float32, player_index [N], to_play [N],
            reward [N] float32, terminated [N] bool, truncated [N] bool, elapsed [N] int32)``;
            the rows of ``ids`` are overwritten.
    """
    apply_action, result_after, legal_mask, rule_bot = fns
    mode, bot_kind, p_bot, p_rand, p_exp, scale, channel_last, max_steps, start_rows = params
    start = np.array(start_rows, np.int8)  # a constant of the compiled step
    apply_action, result_after, legal_mask, planes = (
        inlined(f) for f in (apply_action, result_after, legal_mask, player_planes)
    )

    @njit(inline="always")
    def bot_move(board, mask, player, rng):
        # Same draws, in the same order, as BoardGameEnv's bot_move.
        if bot_kind == RANDOM_BOT or (p_bot > 0 and uniform(rng) < p_bot):
            return random_masked_action(mask, rng)
        return rule_bot(board, player, rng)

    @njit(inline="always")
    def play(board, mask, action, player, num_moves):
        # The single env's move too (zoo's fused step): one kernel, not copies kept in step.
        return play_move(apply_action, result_after, legal_mask, board, mask, action, player,
                         num_moves)[1]  # fmt: skip

    @njit
    def step(
        ids, actions, reset_now, boards, player, num_moves, elapsed, needs_reset, masks,
        seed_states, rngs, obs, pidx, to_play, reward, term, trunc, el_out,
    ):  # fmt: skip
        n_actions = masks.shape[1]
        boards, masks, seed_states = borrowed(boards), borrowed(masks), borrowed(seed_states)
        rngs, obs = borrowed(rngs), borrowed(obs)
        for k in range(ids.shape[0]):
            i = ids[k]
            a = actions[i]
            if not (reset_now[k] or needs_reset[i]) and (
                a < 0 or a >= n_actions or masks[i, a] == 0
            ):
                return k
        for k in range(ids.shape[0]):
            i = ids[k]
            board, mask, rng = boards[i], masks[i], rngs[i, 0:1]
            r = 0.0
            done = False
            truncated = False
            if reset_now[k] or needs_reset[i]:
                episode_streams(seed_states[i], True, 0, rngs[i])
                for r_ in range(start.shape[0]):
                    for c_ in range(start.shape[1]):
                        board[r_, c_] = start[r_, c_]
                player[i], num_moves[i], elapsed[i], needs_reset[i] = 1, 0, 0, False
                legal_mask(board, 1, mask)
            else:
                a = actions[i]
                p = player[i]
                if mode == SELF_PLAY:
                    if p_rand > 0 and uniform(rng) < p_rand:
                        a = random_masked_action(mask, rng)
                    elif p_exp > 0 and uniform(rng) < p_exp:
                        a = bot_move(board, mask, p, rng)
                    num_moves[i] += 1
                    result = play(board, mask, a, p, num_moves[i])
                    p = 3 - p
                    r = move_reward(result, 3 - p)  # for the mover
                else:
                    num_moves[i] += 1
                    result = play(board, mask, a, p, num_moves[i])
                    p = 3 - p
                    if result == 0:
                        num_moves[i] += 1
                        result = play(board, mask, bot_move(board, mask, p, rng), p, num_moves[i])
                        p = 3 - p
                    r = 1.0 if result == 1 else -1.0 if result == 2 else 0.0
                player[i] = p
                elapsed[i] += 1
                done = result != 0
                truncated = not done and max_steps > 0 and elapsed[i] >= max_steps
                needs_reset[i] = done or truncated
            p = player[i]
            planes(board, p, p / 2.0 if scale else float(p), channel_last, obs[i])
            pidx[i] = p - 1
            to_play[i] = p if mode == SELF_PLAY else -1
            reward[i] = r
            term[i] = done
            trunc[i] = truncated
            el_out[i] = elapsed[i]
        return -1

    return step
