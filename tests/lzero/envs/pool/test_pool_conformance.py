"""Every registered env runs through ``make``: reset, a few steps with auto-reset, close."""

from __future__ import annotations

import numpy as np
import pytest

from lzero.envs import ENV_REGISTRY, list_all_envs, make


def _actions(pool, obs, rng):
    mask = obs.get("action_mask") if isinstance(obs, dict) else None
    if mask is not None:
        return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
    pool.action_space.seed(int(rng.integers(1 << 31)))
    return np.stack([pool.action_space.sample() for _ in range(pool.num_envs)])


@pytest.mark.parametrize("name", ENV_REGISTRY.names())
def test_every_registered_env_runs_in_the_pool(name):
    assert name in list_all_envs()
    with make(name, num_envs=2, max_episode_steps=4) as pool:
        obs = pool.reset()
        rng = np.random.default_rng(0)
        for _ in range(6):
            obs, reward, done, info = pool.step(_actions(pool, obs, rng))
            assert reward.shape == (2,) and reward.dtype == np.float32
            assert done.dtype == np.bool_ and info["env_id"].tolist() == [0, 1]
            assert (done == (info["terminated"] | (info["elapsed_step"] == 4))).all()
        leaves = obs.values() if isinstance(obs, dict) else [obs]
        assert all(leaf.shape[0] == 2 for leaf in leaves)
