"""The pool behind gymnasium's vector API: ``reset -> (obs, info)``, ``step -> (obs, reward,
terminated, truncated, info)``, as envpool's ``make_gym`` and ``make_gymnasium`` (envpool >= 0.7).

As envpool's, the pool is a ``gymnasium.vector.VectorEnv`` with autoreset mode ``NEXT_STEP``
(the step after an episode ends resets that env, ignoring its action), whose
``observation_space`` and ``action_space`` are one env's (``single_observation_space`` is the
same object), so gymnasium's vector wrappers (``NormalizeObservation``,
``RecordEpisodeStatistics``, ...) take it.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode

from lzero.envs.pool.env_pool import EnvPool


class GymnasiumEnvPool(EnvPool, gymnasium.vector.VectorEnv, gymnasium.Env):
    """An :class:`EnvPool` with gymnasium's API (``make_gym``, ``make_gymnasium``); a
    ``gymnasium.Env`` too, as envpool's pools are."""

    def __str__(self) -> str:  # gymnasium.Env's reads ``spec.id``, a registration's field
        return repr(self)

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array", "human"]}

    @property
    def single_observation_space(self) -> gymnasium.Space:
        return self.observation_space

    @property
    def single_action_space(self) -> gymnasium.Space:
        return self.action_space

    @property
    def render_mode(self) -> str | None:
        return self.config.get("render_mode")

    def _format(self, ids: np.ndarray, batch: tuple, reset: bool) -> tuple:
        if reset:
            return batch[0], self._info(ids, batch)
        obs, reward, term, trunc, _ = batch
        return obs, reward, term, trunc, self._info(ids, batch)

    def reset(
        self, env_id: Any = None, *, seed: Any = None, options: dict | None = None
    ) -> tuple[Any, dict]:
        """Resets ``env_id`` (or ``options['reset_mask']``'s envs; default all) and returns
        ``(obs, info)``. ``seed`` is ignored with a warning, as envpool's: pass it to ``make``.

        Raises:
            ValueError: an unknown option, a mask of the wrong shape or selecting nothing, or
                both ``env_id`` and a mask.
        """
        if seed is not None:
            warnings.warn(
                "reset: seed is ignored; a pool's seeds are fixed when it is made "
                "(pass seed to make)",
                UserWarning,
                stacklevel=2,
            )
        if options:
            unknown = sorted(set(options) - {"reset_mask"})
            if unknown:
                raise ValueError(f"reset: expected options among ['reset_mask'], got {unknown}")
            mask = np.asarray(options["reset_mask"], np.bool_)
            if mask.shape != (self.num_envs,) or not mask.any():
                raise ValueError(
                    f"reset: expected reset_mask of shape ({self.num_envs},) selecting some "
                    f"env, got shape {mask.shape} selecting {int(mask.sum())}"
                )
            if env_id is not None:
                raise ValueError("reset: expected env_id or options['reset_mask'], got both")
            env_id = np.flatnonzero(mask)
        return super().reset(env_id)

    def close(self, **kwargs: Any) -> None:
        """Stops the pool (gymnasium's close keywords are accepted and unused)."""
        EnvPool.close(self)
        self.closed = True

    def __repr__(self) -> str:
        return EnvPool.__repr__(self)
