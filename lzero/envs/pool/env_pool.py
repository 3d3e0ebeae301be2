"""``EnvPool``: the envpool interface (``send/recv/step/reset/async_reset``) over any backend.

The pool validates every call before any env moves, keeps track of which envs are in
flight, and formats batches: this class for the old gym API (``reset -> obs``, ``step -> obs, reward,
done, info``, ``env_type='gym_legacy'``), its subclasses for gymnasium's and dm_env's
(:mod:`lzero.envs.pool.api_types`). A backend provides
``action`` (`[N, ...]`, row ``i`` read by env ``i``), ``submit(ids, reset_now)``,
``poll(block) -> finished ids``, ``gather(ids) -> (obs, reward, terminated, truncated,
elapsed)``, and ``step_all()`` (a sync step of every env, returning the gathered batch). The bookkeeping is vectorised: no Python runs per env.

Sync mode (``batch_size == num_envs``): ``recv`` waits for every env in flight and returns
them in the order they were sent. Async mode: ``recv`` returns as soon as ``batch_size`` envs
(or all in flight, if fewer) have finished, oldest first, with their ids in
``info['env_id']``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from lzero.envs.pool.actions import ActionCheck, unpack
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
        self._in_flight = np.zeros(self.num_envs, np.bool_)  # sent, not yet returned
        self._finished = np.zeros(self.num_envs, np.bool_)  # in flight and done
        self._seq = np.zeros(self.num_envs, np.int64)  # when each env was sent
        self._sent, self._n_in_flight, self._n_finished = 0, 0, 0
        self._last_ids: np.ndarray | None = None  # returned by the last recv
        self._last_sent = np.zeros(0, np.int64)
        self._closed = False
        self._broken: str | None = None  # why a backend failure left the pool unusable
        self._actions = ActionCheck(self.action_space, backend.action.shape[1:])
        self._all = np.arange(self.num_envs)

    @property
    def is_async(self) -> bool:
        return self.batch_size < self.num_envs

    @property
    def is_vector_env(self) -> bool:
        """True: one call steps many envs (read by gymnasium's vector-aware wrappers)."""
        return True

    @property
    def all_env_ids(self) -> np.ndarray:
        """``[0, ..., num_envs - 1]`` as int32, as envpool's."""
        return self._all.astype(np.int32)

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
        except BaseException:  # Ctrl-C inside an in-process env's step: the batch is lost
            why = getattr(self._backend, "broken", None)
            if why:
                self._broken = why
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
        self._send(action, env_id, "send")

    def _send(self, action: Any, env_id: Any, what: str) -> None:
        """:meth:`send`, its errors naming ``what`` (the caller's function)."""
        self._check_open(what)
        action, env_id = unpack(action, env_id, what)
        ids = self._ids(env_id, what)
        actions = self._actions(action, ids.shape[0], what)
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
        return self._backend.gather(ids)

    def recv(self, reset: bool = False, return_info: bool = True) -> tuple:
        """Returns the next batch: ``(obs, reward, done, info)`` ('gym') or the 5-tuple; with
        ``reset`` (envpool's), in ``reset``'s form instead. ``return_info`` is envpool's and
        must be True (the info is always returned).

        Raises:
            RuntimeError: nothing was sent, or the pool is closed.
            ValueError: ``return_info`` False.
        """
        if return_info is not True:
            raise ValueError(
                f"recv: expected return_info=True (envpool 1.2's), got {return_info!r}"
            )
        self._check_open("recv")
        if not self._n_in_flight:
            raise RuntimeError(
                "recv: expected actions sent (send or async_reset) first, got nothing in flight"
            )
        need = min(self.batch_size, self._n_in_flight) if self.is_async else self._n_in_flight
        self._wait(lambda: self._n_finished >= need)
        if need == self._last_sent.shape[0] == self._n_in_flight:
            ids = self._last_sent  # one send in flight, all of it done
        else:
            ids = self._oldest_finished(need)
        return self._format(ids, self._take(ids), bool(reset))

    def _oldest_finished(self, need: int) -> np.ndarray:
        """The ids of the ``need`` finished envs sent longest ago (envpool's async order)."""
        ids = np.flatnonzero(self._finished)
        return ids[np.argsort(self._seq[ids], kind="stable")[:need]]

    @staticmethod
    def _info(ids: np.ndarray, batch: tuple) -> dict:
        _, _, term, trunc, elapsed = batch
        env_id = ids.astype(np.int32)  # a new array: callers may keep or change it
        return {
            "env_id": env_id,
            "players": {"env_id": env_id.copy()},  # one player per env
            "elapsed_step": elapsed,
            "TimeLimit.truncated": trunc,
            "terminated": term,
        }

    def _format(self, ids: np.ndarray, batch: tuple, reset: bool) -> Any:
        """The old gym API: ``obs`` after a reset, else ``(obs, reward, done, info)``."""
        if reset:
            return batch[0]
        obs, reward, term, trunc, _ = batch
        return obs, reward, term | trunc, self._info(ids, batch)

    def step(self, action: Any, env_id: Any = None) -> tuple:
        """``send(action, env_id)`` then ``recv()``."""
        action, env_id = unpack(action, env_id, "step")
        if env_id is None and not self._n_in_flight and not self.is_async:
            # Sync step of every env, nothing else in flight: the same, minus the bookkeeping.
            self._check_open("step")
            self._backend.action[:] = self._actions(action, self.num_envs, "step")
            self._last_ids = self._all
            return self._format(self._all, self._backend_call(self._backend.step_all), False)
        self._send(action, env_id, "step")
        return self.recv()

    def async_reset(self) -> None:
        """Resets every env not in flight; their first observations come with the next ``recv``."""
        self._check_open("async_reset")
        ids = np.flatnonzero(~self._in_flight)
        self._submit(ids, np.ones(ids.shape[0], np.bool_), None)

    def reset(self, env_id: Any = None) -> Any:
        """Resets ``env_id`` (default: all envs) and returns their first observations: of
        every env reset, or, in async mode with ``env_id`` None, as envpool's, of the first
        ``batch_size`` to finish (oldest first), the others staying in flight for ``recv``.

        Returns:
            ``obs`` here (the old gym API), ``(obs, info)`` for gymnasium's, a ``TimeStep``
            for dm_env's.
        """
        self._check_open("reset")
        ids = np.arange(self.num_envs) if env_id is None else self._ids(env_id, "reset")
        if env_id is None and self._in_flight.any():
            raise ValueError("reset: expected no env in flight, got some; recv them first")
        self._submit(ids, np.ones(ids.shape[0], np.bool_), None)
        if env_id is None and self.is_async:
            self._wait(lambda: self._n_finished >= self.batch_size)
            ids = self._oldest_finished(self.batch_size)
        else:
            self._wait(lambda: self._finished[ids].all())
        return self._format(ids, self._take(ids), True)

    def state_dict(self) -> dict:
        """The envs' state, for a training run's checkpoint (ours; board games only, with no
        env in flight).

        Raises:
            TypeError: the pool's envs cannot save their state (gym tasks).
            ValueError: an env is in flight.
        """
        if not hasattr(self._backend, "state_dict"):
            raise TypeError(
                f"state_dict: expected a pool of board-game envs, got one of {self.spec.task_id!r}, "
                "whose envs cannot save their state"
            )
        if self._n_in_flight:
            raise ValueError("state_dict: expected no env in flight, got some; recv them first")
        return self._backend.state_dict()

    def load_state_dict(self, state: dict) -> None:
        """Puts back the envs' state :meth:`state_dict` returned (ours)."""
        if self._n_in_flight:
            raise ValueError("load_state_dict: expected no env in flight, got some")
        self._backend.load_state_dict(state)

    def xla(self) -> tuple:
        """envpool's XLA interface, ``(handle, recv, send, step)`` for ``jax.jit``: not here.

        Raises:
            NotImplementedError: always (envpool without jax raises a RuntimeError too).
        """
        raise NotImplementedError(
            "xla: envpool's XLA interface is not available in lzero.envs.pool: its envs step "
            "in numba calls or worker processes, not as XLA custom calls; use step, or "
            "send and recv"
        )

    def seed(self, seed: Any = None) -> None:
        """Does nothing but warn, as envpool's: seeds are fixed by ``make(..., seed=...)``."""
        warnings.warn(
            "seed: a pool's seeds are fixed when it is made; pass seed to make(...) instead",
            UserWarning,
            stacklevel=2,
        )

    def render(self, env_ids: Any = None, camera_id: Any = None) -> np.ndarray | None:
        """Frames of ``env_ids`` (default ``make``'s ``render_env_id``, 0), `[k, H, W, 3]`,
        from a pool made with ``render_mode='rgb_array'`` (None for 'human', which draws in
        a window). ``camera_id`` is envpool's: None or 0 (the task's one view).

        Raises:
            RuntimeError: the pool was made without a render mode, or its task cannot render
                (the board games' vectorised backend), or envs are in flight, or have not been
                reset yet.
        """
        self._check_open("render")
        mode = self.config.get("render_mode")
        if mode not in ("rgb_array", "human"):
            raise RuntimeError(
                "render: expected a pool made with render_mode='rgb_array' or 'human', "
                f"got render_mode={mode!r}"
            )
        if not hasattr(self._backend, "render"):
            raise RuntimeError(f"render: {self.spec.task_id!r}: render not implemented")
        if self._n_in_flight:
            raise RuntimeError("render: expected no env in flight, got some; recv them first")
        if camera_id not in (None, 0):
            raise ValueError(
                f"render: expected camera_id None or 0 (the task's one view), got {camera_id!r}"
            )
        default = np.array([self.config.get("render_env_id", 0)], np.int64)
        ids = default if env_ids is None else self._ids(env_ids, "render")
        frames = self._backend_call(self._backend.render, ids)
        if mode == "human":
            return None
        missing = [int(i) for i, f in zip(ids, frames) if f is None]
        if missing:  # gymnasium's envs draw nothing before their first reset
            raise RuntimeError(
                f"render: expected frames, got none from envs {missing}, which have not been "
                "reset yet; call reset() first"
            )
        return np.stack(frames)

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
