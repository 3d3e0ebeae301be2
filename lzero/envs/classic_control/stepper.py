"""One numba call that steps a batch of classic-control envs, with auto-reset and time limit.

Every task (``cartpole``, ``mountain_car``, ...) is three small jitted functions over a
four-float state: ``reset(rng) -> state``, ``step(*state, action, u, fresh) -> (*state,
reward, terminated)`` and ``observe(*state, obs, i)``. :func:`classic_step` serves all of
them: the task is an argument, and the branch on it selects direct calls to module-level
functions, so the kernel is cached on disk like any other (a closure per task, as the board
pool's, could not be).

Auto-reset as envpool and the pool's gym backends: an env whose episode ended is reset by its
next step, whose action is ignored, with reward 0 and ``done`` False. Env ``i``'s generator
(`rng[i]`, NumPy's PCG64) continues from episode to episode, as one gymnasium env seeded once.
"""

from __future__ import annotations

from numba import njit

from lzero.envs.classic_control import (
    acrobot,
    cartpole,
    continuous_mountain_car,
    mountain_car,
    pendulum,
)

CARTPOLE, MOUNTAIN_CAR, CONTINUOUS_MOUNTAIN_CAR, PENDULUM, ACROBOT = range(5)
#: Task code -> its module (the order of the codes above).
MODULES = (cartpole, mountain_car, continuous_mountain_car, pendulum, acrobot)
#: The gymnasium ids the kernels reproduce, and their task codes.
TASKS = {
    "CartPole-v0": CARTPOLE,
    "CartPole-v1": CARTPOLE,
    "MountainCar-v0": MOUNTAIN_CAR,
    "MountainCarContinuous-v0": CONTINUOUS_MOUNTAIN_CAR,
    "Pendulum-v1": PENDULUM,
    "Acrobot-v1": ACROBOT,
}


@njit(cache=True)
def task_reset(task, rng):
    """Task ``task``'s start state drawn from ``rng`` (`[4]` uint64)."""
    if task == CARTPOLE:
        return cartpole.reset(rng)
    if task == MOUNTAIN_CAR:
        return mountain_car.reset(rng)
    if task == CONTINUOUS_MOUNTAIN_CAR:
        return continuous_mountain_car.reset(rng)
    if task == PENDULUM:
        return pendulum.reset(rng)
    return acrobot.reset(rng)


@njit(cache=True)
def task_step(task, s0, s1, s2, s3, action, u, fresh):
    """Task ``task``'s step: ``(*state, reward, terminated)``."""
    if task == CARTPOLE:
        return cartpole.step(s0, s1, s2, s3, action, u, fresh)
    if task == MOUNTAIN_CAR:
        return mountain_car.step(s0, s1, s2, s3, action, u, fresh)
    if task == CONTINUOUS_MOUNTAIN_CAR:
        return continuous_mountain_car.step(s0, s1, s2, s3, action, u, fresh)
    if task == PENDULUM:
        return pendulum.step(s0, s1, s2, s3, action, u, fresh)
    return acrobot.step(s0, s1, s2, s3, action, u, fresh)


@njit(cache=True)
def task_observe(task, s0, s1, s2, s3, obs, i):
    """Writes task ``task``'s observation of the state into ``obs[i]``."""
    if task == CARTPOLE:
        cartpole.observe(s0, s1, s2, s3, obs, i)
    elif task == MOUNTAIN_CAR:
        mountain_car.observe(s0, s1, s2, s3, obs, i)
    elif task == CONTINUOUS_MOUNTAIN_CAR:
        continuous_mountain_car.observe(s0, s1, s2, s3, obs, i)
    elif task == PENDULUM:
        pendulum.observe(s0, s1, s2, s3, obs, i)
    else:
        acrobot.observe(s0, s1, s2, s3, obs, i)


@njit(cache=True)
def classic_step(
    task, max_steps, ids, actions, torques, reset_now, state, rng, needs_reset, elapsed,
    obs, reward, term, trunc, el_out,
):  # fmt: skip
    """Steps (or resets) the envs ``ids`` of one task; env ``i``'s outputs go to row ``i``.

    Args:
        task: a task code (``CARTPOLE``, ...).
        max_steps: steps after which an episode is truncated (0: never).
        ids: `[B]` int64, distinct env ids.
        actions: `[N]` int64, a discrete task's actions (env ``i`` reads ``actions[i]``).
        torques: `[N, 1]` float32, a continuous task's actions.
        reset_now: `[B]` bool, reset this env now (an env whose episode ended resets anyway).
        state: `[N, 4]` float64; rng: `[N, 4]` uint64 (PCG64); needs_reset: `[N]` bool;
            elapsed: `[N]` int64: updated in place.
        obs: `[N, D]` float32; reward: `[N]` float32; term, trunc: `[N]` bool;
            el_out: `[N]` int32: the rows of ``ids`` are overwritten.
    """
    for k in range(ids.shape[0]):
        i = ids[k]
        if reset_now[k] or needs_reset[i]:
            s0, s1, s2, s3 = task_reset(task, rng[i])
            r, done, cut, t = 0.0, False, False, 0
        else:
            t = elapsed[i]
            s0, s1, s2, s3, r, done = task_step(
                task, state[i, 0], state[i, 1], state[i, 2], state[i, 3], actions[i],
                torques[i, 0], t == 0,
            )  # fmt: skip
            t += 1
            cut = max_steps > 0 and t >= max_steps
        state[i, 0], state[i, 1], state[i, 2], state[i, 3] = s0, s1, s2, s3
        elapsed[i], needs_reset[i] = t, done or cut
        task_observe(task, s0, s1, s2, s3, obs, i)
        reward[i], term[i], trunc[i], el_out[i] = r, done, cut, t
