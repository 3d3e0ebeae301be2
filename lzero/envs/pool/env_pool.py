"""``EnvPool``: the envpool interface (``send/recv/step/reset/async_reset``) over any backend.

The pool validates every call before any env moves, keeps track of which envs are in
flight, and formats batches for the 'gym' API (``obs, reward, done, info``) or the
'gymnasium' API (``obs, reward, terminated, truncated, info``). A backend provides
``action`` (`[N, ...]`, row ``i`` read by env ``i``), ``submit(ids, reset_now)``,
``poll(block) -> finished ids``, ``gather(ids) -> (obs, reward, terminated, truncated,
elapsed)``, and ``step_all()`` (a sync step of every env, returning the gathered batch). The bookkeeping is vectorised: no Python runs per env.

Sync mode (``batch_size == num_envs``): ``recv`` waits for every env in flight and returns
them in the order they were sent. Async mode: ``recv`` returns as soon as ``batch_size`` envs
(or all in flight, if fewer) have finished, oldest first, with their ids in
``info['env_id']``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from lzero.envs.pool.gym_pool import PoolWorkerDied


class EnvPool:
    """A batch of envs behind envpool's interface (built by :func:`lzero.envs.make`).

    Attributes:
        spec: the :class:`~lzero.envs.pool.EnvSpec` it was made from.
        observation_space, action_space: of one env.
    """

    def __init__(self, backend: Any, spec: Any) -> None:
        self._backend, self.spec = backend, spec
        self.num_envs, self.batch_size = spec.num_envs, spec.batch_size
        self.observation_space, self.action_space = spec.observation_space, spec.action_space
        self.config = spec.config
        self._gym_api = spec.env_type == "gym"
        self._in_flight = np.zeros(self.num_envs, np.bool_)  # sent, not yet returned
        self._finished = np.zeros(self.num_envs, np.bool_)  # in flight and done
        self._seq = np.zeros(self.num_envs, np.int64)  # when each env was sent
        self._sent, self._n_in_flight, self._n_finished = 0, 0, 0
        self._last_ids: np.ndarray | None = None  # returned by the last recv
        self._last_sent = np.zeros(0, np.int64)
        self._closed = False
        self._broken: str | None = None  # why a backend failure left the pool unusable
        self._action_shape = backend.action.shape[1:]
        self._action_kinds, self._action_range = "iuf", None
        if isinstance(self.action_space, spaces.Discrete):
            lo = int(self.action_space.start)
            self._action_kinds, self._action_range = "iu", (lo, lo + int(self.action_space.n))
        self._all = np.arange(self.num_envs)

    @property
    def is_async(self) -> bool:
        return self.batch_size < self.num_envs

    # ------------------------------------------------------------------ validation
    def _check_open(self, what: str) -> None:
        if self._closed:
            raise RuntimeError(f"{what}: expected an open pool, got a closed one")
        if self._broken is not None:
            raise RuntimeError(f"{what}: {self._broken}; close this pool and make a new one")

    def _backend_call(self, fn, *args):
        """Calls the backend; a dead worker leaves the pool unusable, and every call says so."""
        try:
            return fn(*args)
        except PoolWorkerDied as err:
            self._broken = str(err)
            raise

    def _ids(self, env_id: Any, what: str) -> np.ndarray:
        if env_id is None:
            if not self.is_async:
                ids = np.arange(self.num_envs)
            elif self._last_ids is None:
                raise ValueError(
                    f"{what}: expected env_id in async mode before the first recv, got None"
                )
            else:
                ids = self._last_ids
        else:
            ids = np.asarray(env_id)
            if ids.ndim == 0:
                ids = ids.reshape(1)
            if ids.ndim != 1 or ids.dtype.kind not in "iu":
                raise TypeError(
                    f"{what}: expected env_id as a 1-D integer array, got {ids.dtype} of shape {ids.shape}"
                )
            ids = ids.astype(np.int64)
            bad = ids[(ids < 0) | (ids >= self.num_envs)]
            if bad.size:
                raise ValueError(
                    f"{what}: expected env ids in [0, {self.num_envs}), got {int(bad[0])}"
                )
            uniq, counts = np.unique(ids, return_counts=True)
            if (counts > 1).any():
                raise ValueError(
                    f"{what}: expected distinct env ids, got {int(uniq[counts > 1][0])} repeated"
                )
        if self._n_in_flight:
            busy = ids[self._in_flight[ids]]
            if busy.size:
                raise ValueError(
                    f"{what}: expected envs not in flight, got env {int(busy[0])} still running; recv first"
                )
        return ids

    def _actions(self, action: Any, n: int) -> np.ndarray:
        arr = np.asarray(action)
        if arr.shape != (n, *self._action_shape):
            raise ValueError(
                f"send: expected an action batch of shape {(n, *self._action_shape)}, got {arr.shape}"
            )
        if arr.dtype.kind == "f" and self._action_kinds == "iu":
            # envpool casts float actions of a discrete space; whole numbers only here, so
            # that 2.5 is not silently played as 2.
            whole = np.isfinite(arr) & (arr == np.round(arr))
            if not whole.all():
                raise ValueError(
                    f"send: expected whole-number actions for a discrete space, got "
                    f"{arr[~whole].reshape(-1)[0]!r}"
                )
            arr = arr.astype(np.int64)
        if arr.dtype.kind not in self._action_kinds:
            want = "an integer" if self._action_kinds == "iu" else "a numeric"
            raise TypeError(f"send: expected {want} action array, got dtype {arr.dtype}")
        if self._action_range is not None:
            lo, hi = self._action_range
            # One comparison when lo == 0: negative integers wrap to huge unsigned values.
            wrapped = arr.view(f"u{arr.itemsize}") if lo == 0 and arr.dtype.kind == "i" else None
            if (
                (wrapped >= hi).any()
                if wrapped is not None
                else (arr.min() < lo or arr.max() >= hi)
            ):
                bad = arr[(arr < lo) | (arr >= hi)]
                raise ValueError(f"send: expected actions in [{lo}, {hi}), got {int(bad[0])}")
        return arr

    # ------------------------------------------------------------------ envpool's interface
    def send(self, action: Any, env_id: Any = None) -> None:
        """Sends one action per env of ``env_id`` (all envs, or in async mode the last batch).
        ``action`` may also be envpool's dict ``{"action": ..., "env_id": ...}``.

        Raises:
            RuntimeError: the pool is closed.
            ValueError, TypeError: wrong batch length, dtype or value, or a bad, repeated or
                busy env id; no env is changed.
            IllegalActionError: a board-game action is illegal now; no env is changed.
        """
        self._check_open("send")
        action, env_id = _unpack(action, env_id, "send")
        ids = self._ids(env_id, "send")
        actions = self._actions(action, ids.shape[0])
        self._submit(ids, np.zeros(ids.shape[0], np.bool_), actions)

    def _submit(self, ids: np.ndarray, reset_now: np.ndarray, actions: np.ndarray | None) -> None:
        if actions is not None:
            self._backend.action[ids] = actions  # read by the envs, not part of their state
        self._backend_call(self._backend.submit, ids, reset_now)  # raises before any env changes
        self._last_sent = ids
        self._in_flight[ids] = True
        self._seq[ids] = np.arange(self._sent, self._sent + ids.shape[0])
        self._sent += ids.shape[0]
        self._n_in_flight += ids.shape[0]

    def _wait(self, enough) -> None:
        while not enough():
            done = self._backend_call(self._backend.poll, True)
            self._finished[done] = True
            self._n_finished += done.shape[0]

    def _take(self, ids: np.ndarray) -> tuple:
        self._finished[ids] = False
        self._in_flight[ids] = False
        self._n_finished -= ids.shape[0]
        self._n_in_flight -= ids.shape[0]
        self._last_ids = ids
        self._last_sent = ids[:0]  # the fast path in recv needs no recv since the last send
        return self._batch(ids)

    def recv(self) -> tuple:
        """Returns the next batch: ``(obs, reward, done, info)`` ('gym') or the 5-tuple.

        Raises:
            RuntimeError: nothing was sent, or the pool is closed.
        """
        self._check_open("recv")
        if not self._n_in_flight:
            raise RuntimeError(
                "recv: expected actions sent (send or async_reset) first, got nothing in flight"
            )
        need = min(self.batch_size, self._n_in_flight) if self.is_async else self._n_in_flight
        self._wait(lambda: self._n_finished >= need)
        if need == self._last_sent.shape[0] == self._n_in_flight:
            return self._take(self._last_sent)  # one send in flight, all of it done
        ids = np.flatnonzero(self._finished)
        ids = ids[np.argsort(self._seq[ids], kind="stable")[:need]]
        return self._take(ids)

    def _batch(self, ids: np.ndarray) -> tuple:
        return self._format(ids, self._backend.gather(ids))

    def _format(self, ids: np.ndarray, batch: tuple) -> tuple:
        obs, reward, term, trunc, elapsed = batch
        info = {
            "env_id": ids.astype(np.int32),  # a new array: callers may keep or change it
            "elapsed_step": elapsed,
            "TimeLimit.truncated": trunc,
            "terminated": term,
        }
        if self._gym_api:
            return obs, reward, term | trunc, info
        return obs, reward, term, trunc, info

    def step(self, action: Any, env_id: Any = None) -> tuple:
        """``send(action, env_id)`` then ``recv()``."""
        action, env_id = _unpack(action, env_id, "step")
        if env_id is None and not self._n_in_flight and not self.is_async:
            # Sync step of every env, nothing else in flight: the same, minus the bookkeeping.
            self._check_open("step")
            self._backend.action[:] = self._actions(action, self.num_envs)
            self._last_ids = self._all
            return self._format(self._all, self._backend_call(self._backend.step_all))
        self.send(action, env_id)
        return self.recv()

    def async_reset(self) -> None:
        """Resets every env not in flight; their first observations come with the next ``recv``."""
        self._check_open("async_reset")
        ids = np.flatnonzero(~self._in_flight)
        self._submit(ids, np.ones(ids.shape[0], np.bool_), None)

    def reset(self, env_id: Any = None) -> Any:
        """Resets ``env_id`` (default: all envs) and returns their first observations.

        Returns:
            ``obs`` for the 'gym' API, ``(obs, info)`` for 'gymnasium'.
        """
        self._check_open("reset")
        ids = np.arange(self.num_envs) if env_id is None else self._ids(env_id, "reset")
        if env_id is None and self._in_flight.any():
            raise ValueError("reset: expected no env in flight, got some; recv them first")
        self._submit(ids, np.ones(ids.shape[0], np.bool_), None)
        self._wait(lambda: self._finished[ids].all())
        batch = self._take(ids)
        return batch[0] if self._gym_api else (batch[0], batch[-1])

    def close(self) -> None:
        """Stops the backend (and its workers); later calls raise. Closing twice is fine."""
        if not self._closed:
            self._closed = True
            self._backend.close()

    def __enter__(self) -> EnvPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __len__(self) -> int:
        return self.num_envs

    def __repr__(self) -> str:
        return f"EnvPool({self.spec.task_id!r}, num_envs={self.num_envs}, batch_size={self.batch_size})"


def _unpack(action: Any, env_id: Any, what: str) -> tuple[Any, Any]:
    """envpool's dict action ``{"action": a, "env_id": ids}`` as ``(a, ids)``."""
    if not isinstance(action, dict):
        return action, env_id
    keys = set(action)
    if "action" not in keys or not keys <= {"action", "env_id"}:
        raise ValueError(
            f"{what}: expected a dict action with the keys 'action' and optionally 'env_id', "
            f"got {sorted(keys)}"
        )
    if env_id is not None and "env_id" in action:
        raise ValueError(f"{what}: expected env_id in the dict action or as env_id, got both")
    return action["action"], action.get("env_id", env_id)
