"""One classic-control env over the numba kernels, as a ``gymnasium.Env``: gymnasium's own env,
step for step, minus NumPy's per-scalar overheads (and Acrobot's array RK4).

``make_classic_env(task_id)`` is ``gymnasium.make(task_id)`` (its ``TimeLimit``, order and
checker wrappers, its spec) with :class:`ClassicControlEnv` inside. Seeding is gymnasium's:
``reset(seed=s)`` seeds ``np_random`` as every gymnasium env does, the start state is drawn
from that generator's PCG64 stream by the kernel, and the generator is left where gymnasium's
env would leave it, so the episodes are gymnasium's. Rendering and reset ``options`` are not
here: ask gymnasium's env for those.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from lzero.envs.classic_control.stepper import MODULES, TASKS

_MASK64 = (1 << 64) - 1


@functools.cache
def _reference(task_id: str) -> gymnasium.Env:
    """gymnasium's own env of ``task_id`` (unwrapped): its spaces and metadata."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # CartPole-v0's "out of date" notice
        return gymnasium.make(task_id).unwrapped


class ClassicControlEnv(gymnasium.Env):
    """gymnasium's ``task_id`` env (a key of ``TASKS``) stepped by its numba kernel.

    Attributes:
        state: the kernel's state ``(s0, s1, s2, s3)`` (float64; unused entries 0), or None
            before the first reset.
    """

    def __init__(self, task_id: str, render_mode: str | None = None) -> None:
        if task_id not in TASKS:
            raise KeyError(f"task_id: expected one of {sorted(TASKS)}, got {task_id!r}")
        if render_mode is not None:
            raise ValueError(
                f"render_mode: expected None (rendering is gymnasium's own env's), got {render_mode!r}"
            )
        ref = _reference(task_id)
        self.observation_space, self.action_space = ref.observation_space, ref.action_space
        self.metadata, self.render_mode = ref.metadata, None
        self._task = TASKS[task_id]  # the module is looked up per call: envs get deep-copied
        self._discrete = isinstance(self.action_space, spaces.Discrete)
        self._obs = np.zeros((1, MODULES[self._task].OBS_DIM), np.float32)
        self._rng = np.zeros(4, np.uint64)
        self.state: tuple | None = None
        self._fresh = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
        if options:
            raise ValueError(
                f"options: expected None (reset bounds are gymnasium's own env's), got {options!r}"
            )
        super().reset(seed=seed)
        bits = self.np_random.bit_generator
        full = bits.state
        s, inc = int(full["state"]["state"]), int(full["state"]["inc"])
        rng = self._rng
        rng[:] = (s >> 64, s & _MASK64, inc >> 64, inc & _MASK64)
        self.state = MODULES[self._task].reset(rng)
        full["state"]["state"] = (int(rng[0]) << 64) | int(rng[1])
        bits.state = full  # the generator moves on as gymnasium's env's would
        self._fresh = True
        return self._observe(), {}

    def step(self, action: Any) -> tuple:
        if self.state is None:
            raise RuntimeError("step: expected reset() first, got a step before any reset")
        if self._discrete:
            a, u = int(action), np.float32(0)
            if not 0 <= a < self.action_space.n or a != action:
                raise ValueError(
                    f"step: expected an action in [0, {self.action_space.n}), got {action!r}"
                )
        else:
            # NumPy's arithmetic follows the action's dtype: float32, else float64.
            a, u = 0, np.asarray(action).reshape(-1)[0]
            u = u if u.dtype == np.float32 else np.float64(u)
        *state, reward, terminated = MODULES[self._task].step(*self.state, a, u, self._fresh)
        self.state, self._fresh = tuple(state), False
        return self._observe(), float(reward), bool(terminated), False, {}

    def _observe(self) -> np.ndarray:
        MODULES[self._task].observe(*self.state, self._obs, 0)
        return self._obs[0].copy()


def make_classic_env(task_id: str, **kwargs: Any) -> gymnasium.Env:
    """``gymnasium.make(task_id, **kwargs)`` with :class:`ClassicControlEnv` as its env.

    Args:
        task_id: a key of ``TASKS``.
        **kwargs: ``gymnasium.make``'s (``max_episode_steps``, ``disable_env_checker``, ...).
    """
    spec = dataclasses.replace(
        gymnasium.spec(task_id), entry_point=functools.partial(ClassicControlEnv, task_id)
    )
    return gymnasium.make(spec, **kwargs)
