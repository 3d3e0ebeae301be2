"""Small envs for the adapter tests: a gymnasium counter and a legacy gym-style walk."""

from __future__ import annotations

import os

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # CartPole replays render with pygame


class CounterEnv(gymnasium.Env):
    """Counts steps; float64 observations; every rendered frame is distinct.

    Action 1 adds one to the count, action 0 adds nothing; the episode terminates when the
    count reaches ``goal`` and is truncated after ``limit`` steps.
    """

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, goal: int = 3, limit: int = 10, render_mode: str | None = "rgb_array"):
        self.goal, self.limit, self.render_mode = goal, limit, render_mode
        self.observation_space = spaces.Box(-1.0, 100.0, (2,), np.float64)
        self.action_space = spaces.Discrete(2)
        self.played: list = []

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.count, self.t = 0, 0
        self.noise = float(self.np_random.uniform(-1, 0))
        return self._obs(), {}

    def _obs(self):
        return np.array([self.count, self.noise], dtype=np.float64)

    def step(self, action):
        self.played.append(action)
        self.count += int(action)
        self.t += 1
        return self._obs(), 0.5 * int(action), self.count >= self.goal, self.t >= self.limit, {}

    def render(self):
        frame = np.zeros((8, 8, 3), np.uint8)
        frame.reshape(-1)[self.t] = 255  # a different pixel per step: no two frames alike
        return frame


class Box:
    """Stands in for ``gym.spaces.Box`` (legacy spaces are rebuilt by duck typing)."""

    def __init__(self, low, high, shape, dtype):
        self.low, self.high, self.shape, self.dtype = (
            np.full(shape, low, dtype),
            np.full(shape, high, dtype),
            shape,
            np.dtype(dtype),
        )


class Discrete:
    """Stands in for ``gym.spaces.Discrete``."""

    def __init__(self, n):
        self.n = n


class LegacyWalkEnv:
    """A gym < 0.26 style env: ``seed()``, ``reset() -> obs``, 4-value ``step``.

    The walker starts at a seeded position in ``(-1, 1)``, moves 0.5 left or right, ends
    when ``|pos| >= 2`` and is cut by a time limit after ``limit`` steps (flagged as
    ``info['TimeLimit.truncated']``, as gym's TimeLimit did).
    """

    metadata = {"render.modes": ["human", "rgb_array"]}

    def __init__(self, limit: int = 8):
        self.limit = limit
        self.observation_space = Box(-10.0, 10.0, (1,), np.float64)
        self.action_space = Discrete(2)
        self.rng = np.random.RandomState()

    def seed(self, seed=None):
        self.rng = np.random.RandomState(seed)
        return [seed]

    def reset(self):
        self.pos, self.t = float(self.rng.uniform(-1, 1)), 0
        return np.array([self.pos])

    def step(self, action):
        self.pos += 0.5 if int(action) == 1 else -0.5
        self.t += 1
        fell = abs(self.pos) >= 2
        cut = self.t >= self.limit and not fell
        info = {"TimeLimit.truncated": True} if cut else {}
        return np.array([self.pos]), 1.0, fell or cut, info

    def render(self, mode="human"):
        if mode != "rgb_array":
            raise ValueError(f"expected mode 'rgb_array', got {mode!r}")
        frame = np.zeros((4, 4, 3), np.uint8)
        frame.reshape(-1)[self.t] = 255
        return frame


@pytest.fixture
def counter_env_cls():
    return CounterEnv


@pytest.fixture
def legacy_env_cls():
    return LegacyWalkEnv
