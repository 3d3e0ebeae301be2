"""Handles through which a manager drives one env: in its own process, or in a worker process.

Both kinds answer the same commands, sent with ``send(cmd, arg)`` and collected with
``recv(deadline)``, so the manager's bookkeeping is written once:

* ``('seed', (seed, dynamic_seed))`` -> None
* ``('reset', kwargs)`` -> the first observation
* ``('step', (action, auto_reset))`` -> ``(timestep, reset_obs)``; ``reset_obs`` is the next
  episode's first observation when the episode ended and ``auto_reset`` is set, else None.
* ``('getattr', name)`` -> the env's attribute (an ``EnvMethod`` for a method);
  ``('call', (name, args, kwargs))`` -> what the env's method returns.
* ``('getstate', None)`` -> the env pickled (cloudpickle), bytes; ``('setstate', bytes)`` ->
  None, the env replaced by the unpickled one (a training run's checkpoint and its resume).

``recv`` raises :class:`EnvFailure` when the env raised, its process died, or it did not answer
before the deadline; the manager then restarts the handle. A step the env refused
(``IllegalActionError`` or ``GameOverError``: the caller's mistake, the env unchanged) raises
:class:`EnvRejected` instead, and the env keeps running.
"""

from __future__ import annotations

import inspect
import multiprocessing as mp
import signal
import time
import traceback
from collections.abc import Callable
from multiprocessing import resource_tracker
from typing import Any, NamedTuple

from lzero.envs.base_env import BaseEnvTimestep
from lzero.envs.env_manager.shm import ShmSlots, obs_layout
from lzero.envs.utils import crosses_processes, seed_env
from lzero.errors import GameOverError, IllegalActionError

#: What an env raises on an action it cannot take, having changed nothing.
REJECTIONS = (IllegalActionError, GameOverError)


class EnvMethod(NamedTuple):
    """What an env's attribute is when it is a method (the method itself stays in the env)."""

    name: str


class EnvFailure(Exception):
    """An env raised, its worker died, or it hung past the timeout."""


class EnvTimeout(EnvFailure):
    """An env did not answer before the deadline (its worker may still be working)."""


class EnvRejected(Exception):
    """An env refused the action of a step (``error``: what it raised); it is unchanged."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def run_command(env: Any, cmd: str, arg: Any) -> Any:
    """Executes one handle command on ``env`` (see the module docstring)."""
    if cmd == "step":
        action, auto_reset = arg
        timestep = BaseEnvTimestep(*env.step(action))  # any 4-tuple becomes the namedtuple
        reset_obs = env.reset() if timestep.done and auto_reset else None
        return timestep, reset_obs
    if cmd == "reset":
        return env.reset(**arg)
    if cmd == "seed":
        return seed_env(env, *arg)
    if cmd == "getattr":
        value = getattr(env, arg)
        return EnvMethod(arg) if inspect.ismethod(value) else value
    if cmd == "call":
        name, args, kwargs = arg
        return getattr(env, name)(*args, **kwargs)
    if cmd == "getstate":
        import cloudpickle

        return cloudpickle.dumps(env)
    raise ValueError(
        "expected a command in ['call', 'getattr', 'getstate', 'reset', 'seed', 'setstate', "
        f"'step'], got {cmd!r}"
    )


def replaced_env(env: Any, data: bytes) -> Any:
    """The env ``setstate`` puts in place of ``env`` (closed once the new one is unpickled)."""
    import pickle

    new = pickle.loads(data)
    try:
        env.close()
    except Exception:  # the old env's close failing must not lose the restored one
        pass
    return new


def _failure(err: Exception) -> tuple[str, str]:
    return "err", f"{type(err).__name__}: {err}"


def answer_to_error(err: Exception, cmd: str, failure: tuple[str, Any]) -> tuple[str, Any]:
    """What a handle answers when ``cmd`` raised ``err``: a refused step (``REJECTIONS``)
    is ``('rejected', error)``, the error itself if it can cross to the manager's process (a
    worker sends it), else its base class with its message; anything else is ``failure``."""
    if cmd != "step" or not isinstance(err, REJECTIONS):
        return failure
    if crosses_processes(err):
        return "rejected", err
    base = GameOverError if isinstance(err, GameOverError) else IllegalActionError
    return "rejected", base(str(err))


class InProcessEnv:
    """Runs the env in the manager's process; a raising env is reported, then rebuilt."""

    def __init__(self, env_fn: Callable[[], Any], env_id: int, cfg: Any) -> None:
        self._env_fn, self.env_id = env_fn, env_id
        self._env = env_fn()
        self._result: tuple = ("ok", None)

    def send(self, cmd: str, arg: Any) -> None:
        try:
            if cmd == "setstate":
                self._env, out = replaced_env(self._env, arg), None
                self._result = ("ok", out)
                return
            self._result = ("ok", run_command(self._env, cmd, arg))
        except Exception as err:  # the env's own bug: report it, do not crash the others
            self._result = answer_to_error(err, cmd, _failure(err))

    def recv(self, deadline: float | None) -> Any:
        status, value = self._result
        if status == "rejected":
            raise EnvRejected(value)
        if status != "ok":
            raise EnvFailure(value)
        return value

    def restart(self) -> None:
        self.close()
        self._env = self._env_fn()

    def close(self) -> None:
        try:
            self._env.close()
        except Exception:  # a broken env must not stop the others from closing
            pass


