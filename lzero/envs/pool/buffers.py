"""Per-env output buffers of a pool: one row per env id, allocated once, shared with workers.

A backend writes env ``i``'s step into row ``i`` of each buffer; the pool hands out
``buffer[ids]`` (a fresh copy), so a returned batch never aliases the buffers. Dict
observations get one buffer per key (arrays and scalars alike: envpool stacks per key).
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
from typing import Any

import numpy as np

#: Fixed fields of every step, with their dtypes.
FIELDS = (
    ("reward", np.float32),
    ("terminated", np.bool_),
    ("truncated", np.bool_),
    ("elapsed", np.int32),
)


def obs_fields(example: Any) -> list[tuple]:
    """``[(key, shape, dtype)]`` of an example observation (key None for a bare array)."""
    if isinstance(example, dict):
        out = []
        for key, value in example.items():
            if value is None:
                continue
            arr = np.asarray(value)
            out.append((key, arr.shape, arr.dtype))
        return out
    arr = np.asarray(example)
    return [(None, arr.shape, arr.dtype)]


class Buffers:
    """Row-per-env arrays: ``obs`` (array or dict of arrays), ``action`` and :data:`FIELDS`.

    Args:
        n: number of envs.
        obs_spec: from :func:`obs_fields`.
        action_shape, action_dtype: of one env's action.
        shared: back the arrays with shared memory (picklable to 'spawn' workers).
        raw: the shared arrays of an existing instance (see :meth:`picklable`), in a worker.
    """

    def __init__(self, n, obs_spec, action_shape, action_dtype, *, shared=False, raw=None):
        self.n, self.obs_spec = n, obs_spec
        self.action_shape, self.action_dtype = tuple(action_shape), np.dtype(action_dtype)
        specs = [(f"obs:{k}", s, d) for k, s, d in obs_spec]
        specs += [("action", self.action_shape, self.action_dtype)]
        specs += [(name, (), dtype) for name, dtype in FIELDS]
        if raw is None:
            raw = [
                mp.RawArray(
                    ctypes.c_byte,
                    max(1, n * int(np.prod(s, dtype=np.int64)) * np.dtype(d).itemsize),
                )
                if shared
                else None
                for _, s, d in specs
            ]
        self.raw = raw
        arrays = {}
        for (name, shape, dtype), buf in zip(specs, raw):
            size = n * int(np.prod(shape, dtype=np.int64))
            if buf is None:
                arrays[name] = np.zeros((n, *shape), dtype)
            else:
                arrays[name] = np.frombuffer(buf, dtype, count=size).reshape((n, *shape))
        self.action = arrays["action"]
        self.reward, self.terminated = arrays["reward"], arrays["terminated"]
        self.truncated, self.elapsed = arrays["truncated"], arrays["elapsed"]
        if obs_spec[0][0] is None:
            self.obs = arrays["obs:None"]
        else:
            self.obs = {k: arrays[f"obs:{k}"] for k, _, _ in obs_spec}

    def picklable(self) -> tuple:
        """Arguments that rebuild these buffers in a worker (shared memory only)."""
        return self.n, self.obs_spec, self.action_shape, self.action_dtype.str, self.raw

    def batch(self, obs, reward, terminated, truncated, elapsed) -> tuple:
        """One step of some envs (sequences, one item per env) as fresh arrays
        ``(obs, reward, terminated, truncated, elapsed)``, with the buffers' dtypes."""
        if isinstance(self.obs, dict):
            obs = {k: np.array([o[k] for o in obs], buf.dtype) for k, buf in self.obs.items()}
        else:
            obs = np.array(obs, self.obs.dtype)
        return (
            obs,
            np.array(reward, np.float32),
            np.asarray(terminated, np.bool_),
            np.asarray(truncated, np.bool_),
            np.asarray(elapsed, np.int32),
        )

    def write(self, ids: np.ndarray, batch: tuple) -> None:
        """Stores a :meth:`batch` of envs ``ids`` in their rows."""
        obs = batch[0]
        if isinstance(self.obs, dict):
            for key, buf in self.obs.items():
                buf[ids] = obs[key]
        else:
            self.obs[ids] = obs
        self.reward[ids], self.terminated[ids], self.truncated[ids], self.elapsed[ids] = batch[1:]

    def write_rows(self, ids, obs, reward, terminated, truncated, elapsed) -> None:
        """Like ``write(ids, batch(...))``; row by row for a few envs, where that is cheaper."""
        if len(ids) > 16:
            return self.write(ids, self.batch(obs, reward, terminated, truncated, elapsed))
        for k, i in enumerate(ids.tolist()):
            if isinstance(self.obs, dict):
                for key, buf in self.obs.items():
                    buf[i] = obs[k][key]
            else:
                self.obs[i] = obs[k]
            self.reward[i] = reward[k]
        self.terminated[ids], self.truncated[ids], self.elapsed[ids] = (
            terminated,
            truncated,
            elapsed,
        )
        return None

    def gather(self, ids: np.ndarray) -> tuple:
        """Copies of the rows of ``ids`` (`[B]`): ``(obs, reward, terminated, truncated,
        elapsed)``, observations stacked (per key for dicts)."""
        if isinstance(self.obs, dict):
            obs = {k: v[ids] for k, v in self.obs.items()}
        else:
            obs = self.obs[ids]
        return obs, self.reward[ids], self.terminated[ids], self.truncated[ids], self.elapsed[ids]
