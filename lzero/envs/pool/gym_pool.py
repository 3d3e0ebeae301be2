"""Gym backends of the pool: envs stepped in the caller's process, or in worker processes.

Both run the same :class:`GymRunner` over a slice of envs. In-process, a batch is handed
out as the runner built it; workers each own a contiguous slice, write their envs' steps into
their rows of the pool's :class:`~lzero.envs.pool.buffers.Buffers` (shared memory), and are
signalled with a few bytes per batch through a pipe; the pool waits on the pipes it needs.
"""

from __future__ import annotations

import multiprocessing as mp
import selectors
import signal

import numpy as np

from lzero.envs.pool.buffers import Buffers, obs_fields
from lzero.envs.pool.inline import SteppedAtSubmit
from lzero.envs.utils import crosses_processes


class PoolWorkerDied(RuntimeError):
    """A worker process of the pool is gone; the envs it stepped are lost."""


class PoolEnvFailed(PoolWorkerDied):
    """An env of the pool raised while stepping or resetting: the batch it was in is lost
    (envs before it in the batch moved on), so the pool is unusable, as when a worker dies.
    The message names the env and its error; the error itself is the cause in-process."""


#: The first 8 bytes of a worker's message that an env failed (env ids are never negative).
_FAILED = np.int64(-1).tobytes()


class GymRunner:
    """Steps envs ``lo .. lo + len(envs) - 1`` with envpool's auto-reset and time limit.

    Args:
        envs: gymnasium-style envs (``reset(seed=) -> (obs, info)``, ``step -> 5-tuple``).
        lo: id of ``envs[0]``.
        seeds: env ``i`` is reset with ``seeds[i]`` the first time, then unseeded (one seed
            per env of the pool, not only of this slice).
        max_steps: steps after which an episode is truncated (0: only the env's own limit).
        buffers: the pool's buffers (rows by env id).
    """

    def __init__(self, envs, lo, seeds, max_steps, buffers) -> None:
        self.envs, self.lo, self.buffers = envs, lo, buffers
        self.limit = max_steps or float("inf")
        self.seeds: list[int | None] = list(seeds[lo : lo + len(envs)])
        # Plain lists: per env, Python ints and bools cost less than NumPy scalars.
        self.needs_reset = [True] * len(envs)
        self.elapsed = [0] * len(envs)
        self.ids, self.js = np.arange(lo, lo + len(envs)), list(range(len(envs)))
        self.no_reset = [False] * len(envs)
        self.broken: str | None = None  # why an interrupted batch left the envs inconsistent

    def run(self, ids: np.ndarray | None, reset_now: np.ndarray | None, *, into_rows=False):
        """Steps ``ids`` (resetting where ``reset_now`` or the episode ended); None for both:
        every env of the slice, no forced reset.

        Returns:
            The batch ``(obs, reward, terminated, truncated, elapsed)`` (``Buffers.batch``);
            with ``into_rows``, None: the results are written into the envs' buffer rows.
        """
        b, envs, limit = self.buffers, self.envs, self.limit
        needs_reset, elapsed, seeds = self.needs_reset, self.elapsed, self.seeds
        if ids is None:
            ids, js, forced = self.ids, self.js, self.no_reset
        else:
            js, forced = (ids - self.lo).tolist(), reset_now.tolist()
        actions = list(b.action[ids])  # NumPy scalars: gymnasium checks them faster than ints
        steps = []
        for j, action, force in zip(js, actions, forced):
            try:
                if force or needs_reset[j]:
                    obs, _ = envs[j].reset(seed=seeds[j])
                    seeds[j], elapsed[j], needs_reset[j] = None, 0, False
                    steps.append((obs, 0.0, False, False, 0))
                else:
                    obs, reward, term, trunc, _ = envs[j].step(action)
                    t = elapsed[j] = elapsed[j] + 1
                    trunc = trunc or t >= limit
                    needs_reset[j] = term or trunc
                    steps.append((obs, reward, term, trunc, t))
            except BaseException as err:
                what = "reset" if force or needs_reset[j] else "step"
                message = f"pool env {self.lo + j}'s {what} raised {type(err).__name__}: {err}"
                if isinstance(err, Exception):
                    raise PoolEnvFailed(message) from err
                # Ctrl-C or SystemExit: they go on as they are, the pool unusable all the same.
                self.broken = f"{message}; the batch it was in is lost"
                raise
        batch = zip(*steps)
        if into_rows:
            return b.write_rows(ids, *batch)
        return b.batch(*batch)

    def render(self, ids) -> list:
        """``env.render()`` of each env of ``ids`` (pool ids, within this slice)."""
        return [self.envs[i - self.lo].render() for i in ids]

    def close(self) -> None:
        for env in self.envs:
            env.close()


