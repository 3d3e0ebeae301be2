"""Envs for the manager tests, in an importable module so 'spawn' workers can unpickle them.

``CounterEnv`` is deterministic given its seed; actions 0 and 1 play, and the actions its
mask also allows inject faults: 2 raises, 3 kills the process, 4 hangs; an action that is not
an int is refused with ``IllegalActionError`` (the caller's mistake, nothing changed).
"""

from __future__ import annotations

import os
import time

import numpy as np
from gymnasium import spaces

from lzero.envs import BaseEnv, BaseEnvTimestep, to_reward
from lzero.errors import IllegalActionError

RAISE, DIE, HANG = 2, 3, 4


class TwoPartRejection(IllegalActionError):
    """Pickles, but does not unpickle: its ``__init__`` takes two arguments."""

    def __init__(self, what, why):
        super().__init__(f"{what}: {why}")


class CounterEnv(BaseEnv):
    """Episodes of ``length`` steps; the observation records the seeded start and the steps."""

    config = dict(
        # (int) Steps per episode.
        length=4,
    )

    def reset(self):
        self._start_episode()
        self._start = int(self.np_random.integers(0, 1000))
        self._t, self._return = 0, 0.0
        return self._obs(0)

    def _obs(self, action):
        return {
            "observation": np.array([self._start, self._t, action], dtype=np.float32),
            "action_mask": np.ones(5, dtype=np.int8),
            "to_play": -1,
        }

    def step(self, action):
        if action == "two-part":
            raise TwoPartRejection("two-part", "refused")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"expected an int action, got {action!r}")
        action = int(action)
        if action == RAISE:
            raise RuntimeError("injected failure")
        if action == DIE:
            os._exit(3)
        if action == HANG:
            time.sleep(600)
        self._t += 1
        self._return += action
        done = self._t >= self._cfg.length
        info = {"eval_episode_return": self._return} if done else {}
        return BaseEnvTimestep(self._obs(action), to_reward(action), done, info)

    def close(self):
        pass

    @property
    def slow(self):
        """An attribute that takes ``slow_seconds`` to read (0 unless set)."""
        time.sleep(getattr(self, "slow_seconds", 0.0))
        return 42

    @property
    def observation_space(self):
        return spaces.Dict(
            {
                "observation": spaces.Box(0, 1000, (3,), np.float32),
                "action_mask": spaces.Box(0, 1, (5,), np.int8),
            }
        )

    @property
    def action_space(self):
        time.sleep(getattr(self, "slow_seconds", 0.0))
        return spaces.Discrete(5)

    @property
    def reward_space(self):
        return spaces.Box(0.0, 1.0, (1,), np.float32)


def failing_factory():
    """An env factory that always raises (a config the env rejects)."""
    raise ValueError("factory says: board_size must be 5-19, got 3")
