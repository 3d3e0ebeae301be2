"""Our vectorised pool as a ``gymnasium.vector.VectorEnv``:
``gymnasium.make_vec("lzero/Connect4-v0", num_envs=N, vectorization_mode="vector_entry_point")``.

The board games step every env, bots' replies included, in one numba call (``lzero.envs.make``);
other envs go through the pool's own backends. Autoreset is gymnasium's ``NEXT_STEP`` mode, as
envpool's: the step after an episode ends resets that env (its action is ignored) and returns
the new first observation. ``reset(seed=s)`` rebuilds the pool seeded ``s`` (env ``i`` gets
``s + i``; or gymnasium's list of one seed per env); ``reset()`` resets every env and
goes on from the current seeds. ``reset(options={'reset_mask': mask})`` resets the masked envs
alone, as gymnasium's vector envs do: the whole batch comes back, the other envs' rows as they
were, and the info's arrays span every env with ``_key`` masks marking the reset ones.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from lzero.envs.gymnasium_api import is_board_game
from lzero.envs.registry import ENV_REGISTRY

__all__ = ["PoolVectorEnv"]


class PoolVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` envs of the registered env ``name`` behind gymnasium's vector API.

    Args:
        name: the registry name (``'connect4'``, ``'cartpole_lightzero'``, ...).
        num_envs: envs in the vector.
        seed: seed of env 0 (env ``i`` gets ``seed + i``) until ``reset(seed=...)``; None (the
            default, as gymnasium's vector envs): a seed drawn from the OS's entropy.
        **config: the env's config (board games default to ``play_with_bot_mode``).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self, name: str, num_envs: int = 1, seed: int | None = None, **config: Any
    ) -> None:
        from lzero.envs import make

        if name in ENV_REGISTRY and is_board_game(name):
            config.setdefault("battle_mode", "play_with_bot_mode")
        self._name, self._config, self._make = name, config, make
        if seed is None:  # unseeded, as gymnasium's vector envs: other games in every process
            seed = int(np.random.default_rng().integers(2**63))
        # make() checks num_envs (a positive int: 2.5 and '2' are refused, not rounded).
        self._pool = make(name, env_type="gymnasium", num_envs=num_envs, seed=seed, **config)
        self.num_envs = int(num_envs)
        self.single_observation_space = self._pool.observation_space
        self.single_action_space = self._pool.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | list | None = None, options: dict | None = None):
        """Resets every env (or ``options['reset_mask']``'s) and returns ``(obs, info)``.

        Raises:
            ValueError: a seed list not of ``num_envs`` ints (or of Nones), a seed with a mask
                (the pool cannot reseed some envs alone),
                an option other than ``reset_mask``, or a mask that is not a boolean array of
                shape ``(num_envs,)`` selecting some env. Nothing is reset then.
        """
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(
                f"reset: expected options among ['reset_mask'] (the envs take no reset "
                f"options), got {sorted(options)}"
            )
        seed = self._seeds(seed)
        if mask is not None:
            return self._reset_masked(mask, seed)
        if seed is not None:
            pool = self._make(
                self._name, env_type="gymnasium", num_envs=self.num_envs, seed=seed,
                **self._config,
            )  # fmt: skip
            self._pool.close()
            self._pool = pool
            self.action_space.seed(seed if isinstance(seed, int) else seed[0])
        self._obs, info = self._pool.reset()
        return self._obs, info

    def _seeds(self, seed: Any) -> int | tuple[int, ...] | None:
        """The pool's seed of gymnasium's ``seed`` argument, or None to keep the seeds."""
        if seed is None or isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            return None if seed is None else int(seed)
        seeds = list(seed) if isinstance(seed, (list, tuple, np.ndarray)) else None
        if seeds is not None and len(seeds) == self.num_envs:
            if all(s is None for s in seeds):
                return None
            if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in seeds):
                return tuple(int(s) for s in seeds)
        raise ValueError(
            f"reset: expected seed as None, an int s (env i gets s + i) or a list of "
            f"{self.num_envs} ints, one per env (a list of Nones keeps the seeds), got {seed!r}"
        )

    def _reset_masked(self, mask: Any, seed: Any):
        if not (
            isinstance(mask, np.ndarray)
            and mask.dtype == np.bool_
            and mask.shape == (self.num_envs,)
            and mask.any()
        ):
            raise ValueError(
                f"reset: expected options['reset_mask'] to be a bool array of shape "
                f"({self.num_envs},) selecting some env, got {mask!r}"
            )
        if seed is not None:
            raise ValueError(
                "reset: expected no seed with options['reset_mask'] (the pool seeds its envs "
                "when it is made: reset(seed=s) without a mask reseeds them all)"
            )
        if getattr(self, "_obs", None) is None:
            raise ValueError("reset: expected a reset of every env before a masked one")
        ids = np.flatnonzero(mask)
        rows, info = self._pool.reset(options={"reset_mask": mask})
        self._obs = _put_rows(self._obs, rows, ids)
        return self._obs, _spread_info(info, ids, mask)

    def step(self, actions: Any):
        obs, reward, terminated, truncated, info = self._pool.step(np.asarray(actions))
        self._obs = obs
        return obs, np.asarray(reward, np.float64), terminated, truncated, info

    def close_extras(self, **kwargs: Any) -> None:
        self._pool.close()


def _put_rows(batch: Any, rows: Any, ids: np.ndarray) -> Any:
    """A copy of ``batch`` (an array or a dict of them) with rows ``ids`` set to ``rows``."""
    if isinstance(batch, dict):
        return {key: _put_rows(batch[key], rows[key], ids) for key in batch}
    out = np.array(batch, copy=True)
    out[ids] = rows
    return out


def _spread_info(info: dict, ids: np.ndarray, mask: np.ndarray) -> dict:
    """The pool's info of the envs ``ids`` as gymnasium's vector info: each array spans every
    env (zeros elsewhere), with its ``_key`` mask."""
    out = {}
    for key, value in info.items():
        if isinstance(value, dict):
            out[key] = _spread_info(value, ids, mask)
        else:
            value = np.asarray(value)
            full = np.zeros((len(mask), *value.shape[1:]), value.dtype)
            full[ids] = value
            out[key] = full
        out[f"_{key}"] = mask.copy()
    return out
