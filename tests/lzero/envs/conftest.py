"""A small correct env (a seeded random walk) that the foundation tests build on."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import BaseEnv, BaseEnvTimestep, to_reward


class WalkEnv(BaseEnv):
    """A walk on 0..10 that starts at a seeded position and ends at either edge."""

    config = dict(
        # (int) Length of the line the walker moves on.
        size=10,
        # (dict) Free-form options, to test open config keys.
        extra=dict(flag=False),
    )

    def reset(self):
        if not self._init_flag:  # lazy init: build the "real" env on the first reset
            self._init_flag = True
        self._start_episode()
        self._pos = int(self.np_random.integers(2, self._cfg.size - 1))
        self._return = 0.0
        return self._obs()

    def _obs(self):
        return {
            "observation": np.array([self._pos], dtype=np.float32),
            "action_mask": np.ones(2, dtype=np.int8),
            "to_play": -1,
        }

    def step(self, action):
        self._pos += 1 if int(action) == 1 else -1
        done = self._pos in (0, self._cfg.size)
        reward = 1.0 if self._pos == self._cfg.size else 0.0
        self._return += reward
        info = {"eval_episode_return": self._return} if done else {}
        return BaseEnvTimestep(self._obs(), to_reward(reward), done, info)

    def close(self):
        self._init_flag = False

    @property
    def observation_space(self):
        return spaces.Dict(
            {
                "observation": spaces.Box(0, self._cfg.size, (1,), np.float32),
                "action_mask": spaces.Box(0, 1, (2,), np.int8),
            }
        )

    @property
    def action_space(self):
        return spaces.Discrete(2)

    @property
    def reward_space(self):
        return spaces.Box(0.0, 1.0, (1,), np.float32)


@pytest.fixture
def walk_env_cls():
    return WalkEnv
