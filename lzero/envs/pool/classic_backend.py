"""The classic-control backend of the pool: every env of a pool stepped by one numba call.

``make`` picks it for the gymnasium ids of :data:`~lzero.envs.classic_control.stepper.TASKS`
(CartPole, MountainCar, MountainCarContinuous, Pendulum, Acrobot) when no worker processes
(``num_threads`` None or 0) and no gymnasium keyword arguments are asked for. Env ``i`` is
gymnasium's env seeded once with ``seeds[i]`` (NumPy's PCG64 stream, reproduced in the
kernel), so the pool's episodes are those of gymnasium's envs, bit for bit; the kernels and
their tests say how (``tests/lzero/envs/classic_control/test_kernels.py``).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from lzero.envs.classic_control.stepper import MODULES, TASKS, classic_step
from lzero.envs.pool.inline import SteppedAtSubmit
from lzero.utils.nbpcg64 import pcg64_state


class ClassicBackend(SteppedAtSubmit):
    """``num_envs`` envs of one classic-control task, stepped by :func:`classic_step`.

    Args:
        task_id: a key of ``TASKS`` (``"CartPole-v1"``, ...).
        num_envs: ``N``.
        seeds: env ``i``'s first reset draws from ``PCG64(seeds[i])``, later ones go on.
        max_steps: steps after which an episode is truncated (0: never).
        action_space: one env's (``Discrete`` or a float32 ``Box`` of shape `[1]`).
    """

    def __init__(self, task_id, num_envs, seeds, max_steps, action_space) -> None:
        self.task, self.max_steps, n = TASKS[task_id], int(max_steps), num_envs
        self.n, self.obs_dim = n, MODULES[self.task].OBS_DIM
        self._ints = np.zeros(n, np.int64)
        self._floats = np.zeros((n, 1), np.float32)
        self.action = self._floats if isinstance(action_space, spaces.Box) else self._ints
        self.state = np.zeros((n, 4), np.float64)
        self.rng = np.stack([pcg64_state(s) for s in seeds])
        self.needs_reset = np.ones(n, np.bool_)
        self.elapsed = np.zeros(n, np.int64)
        self.out = self._new_outputs()
        self._all, self._no_reset = np.arange(n), np.zeros(n, np.bool_)
        self._fresh = np.zeros(n, np.bool_)  # rows written since the outputs were handed out
        self._finished: list[np.ndarray] = []

    def _new_outputs(self) -> tuple:
        n = self.n
        return (
            np.empty((n, self.obs_dim), np.float32),
            np.empty(n, np.float32),
            np.empty(n, np.bool_),
            np.empty(n, np.bool_),
            np.empty(n, np.int32),
        )

    def submit(self, ids: np.ndarray, reset_now: np.ndarray) -> None:
        """Steps (or resets) ``ids`` now; env ``i`` plays ``action[i]``."""
        classic_step(
            self.task, self.max_steps, ids, self._ints, self._floats, reset_now, self.state,
            self.rng, self.needs_reset, self.elapsed, *self.out,
        )  # fmt: skip
        self._fresh[ids] = True
        self._finished.append(ids)

    def step_all(self) -> tuple:
        """Steps every env (nothing else in flight) and returns the batch, as ``gather``."""
        classic_step(
            self.task, self.max_steps, self._all, self._ints, self._floats, self._no_reset,
            self.state, self.rng, self.needs_reset, self.elapsed, *self.out,
        )  # fmt: skip
        return self._hand_out()

    def _hand_out(self) -> tuple:
        # Every row is fresh: the output arrays go out as they are, new ones take their place.
        out, self.out = self.out, self._new_outputs()
        self._fresh[:] = False
        return out

    def gather(self, ids: np.ndarray) -> tuple:
        """``(obs, reward, terminated, truncated, elapsed)`` of ``ids``, never aliasing state."""
        if ids.shape[0] == self.n and self._fresh.all() and (ids == self._all).all():
            return self._hand_out()
        return tuple(a[ids] for a in self.out)
