"""The pool's :class:`EnvSpec` (what ``make`` resolved) and its envpool views: array specs,
dm_env specs, the reward threshold; and the seed argument's forms (an int or one per env)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces


class Config(dict):
    """A dict whose keys also read as attributes: ``spec.config.num_envs``, as envpool's. It
    is read-only, as envpool's config (a namedtuple): it records what ``make`` built, and a
    changed key would change nothing in the pool."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"config has no key {name!r}") from None

    def _read_only(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            "the pool's config is read-only: it records what make() built; make a new pool "
            "with the setting instead (make(task_id, ..., key=value))"
        )

    __setattr__ = __delattr__ = __setitem__ = __delitem__ = _read_only
    update = pop = popitem = clear = setdefault = __ior__ = _read_only

    def __reduce__(self):
        return (Config, (dict(self),))


class ArraySpec(NamedTuple):
    """One array of a step, as envpool's ``ArraySpec``: dtype, shape (-1: one row per env or
    player), and the ``(minimum, maximum)`` bounds (None where unbounded or not numeric)."""

    dtype: np.dtype
    shape: tuple
    bounds: tuple

    @property
    def minimum(self) -> Any:
        return self.bounds[0]

    @property
    def maximum(self) -> Any:
        return self.bounds[1]


def _array_spec(space: Any) -> ArraySpec:
    if isinstance(space, spaces.Discrete):
        lo = int(space.start)
        return ArraySpec(np.dtype(space.dtype), (), (lo, lo + int(space.n) - 1))
    if isinstance(space, spaces.Box):
        return ArraySpec(np.dtype(space.dtype), tuple(space.shape), (space.low, space.high))
    if isinstance(space, spaces.MultiBinary):
        return ArraySpec(np.dtype(space.dtype), tuple(space.shape), (0, 1))
    return ArraySpec(np.dtype(space.dtype or np.float32), tuple(space.shape or ()), (None, None))


def _scalar(dtype: Any) -> ArraySpec:
    return ArraySpec(np.dtype(dtype), (), (None, None))


class EnvSpec(NamedTuple):
    """What ``make`` resolved: the task, the pool's sizes, and one env's spaces."""

    task_id: str
    env_type: str
    num_envs: int
    batch_size: int
    num_threads: int
    seed: int | tuple
    max_episode_steps: int | None
    observation_space: Any
    action_space: Any
    config: dict
    reward_threshold: float | None = None

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """``{name: ArraySpec}`` of every array a step returns, envpool's ``obs:``/``info:`` names."""
        space = self.observation_space
        if isinstance(space, spaces.Dict):
            out = {f"obs:{k}": _array_spec(s) for k, s in space.spaces.items()}
        else:
            out = {"obs": _array_spec(space)}
        out.update(
            {
                "info:env_id": _scalar(np.int32),
                "info:players.env_id": ArraySpec(np.dtype(np.int32), (-1,), (None, None)),
                "elapsed_step": _scalar(np.int32),
                "reward": _scalar(np.float32),
                "terminated": _scalar(np.bool_),
                "truncated": _scalar(np.bool_),
            }
        )
        return out

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """``{'env_id', 'players.env_id', 'action'}`` specs, as envpool's single-action tasks."""
        return {
            "env_id": _scalar(np.int32),
            "players.env_id": ArraySpec(np.dtype(np.int32), (-1,), (None, None)),
            "action": _array_spec(self.action_space),
        }

    def observation_spec(self) -> Any:
        """The dm_env specs of an observation: a namedtuple ``State`` of the observation arrays
        (``obs``, or one field per key of a dict observation), ``env_id``, ``players.env_id``
        and ``elapsed_step``.

        Raises:
            ImportError: the dm-env package is not installed.
        """
        from lzero.envs.pool.dm_api import dm_observation_spec

        return dm_observation_spec(self)

    def action_spec(self) -> Any:
        """The dm_env spec of one env's action (``DiscreteArray`` for a discrete space from 0).

        Raises:
            ImportError: the dm-env package is not installed.
        """
        from lzero.envs.pool.dm_api import dm_spec

        return dm_spec("action", self.action_array_spec["action"], self.action_space)


def env_seeds(seed: Any, num_envs: int) -> list[int]:
    """One seed per env: ``seed + i`` for an int, else the sequence itself (envpool's forms).

    Raises:
        ValueError: a negative or non-integer seed, or a sequence not of length ``num_envs``.
    """
    if isinstance(seed, (Sequence, np.ndarray)) and not isinstance(seed, (str, bytes)):
        arr = np.asarray(seed)
        if arr.ndim != 1 or arr.shape[0] != num_envs or arr.dtype.kind not in "iu":
            raise ValueError(
                f"seed: expected an int or {num_envs} ints (one per env), got {seed!r}"
            )
        if (arr < 0).any():
            raise ValueError(f"seed: expected non-negative ints, got {int(arr[arr < 0][0])}")
        return [int(s) for s in arr.tolist()]
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: expected a non-negative int or one per env, got {seed!r}")
    return [int(seed) + i for i in range(num_envs)]