class InlineGymBackend(SteppedAtSubmit):
    """All envs in the caller's process; ``submit`` steps them at once.

    A sync pool gathers exactly the batch it submitted: that batch's arrays are handed out
    as they are. Only otherwise are batches written into the per-env buffers.
    """

    def __init__(self, make_env, num_envs, seeds, max_steps, example, action_space) -> None:
        self.buffers = _buffers(num_envs, example, action_space, shared=False)
        self.action = self.buffers.action
        envs = [make_env() for _ in range(num_envs)]
        self.runner = GymRunner(envs, 0, seeds, max_steps, self.buffers)
        self.render = self.runner.render
        self._finished: list[np.ndarray] = []
        self._pending: list[tuple] = []  # (ids, batch) not yet written into the buffers

    @property
    def broken(self) -> str | None:
        """Why a batch interrupted mid-way (Ctrl-C in an env's step) left the pool unusable."""
        return self.runner.broken

    def submit(self, ids: np.ndarray, reset_now: np.ndarray) -> None:
        self._pending.append((ids, self.runner.run(ids, reset_now)))
        self._finished.append(ids)

    def step_all(self) -> tuple:
        """Steps every env (nothing else in flight) and returns the batch, as ``gather``."""
        return self.runner.run(None, None)

    def gather(self, ids: np.ndarray) -> tuple:
        pending, self._pending = self._pending, []
        if len(pending) == 1 and _same_ids(pending[0][0], ids):
            return pending[0][1]
        for done_ids, batch in pending:
            self.buffers.write(done_ids, batch)
        return self.buffers.gather(ids)

    def close(self) -> None:
        self.runner.close()


def _same_ids(a: np.ndarray, b: np.ndarray) -> bool:
    return a is b or (a.shape == b.shape and bool((a == b).all()))


def _buffers(n, example, action_space, *, shared) -> Buffers:
    shape = action_space.shape or ()
    dtype = action_space.dtype if action_space.dtype is not None else np.int64
    return Buffers(n, obs_fields(example), shape, dtype, shared=shared)


def _picklable(err: Exception) -> Exception:
    """``err`` if it can cross to the pool's process, else a ``RuntimeError`` with its type
    and message."""
    return err if crosses_processes(err) else RuntimeError(f"{type(err).__name__}: {err}")


def _worker(conn, parent_end, make_env, lo, hi, seeds, max_steps, buffer_args) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the pool decides when workers stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not lzero train's handler, if forked
    if hasattr(signal, "SIGHUP"):  # the terminal closed: the pool ends, and then the workers
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if parent_end is not None:
        parent_end.close()
    runner = GymRunner(
        [make_env() for _ in range(lo, hi)],
        lo,
        seeds,
        max_steps,
        Buffers(*buffer_args[:4], raw=buffer_args[4]),
    )
    while True:
        try:
            msg = conn.recv_bytes()
        except (EOFError, OSError):
            break
        if not msg:
            break
        arr = np.frombuffer(msg, np.int64)
        if arr.shape[0] == 1:  # a step message has an even length: this asks for a frame
            try:
                conn.send((None, runner.render(arr)[0]))
            except Exception as err:  # the env's render raised: the caller gets its error
                conn.send((_picklable(err), None))
            continue
        half = arr.shape[0] // 2
        try:
            runner.run(arr[:half], arr[half:].astype(bool), into_rows=True)
        except PoolEnvFailed as err:  # the pool hears why, and the worker stops
            conn.send_bytes(_FAILED + str(err).encode())
            break
        conn.send_bytes(msg[: 8 * half])
    runner.close()


