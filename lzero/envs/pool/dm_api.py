"""The pool behind dm_env's API (``make_dm``, envpool's ``DMEnvPool``); needs the dm-env package
(``pip install dm-env``, or the ``dm`` extra).

``reset`` and ``step`` return one ``dm_env.TimeStep`` of arrays `[B]`: ``step_type`` (FIRST on
a reset, including the auto-reset step after an episode ended, LAST at the end of one, else
MID), ``reward``, ``discount`` (0 where the episode terminated, 1 where it goes on or was
truncated: dm_env's rule; envpool's is 0 on a truncation too) and ``observation``, a namedtuple
``State`` with, in envpool's order, ``env_id``, ``players.env_id``, the observation arrays
(``obs``, or one field per key of a dict observation), then ``elapsed_step`` (ours).
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
from gymnasium import spaces

try:
    import dm_env
    from dm_env import specs
except ImportError as err:  # pragma: no cover - exercised without dm-env installed
    raise ImportError(
        "make_dm: expected the dm-env package (pip install dm-env, or lzero-suite[dm]), "
        f"got {type(err).__name__}: {err}"
    ) from err

from lzero.envs.pool.env_pool import EnvPool

_players = collections.namedtuple("Players", ["env_id"])


def _obs_names(space: Any) -> list[str]:
    return list(space.spaces) if isinstance(space, spaces.Dict) else ["obs"]


def _state_type(space: Any) -> type:
    return collections.namedtuple(
        "State", ["env_id", "players", *_obs_names(space), "elapsed_step"]
    )


def dm_spec(name: str, spec: Any, space: Any) -> Any:
    """A dm_env spec of one array (``DiscreteArray`` for a discrete space starting at 0)."""
    if isinstance(space, spaces.Discrete) and int(space.start) == 0:
        return specs.DiscreteArray(int(space.n), dtype=spec.dtype, name=name)
    lo, hi = spec.bounds
    if lo is None or spec.dtype.kind not in "iuf":
        return specs.Array([s for s in spec.shape if s != -1], spec.dtype, name=name)
    return specs.BoundedArray(spec.shape, spec.dtype, lo, hi, name=name)


def dm_observation_spec(env_spec: Any) -> Any:
    """The ``State`` namedtuple of specs (see the module docstring) for an ``EnvSpec``."""
    space = env_spec.observation_space
    state = env_spec.state_array_spec
    keys = [f"obs:{k}" for k in space.spaces] if isinstance(space, spaces.Dict) else ["obs"]
    obs = [dm_spec(k.split(":")[-1], state[k], s) for k, s in zip(keys, _subspaces(space))]
    return _state_type(space)(
        dm_spec("env_id", state["info:env_id"], None),
        _players(dm_spec("env_id", state["info:players.env_id"], None)),
        *obs,
        dm_spec("elapsed_step", state["elapsed_step"], None),
    )


def _subspaces(space: Any) -> list:
    return list(space.spaces.values()) if isinstance(space, spaces.Dict) else [space]


class DMEnvPool(EnvPool, dm_env.Environment):
    """An :class:`EnvPool` with dm_env's API (``make_dm``)."""

    def __init__(self, backend: Any, spec: Any) -> None:
        super().__init__(backend, spec)
        self._state = _state_type(self.observation_space)

    def observation_spec(self) -> Any:
        return self.spec.observation_spec()

    def action_spec(self) -> Any:
        return self.spec.action_spec()

    def _format(self, ids: np.ndarray, batch: tuple, reset: bool) -> Any:
        obs, reward, term, trunc, elapsed = batch
        first = elapsed == 0
        step_type = np.where(
            first, dm_env.StepType.FIRST, np.where(term | trunc, dm_env.StepType.LAST, 1)
        ).astype(np.int32)
        env_id = ids.astype(np.int32)
        fields = [obs[k] for k in self.observation_space.spaces] if isinstance(obs, dict) else [obs]
        observation = self._state(env_id, _players(env_id.copy()), *fields, elapsed)
        discount = np.where(term & ~first, 0.0, 1.0).astype(np.float32)
        return dm_env.TimeStep(step_type, reward, discount, observation)
