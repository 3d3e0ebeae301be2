"""The classic-control pool (numba kernels) against gymnasium's envs behind ``make``: the same
episodes from the same seeds, gymnasium's time limits, resets in gymnasium's ranges, and a
batch equal to its envs stepped one by one."""

from __future__ import annotations

import math
import warnings

import gymnasium
import numpy as np
import pytest

from lzero.envs import make, make_gym
from lzero.envs.classic_control.stepper import TASKS
from lzero.envs.pool.classic_backend import ClassicBackend
from lzero.envs.pool.gym_pool import InlineGymBackend, ProcGymBackend


def _actions(pool, rng, n):
    space = pool.action_space
    if isinstance(space, gymnasium.spaces.Box):
        return rng.uniform(space.low[0] * 1.5, space.high[0] * 1.5, (n, 1)).astype(np.float32)
    return rng.integers(0, space.n, n)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_pool_plays_gymnasiums_envs_with_their_time_limits(task_id):
    n, seed = 3, 11
    pool = make_gym(task_id, num_envs=n, seed=seed)
    assert isinstance(pool._backend, ClassicBackend) and pool.spec.num_threads == 0
    limit = gymnasium.spec(task_id).max_episode_steps
    assert pool.spec.max_episode_steps == limit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        envs = [gymnasium.make(task_id) for _ in range(n)]  # with gymnasium's TimeLimit
    obs, _ = pool.reset()
    assert np.array_equal(obs, np.stack([e.reset(seed=seed + i)[0] for i, e in enumerate(envs)]))
    rng, ended = np.random.default_rng(0), [False] * n
    cut = 0
    for _ in range(limit + 30 if limit < 600 else 250):
        actions = _actions(pool, rng, n)
        if "CartPole" in task_id:  # mostly balancing, to reach the time limit
            actions = np.where(rng.random(n) < 0.9, obs[:, 2] + obs[:, 3] > 0, actions).astype(int)
        obs, reward, term, trunc, info = pool.step(actions)
        for i, env in enumerate(envs):
            if ended[i]:  # the pool's auto-reset: reward 0, neither flag
                want = (env.reset()[0], 0.0, False, False)
            else:
                want = env.step(actions[i] if actions.ndim == 2 else int(actions[i]))[:4]
            got = (obs[i], reward[i], term[i], trunc[i])
            assert np.array_equal(got[0], want[0]) and got[1] == np.float32(want[1]), (task_id, i)
            assert (got[2], got[3]) == (want[2], want[3]), (task_id, i)
            ended[i] = want[2] or want[3]
            cut += want[3]
    if limit < 600:  # the play outlives these tasks' limits: truncation was compared too
        assert cut > 0, task_id


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1"])
def test_a_batch_equals_its_envs_one_by_one_and_async_batches(task_id):
    n, seed, steps = 5, 3, 60
    rng = np.random.default_rng(1)
    pool = make(task_id, num_envs=n, seed=seed)
    singles = [make(task_id, num_envs=1, seed=[seed + i]) for i in range(n)]
    async_pool = make(task_id, num_envs=n, seed=seed, batch_size=2)
    assert isinstance(async_pool._backend, ClassicBackend)
    first = pool.reset()
    assert np.array_equal(first, np.concatenate([s.reset() for s in singles]))
    actions = [_actions(pool, rng, n) for _ in range(steps)]
    batched = [pool.step(a)[0] for a in actions]
    for i, single in enumerate(singles):
        alone = [single.step(a[i : i + 1])[0][0] for a in actions]
        assert np.array_equal(np.stack(alone), np.stack([b[i] for b in batched]))
    # Async: env i's trajectory does not depend on which envs share its batches.
    seen = {i: [] for i in range(n)}
    taken = np.zeros(n, int)
    async_pool.async_reset()
    while taken.min() <= steps:
        obs, *_, info = async_pool.recv()
        ids = info["env_id"]
        for k, i in enumerate(ids):
            seen[i].append(obs[k])
        async_pool.send(np.stack([actions[min(taken[i], steps - 1)][i] for i in ids]), ids)
        taken[ids] += 1
    for i in range(n):
        assert np.array_equal(np.stack(seen[i][1 : steps + 1]), np.stack([b[i] for b in batched]))


def test_same_seed_same_episodes_another_seed_others():
    def run(seed):
        pool = make("Acrobot-v1", num_envs=4, seed=seed)
        rng = np.random.default_rng(0)
        return np.stack([pool.reset()] + [pool.step(rng.integers(0, 3, 4))[0] for _ in range(30)])

    assert np.array_equal(run(5), run(5)) and not np.array_equal(run(5), run(6))


RESET_BOUNDS = {  # gymnasium's reset ranges, read on the observation
    "CartPole-v1": lambda o: (np.abs(o) <= 0.05).all(),
    "MountainCar-v0": lambda o: ((o[:, 0] >= -0.6) & (o[:, 0] <= -0.4) & (o[:, 1] == 0)).all(),
    "MountainCarContinuous-v0": lambda o: ((o[:, 0] >= -0.6) & (o[:, 0] <= -0.4)).all(),
    "Pendulum-v1": lambda o: (np.abs(o[:, 2]) <= 1).all() and np.allclose(o[:, 0] ** 2 + o[:, 1] ** 2, 1),
    "Acrobot-v1": lambda o: (o[:, [0, 2]] >= np.float32(math.cos(0.1))).all() and (np.abs(o[:, [1, 3, 4, 5]]) <= 0.1).all(),
}  # fmt: skip


@pytest.mark.parametrize("task_id", sorted(RESET_BOUNDS))
def test_resets_fill_gymnasiums_ranges(task_id):
    obs = make(task_id, num_envs=4096, seed=0).reset()
    assert RESET_BOUNDS[task_id](obs)
    spread = obs.max(axis=0) - obs.min(axis=0)
    if task_id == "CartPole-v1":
        assert (spread > 0.099).all()  # the whole U(-0.05, 0.05), not a corner of it
    elif "MountainCar" in task_id:
        assert spread[0] > 0.199


def test_workers_and_gymnasium_keywords_step_gymnasiums_own_envs():
    # num_threads >= 1 asks for worker processes; keyword arguments the kernels do not take
    # (render_mode, Pendulum's g, ...) need gymnasium's env: both keep the gymnasium path.
    with make("CartPole-v1", num_envs=2, num_threads=2) as pool:
        assert isinstance(pool._backend, ProcGymBackend) and pool.spec.num_threads == 2
    with make("Pendulum-v1", num_envs=2, g=9.0) as pool:
        assert isinstance(pool._backend, InlineGymBackend)
    with make("CartPole-v1", num_envs=2, num_threads=0) as pool:
        assert isinstance(pool._backend, ClassicBackend)