class ProcGymBackend:
    """Envs split into ``num_workers`` contiguous slices, each stepped by a worker process."""

    def __init__(
        self, make_env, num_envs, seeds, max_steps, example, action_space, *, num_workers, context
    ) -> None:
        self.buffers = _buffers(num_envs, example, action_space, shared=True)
        self.action, self.gather = self.buffers.action, self.buffers.gather
        ctx = mp.get_context(context)
        bounds = np.linspace(0, num_envs, num_workers + 1).astype(int)
        self.owner = np.repeat(np.arange(num_workers), np.diff(bounds))
        self.conns, self.procs = [], []
        for w in range(num_workers):
            parent, child = ctx.Pipe()
            proc = ctx.Process(
                target=_worker,
                args=(
                    child,
                    parent if context == "fork" else None,
                    make_env,
                    int(bounds[w]),
                    int(bounds[w + 1]),
                    seeds,
                    max_steps,
                    self.buffers.picklable(),
                ),
                daemon=True,
                name=f"lzero-pool-{w}",
            )
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        self._busy = [0] * num_workers
        self._selector = selectors.DefaultSelector()  # built once: epoll costs less per wait
        for w, conn in enumerate(self.conns):
            self._selector.register(conn, selectors.EVENT_READ, w)
        self._step_all = [  # the message of a step of every env, per worker
            np.concatenate([np.arange(lo, hi), np.zeros(hi - lo, np.int64)]).tobytes()
            for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist())
        ]

    def submit(self, ids: np.ndarray, reset_now: np.ndarray) -> None:
        owners = self.owner[ids]
        for w in np.unique(owners).tolist():
            sel = owners == w
            self._send(w, np.concatenate([ids[sel], reset_now[sel].astype(np.int64)]).tobytes())

    def step_all(self) -> tuple:
        """Steps every env (nothing else in flight) and returns the batch, as ``gather``."""
        for w, msg in enumerate(self._step_all):
            self._send(w, msg)
        for w in range(len(self.conns)):
            self._recv(w)
        b = self.buffers
        obs = {k: v.copy() for k, v in b.obs.items()} if isinstance(b.obs, dict) else b.obs.copy()
        return obs, b.reward.copy(), b.terminated.copy(), b.truncated.copy(), b.elapsed.copy()

    def _send(self, w: int, msg: bytes) -> None:
        try:
            self.conns[w].send_bytes(msg)
        except OSError as err:  # BrokenPipeError among them
            raise self._died(w) from err
        self._busy[w] += 1

    def _recv(self, w: int) -> np.ndarray:
        try:
            raw = self.conns[w].recv_bytes()
        except (EOFError, OSError) as err:
            raise self._died(w) from err
        if raw[:8] == _FAILED:
            self.procs[w].join(1.0)
            raise PoolEnvFailed(f"{raw[8:].decode()} (in pool worker {w}, which stopped)")
        self._busy[w] -= 1
        return np.frombuffer(raw, np.int64)

    def render(self, ids: np.ndarray) -> list:
        """Each env's frame, asked of its worker (the pool has nothing in flight)."""
        frames = []
        for i in ids.tolist():
            w = int(self.owner[i])
            self._send(w, np.array([i], np.int64).tobytes())
            try:
                error, frame = self.conns[w].recv()
            except (EOFError, OSError) as err:
                raise self._died(w) from err
            self._busy[w] -= 1
            if error is not None:  # as a pool without workers raises it; the env runs on
                raise error
            frames.append(frame)
        return frames

    def _died(self, w: int) -> PoolWorkerDied:
        self.procs[w].join(1.0)
        return PoolWorkerDied(f"pool worker {w} died (exit code {self.procs[w].exitcode})")

    def poll(self, block: bool = True) -> np.ndarray:
        busy = [w for w, n in enumerate(self._busy) if n]
        if not busy:
            return np.zeros(0, np.int64)
        if len(busy) == 1 and block:  # a plain blocking read: cheaper than a selector
            return self._recv(busy[0])
        # Only busy workers ever write, so every readable pipe belongs to one.
        ready = self._selector.select(None if block else 0)
        out = [self._recv(key.data) for key, _ in ready]
        return np.concatenate(out) if out else np.zeros(0, np.int64)

    def close(self) -> None:
        for conn in self.conns:
            try:
                conn.send_bytes(b"")
            except (BrokenPipeError, OSError):
                pass
        for proc in self.procs:
            proc.join(2.0)
            if proc.is_alive():
                proc.kill()
                proc.join(2.0)
        self._selector.close()
        for conn in self.conns:
            conn.close()
        self.conns, self.procs = [], []