def _worker_main(conn: Any, parent_end: Any, env_fn: Callable[[], Any]) -> None:
    """Loop of a worker process: run commands until told to close or the manager is gone."""
    # Ctrl-C reaches the whole process group: the manager alone decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits lzero train's SIGTERM handler (which raises): it ends at once.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):  # the terminal closed: the manager ends, and then the workers
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if parent_end is not None:
        parent_end.close()  # else the pipe would never report EOF once the manager dies
    env, slots = env_fn(), None
    while True:
        try:
            seq, cmd, arg = conn.recv()
        except (EOFError, OSError):
            break
        if cmd == "close":
            break
        if cmd == "attach":
            slots = ShmSlots(*arg)
            conn.send((seq, "ok", None))
            continue
        try:
            if cmd == "setstate":
                env = replaced_env(env, arg)
                conn.send((seq, "ok", None))
                continue
            out = run_command(env, cmd, arg)
            if slots is not None and cmd == "reset":
                out = slots.put(0, out)
            elif slots is not None and cmd == "step":
                ts, reset_obs = out
                ts = ts._replace(obs=slots.put(0, ts.obs))
                out = ts, None if reset_obs is None else slots.put(1, reset_obs)
            conn.send((seq, "ok", out))
        except Exception as err:
            conn.send((seq, *answer_to_error(err, cmd, ("err", traceback.format_exc(limit=4)))))
    try:
        env.close()
    finally:
        if slots is not None:
            slots.close()


class CloudpickledFactory:
    """An env factory pickled with cloudpickle, as DI-engine's ``CloudpickleWrapper``: a lambda
    or a closure reaches a 'spawn' or 'forkserver' worker (plain pickle refuses them)."""

    def __init__(self, fn: Callable[[], Any]) -> None:
        self.fn = fn

    def __getstate__(self) -> bytes:
        import cloudpickle

        return cloudpickle.dumps(self.fn)

    def __setstate__(self, data: bytes) -> None:
        import pickle

        self.fn = pickle.loads(data)

    def __call__(self) -> Any:
        return self.fn()


class WorkerProcess:
    """Runs the env in a worker process; array observations come back through shared memory.

    Args:
        env_fn: builds the env (sent with cloudpickle to 'spawn' and 'forkserver' workers,
            so a lambda works too).
        env_id: the env's id in the manager, for messages.
        cfg: the manager config (``context``, ``shared_memory``).
    """

    def __init__(self, env_fn: Callable[[], Any], env_id: int, cfg: Any) -> None:
        self._ctx = mp.get_context(cfg.context)
        fork = self._ctx.get_start_method() == "fork"  # a forked worker needs no pickling
        self._env_fn = env_fn if fork else CloudpickledFactory(env_fn)
        self.env_id = env_id
        self._use_shm = bool(cfg.shared_memory)
        self._slots: ShmSlots | None = None
        self._cmd: str | None = None
        # Each command is numbered and its answer carries the number: the late answer of a
        # command that timed out is dropped, not read as the next command's.
        self._seq = 0
        self._start()

    def _start(self) -> None:
        if self._use_shm:  # workers must share the manager's tracker (see shm._attach)
            resource_tracker.ensure_running()
        self._conn, child = self._ctx.Pipe()
        self._proc = self._ctx.Process(
            target=_worker_main,
            args=(
                child,
                self._conn if self._ctx.get_start_method() == "fork" else None,
                self._env_fn,
            ),
            daemon=True,
            name=f"lzero-env-{self.env_id}",
        )
        self._proc.start()
        child.close()
        if self._slots is not None:  # a restarted worker writes into the same buffers
            self._attach()

    def _attach(self) -> None:
        self._post("attach", self._slots.spec())
        self._wait(time.monotonic() + 60.0)

    def _post(self, cmd: str, arg: Any) -> None:
        self._seq += 1
        self._conn.send((self._seq, cmd, arg))

    @property
    def pid(self) -> int | None:
        return self._proc.pid

    def send(self, cmd: str, arg: Any) -> None:
        self._cmd = cmd
        try:
            self._post(cmd, arg)
        except (BrokenPipeError, OSError):
            pass  # reported by recv, which sees the dead worker

    def _wait(self, deadline: float | None) -> Any:
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                if not self._conn.poll(timeout):
                    raise EnvTimeout(f"env {self.env_id}: no answer within the timeout")
                seq, status, value = self._conn.recv()
            except (EOFError, OSError) as err:
                code = self._proc.exitcode
                raise EnvFailure(f"env {self.env_id}: worker died (exit code {code})") from err
            if seq == self._seq:
                break  # else the answer of a command that timed out: dropped
        if status == "rejected":
            raise EnvRejected(value)
        if status != "ok":
            raise EnvFailure(f"env {self.env_id} raised:\n{value}")
        return value

    def recv(self, deadline: float | None) -> Any:
        out = self._wait(deadline)
        if self._cmd == "reset":
            return self._obs(0, out)
        if self._cmd == "step":
            ts, reset_obs = out
            ts = ts._replace(obs=self._obs(0, ts.obs))
            return ts, None if reset_obs is None else self._obs(1, reset_obs)
        return out

    def _obs(self, slot: int, obs: Any) -> Any:
        if self._slots is not None:
            return self._slots.get(slot, obs)
        if self._use_shm and obs_layout(obs):  # first observation: learn the layout
            self._slots = ShmSlots(obs_layout(obs))
            self._attach()
        return obs

    def restart(self) -> None:
        self._stop(graceful=False)
        self._start()

    def _stop(self, graceful: bool) -> None:
        if graceful and self._proc.is_alive():
            try:
                self._post("close", None)
            except (BrokenPipeError, OSError):
                pass
            self._proc.join(1.0)
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join(5.0)
        self._conn.close()

    def close(self) -> None:
        self._stop(graceful=True)
        if self._slots is not None:
            self._slots.close()
            self._slots = None
