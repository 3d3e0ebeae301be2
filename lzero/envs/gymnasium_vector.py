"""Our vectorised pool as a ``gymnasium.vector.VectorEnv``:
``gymnasium.make_vec("lzero/Connect4-v0", num_envs=N, vectorization_mode="vector_entry_point")``.

The board games step every env, bots' replies included, in one numba call (``lzero.envs.make``);
other envs go through the pool's own backends. Autoreset is gymnasium's ``NEXT_STEP`` mode, as
envpool's: the step after an episode ends resets that env (its action is ignored) and returns
the new first observation. ``reset(seed=s)`` rebuilds the pool seeded ``s`` (env ``i`` gets
``s + i``); ``reset()`` resets every env and goes on from the current seeds.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from lzero.envs.gymnasium_api import BOARD_GAMES

__all__ = ["PoolVectorEnv"]


class PoolVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` envs of the registered env ``name`` behind gymnasium's vector API.

    Args:
        name: the registry name (``'connect4'``, ``'cartpole_lightzero'``, ...).
        num_envs: envs in the vector.
        seed: seed of env 0 (env ``i`` gets ``seed + i``) until ``reset(seed=...)``.
        **config: the env's config (board games default to ``play_with_bot_mode``).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, name: str, num_envs: int = 1, seed: int = 0, **config: Any) -> None:
        from lzero.envs import make

        if name in BOARD_GAMES:
            config.setdefault("battle_mode", "play_with_bot_mode")
        self._name, self._config, self._make = name, config, make
        self.num_envs = int(num_envs)
        self._pool = make(name, env_type="gymnasium", num_envs=self.num_envs, seed=seed, **config)
        self.single_observation_space = self._pool.observation_space
        self.single_action_space = self._pool.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._pool.close()
            self._pool = self._make(
                self._name, env_type="gymnasium", num_envs=self.num_envs, seed=int(seed),
                **self._config,
            )  # fmt: skip
            self.action_space.seed(int(seed))
        return self._pool.reset()

    def step(self, actions: Any):
        obs, reward, terminated, truncated, info = self._pool.step(np.asarray(actions))
        return obs, np.asarray(reward, np.float64), terminated, truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        self._pool.close()
