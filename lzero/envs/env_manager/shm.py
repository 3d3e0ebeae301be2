"""Shared-memory slots through which a worker process hands array observations to its manager.

The manager learns an env's observation layout (the arrays of its first observation: their
keys, shapes and dtypes) and allocates ``slots`` copies of each array in shared memory. A
worker then writes every observation that matches the layout into a slot and sends only what
is left (scalars, and a marker where each array was) through its pipe; the manager copies the
arrays out, so an observation it returns never aliases the shared buffer.
"""

from __future__ import annotations

from multiprocessing import shared_memory
from typing import Any

import numpy as np


class InShm:
    """Marker left in a message where an array was moved into shared memory."""

    __slots__ = ()


def obs_layout(obs: Any) -> tuple:
    """Returns ``((key, shape, dtype_str), ...)`` of the non-empty arrays of ``obs``.

    ``key`` is None for a bare array observation; dict observations list their array values.
    """
    if isinstance(obs, np.ndarray):
        return ((None, obs.shape, obs.dtype.str),) if obs.nbytes else ()
    if isinstance(obs, dict):
        return tuple(
            (k, v.shape, v.dtype.str)
            for k, v in obs.items()
            if isinstance(v, np.ndarray) and v.nbytes
        )
    return ()


def _attach(name: str) -> shared_memory.SharedMemory:
    """Attaches to a segment that the manager created, owns and unlinks.

    Python 3.13+ can attach untracked. Before that, attaching registers the name with the
    resource tracker, which the manager started before its workers (see
    ``WorkerProcess``) and so shares with them: the registration repeats the manager's and
    the manager's unlink clears it. (Unregistering here would make that unlink fail.)
    """
    try:
        return shared_memory.SharedMemory(name=name, track=False)
    except TypeError:
        return shared_memory.SharedMemory(name=name)


class ShmSlots:
    """``slots`` shared copies of each array of an observation layout.

    Args:
        layout: from :func:`obs_layout`.
        slots: copies of the whole layout (a step with auto-reset needs two observations).
        names: shared-memory names to attach to (in the worker); None creates new segments.
    """

    def __init__(self, layout: tuple, slots: int = 2, names: list[str] | None = None) -> None:
        self.layout, self.slots = layout, slots
        self._owner = names is None
        self._shms = []
        self._views: list[dict] = [{} for _ in range(slots)]
        for j, (key, shape, dtype) in enumerate(layout):
            nbytes = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            if self._owner:
                shm = shared_memory.SharedMemory(create=True, size=nbytes * slots)
            else:
                shm = _attach(names[j])
            self._shms.append(shm)
            for s in range(slots):
                self._views[s][key] = np.ndarray(shape, dtype, shm.buf, offset=s * nbytes)

    def spec(self) -> tuple:
        """What a worker needs to attach: ``(layout, slots, names)``."""
        return self.layout, self.slots, [shm.name for shm in self._shms]

    def put(self, slot: int, obs: Any) -> Any:
        """Writes the layout's arrays of ``obs`` into ``slot``; returns ``obs`` without them."""
        views = self._views[slot]
        if isinstance(obs, np.ndarray):
            if None in views and views[None].shape == obs.shape and views[None].dtype == obs.dtype:
                views[None][...] = obs
                return InShm()
            return obs
        if not isinstance(obs, dict):
            return obs
        out = dict(obs)
        for key, value in obs.items():
            view = views.get(key)
            if (
                view is not None
                and isinstance(value, np.ndarray)
                and value.shape == view.shape
                and value.dtype == view.dtype
            ):
                view[...] = value
                out[key] = InShm()
        return out

    def get(self, slot: int, stripped: Any) -> Any:
        """Inverse of :meth:`put`: fresh copies of the arrays put in ``slot``."""
        views = self._views[slot]
        if isinstance(stripped, InShm):
            return views[None].copy()
        if isinstance(stripped, dict):
            return {k: views[k].copy() if isinstance(v, InShm) else v for k, v in stripped.items()}
        return stripped

    def close(self) -> None:
        """Detaches; the owner also unlinks the segments."""
        self._views = []
        for shm in self._shms:
            shm.close()
            if self._owner:
                try:
                    shm.unlink()
                except FileNotFoundError:
                    pass
        self._shms = []
