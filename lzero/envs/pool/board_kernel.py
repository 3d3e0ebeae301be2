"""One numba call that steps a batch of board-game envs: moves, results, bot replies, auto-reset.

The game is passed in as jitted functions (its ``BoardRules`` kernels, its rule bot, the
shared observation planes and random mover), so this file serves every game without
importing ``zoo``. Functions that take them are not disk-cached: numba cannot key a cache
on function arguments (it fails to save one), so they compile once per process (seconds). State lives in arrays indexed by env id (``N`` envs); a call steps the
``B`` envs of ``ids`` and writes env ``i``'s outputs into row ``i`` of each `[N, ...]` output array.

Auto-reset as envpool documents it: an env whose episode ended (``needs_reset``) is reset by
its next step, whose action is ignored and whose reward is 0 and ``done`` False.
"""

from __future__ import annotations

from numba import njit

from lzero.utils.nbrng import uniform

SELF_PLAY, WITH_BOT = 0, 1
RULE_BOT, RANDOM_BOT = 0, 1


@njit
def _bot_move(fns, board, player, rng, gravity, bot_kind, p_bot_random):
    # Same draws, in the same order, as BoardGameEnv's bot_move.
    if bot_kind == RANDOM_BOT or (p_bot_random > 0 and uniform(rng) < p_bot_random):
        return fns[4](board, gravity, rng)
    return fns[3](board, player, rng)


@njit
def _play(fns, i, action, boards, player, num_moves, masks):
    p = player[i]
    cell = fns[0](boards[i], action, p)
    num_moves[i] += 1
    result = fns[1](boards[i], cell, p, num_moves[i])
    player[i] = 3 - p
    if result == 0:
        fns[2](boards[i], masks[i])
    else:
        masks[i, :] = 0
    return result


@njit(cache=True)
def first_illegal(ids, actions, reset_now, needs_reset, masks):
    """Index ``k`` of the first env ``i = ids[k]`` that would play an illegal ``actions[i]``.

    Envs that reset (``reset_now[k]`` or ``needs_reset[i]``) ignore their action. Returns -1
    when every action is legal.
    """
    n_actions = masks.shape[1]
    for k in range(ids.shape[0]):
        i = ids[k]
        a = actions[i]
        if not (reset_now[k] or needs_reset[i]) and (a < 0 or a >= n_actions or masks[i, a] == 0):
            return k
    return -1


@njit
def step_boards(fns, params, ids, actions, reset_now, state, seed_states, rngs, out):
    """Steps envs ``ids`` (`[B]` int64, distinct) with ``actions[ids]`` (legal where played).

    Args:
        fns: ``(apply_action, result_after, legal_mask, rule_bot, random_legal_action,
            player_planes, episode_streams)``, the jitted functions the env class uses.
        params: ``(mode, bot_kind, p_bot_random, p_random_agent, p_expert_agent, scale,
            channel_last, gravity, max_steps)`` (``max_steps`` 0: no time limit).
        ids: env ids to step.
        actions: `[N]` int64, env ``i`` plays ``actions[i]`` (ignored when it resets).
        reset_now: `[B]` bool, reset this env now (envs whose episode ended reset anyway).
        state: ``(boards [N, H, W] int8, player [N], num_moves [N], elapsed [N],
            needs_reset [N] bool, masks [N, A] int8)``, updated in place (``boards`` and
            ``masks`` double as the ``board`` and ``action_mask`` observations).
        seed_states: `[N, 1]` uint64, each env's stream of episode seeds (as the env's own).
        rngs: `[N, 2]` uint64, each episode's streams: the env's (bots, ``prob_*``) and the
            caller's, drawn from ``seed_states`` at every reset as ``BoardGameEnv.reset`` does.
        out: ``(obs [N, 3, H, W] or [N, H, W, 3] float32, player_index [N], to_play [N],
            reward [N] float32, terminated [N] bool, truncated [N] bool, elapsed [N])``: the
            rows of ``ids`` are overwritten.
    """
    boards, player, num_moves, elapsed, needs_reset, masks = state
    mode, bot_kind, p_bot, p_rand, p_exp, scale, channel_last, gravity, max_steps = params
    obs, pidx, to_play, reward, term, trunc, el_out = out
    for k in range(ids.shape[0]):
        i = ids[k]
        rng = rngs[i, 0:1]
        r = 0.0
        done_now = False
        if reset_now[k] or needs_reset[i]:
            fns[6](seed_states[i], True, 0, rngs[i])
            boards[i, :, :] = 0
            player[i], num_moves[i], elapsed[i], needs_reset[i] = 1, 0, 0, False
            fns[2](boards[i], masks[i])
            trunc[i] = False
        else:
            a = actions[i]
            if mode == SELF_PLAY:
                if p_rand > 0 and uniform(rng) < p_rand:
                    a = fns[4](boards[i], gravity, rng)
                elif p_exp > 0 and uniform(rng) < p_exp:
                    a = _bot_move(fns, boards[i], player[i], rng, gravity, bot_kind, p_bot)
                mover = player[i]
                result = _play(fns, i, a, boards, player, num_moves, masks)
                r = 1.0 if result == mover else 0.0
            else:
                result = _play(fns, i, a, boards, player, num_moves, masks)
                if result == 0:
                    a = _bot_move(fns, boards[i], player[i], rng, gravity, bot_kind, p_bot)
                    result = _play(fns, i, a, boards, player, num_moves, masks)
                r = 1.0 if result == 1 else -1.0 if result == 2 else 0.0
            elapsed[i] += 1
            done_now = result != 0
            trunc[i] = not done_now and max_steps > 0 and elapsed[i] >= max_steps
            needs_reset[i] = done_now or trunc[i]
        p = player[i]
        fns[5](boards[i], p, p / 2.0 if scale else float(p), channel_last, obs[i])
        pidx[i] = p - 1
        to_play[i] = p if mode == SELF_PLAY else -1
        reward[i] = r
        term[i] = done_now
        el_out[i] = elapsed[i]
