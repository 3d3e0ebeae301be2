"""The Ray side of :class:`~lzero.envs.env_manager.RayEnvManager`: the actor that holds a
chunk of envs, the hub that batches the handles' commands per actor, and the env handle.

The hub keeps the handle contract of :mod:`.env_handle` (``send``, ``recv(deadline)``,
``restart``, ``close``), so the manager's bookkeeping stays :class:`BaseEnvManager`'s.
"""

from __future__ import annotations

import os
import re
import time
import traceback
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from lzero.envs.env_manager.env_handle import (
    EnvFailure,
    EnvRejected,
    EnvTimeout,
    answer_to_error,
    run_command,
)
from lzero.envs.env_manager.ray_session import ActorSet, acquire_ray, actor_count, release_ray
from lzero.errors import ConfigError

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class EnvActor:
    """The body of one Ray actor: the envs of a chunk, driven by batches of handle commands."""

    def __init__(self, env_fns: list[Callable[[], Any]]) -> None:
        self._fns, self._envs, self._error = env_fns, [], None
        try:
            self._envs = [fn() for fn in env_fns]
        except Exception as err:  # the factory's own error, for the driver to raise
            self._error = err

    def built(self) -> Exception | None:
        """None once every env of the chunk is built, else the error its factory raised."""
        return self._error

    def run(self, batch: list[tuple[int, str, Any]]) -> list[tuple[str, Any]]:
        """Runs ``(local index, cmd, arg)`` commands in order: ``('ok', out)`` or ``('err', tb)``."""
        if self._error is not None:  # a replacement actor whose factory failed: say so
            text = "".join(traceback.format_exception(self._error, limit=4))
            return [("err", text) for _ in batch]
        out = []
        for local, cmd, arg in batch:
            try:
                out.append(("ok", run_command(self._envs[local], cmd, arg)))
            except Exception as err:  # the env's own bug: report it, keep the chunk's other envs
                out.append(answer_to_error(err, cmd, ("err", traceback.format_exc(limit=4))))
        return out

    def rebuild(self, local: int) -> None:
        try:
            self._envs[local].close()
        except Exception:  # a broken env must not stop its replacement
            pass
        self._envs[local] = self._fns[local]()

    def pid(self) -> int:
        return os.getpid()


class ActorHub:
    """The actors of one manager, and the commands its env handles send them.

    ``send`` only queues a command; the first ``recv`` (or ``wait``) submits each actor's queue
    as one remote call, so every actor works at once while the manager waits for the first.
    """

    def __init__(self, env_fns: list[Callable[[], Any]], cfg: Any) -> None:
        self.ray = acquire_ray(cfg.ray_address, "RayEnvManager")
        n = len(env_fns)
        try:
            k = actor_count(self.ray, cfg, n, "RayEnvManager config")
        except ConfigError:
            release_ray()
            raise
        self.chunks = [c.tolist() for c in np.array_split(np.arange(n), k)]
        self.where = {e: (a, j) for a, chunk in enumerate(self.chunks) for j, e in enumerate(chunk)}
        remote = self.ray.remote(EnvActor).options(num_cpus=cfg.num_cpus_per_actor)
        try:
            self.actors = ActorSet(
                self.ray, lambda a: remote.remote([env_fns[e] for e in self.chunks[a]]), k
            )
        except BaseException:
            release_ray()
            raise
        try:
            self._check_built(cfg)
        except BaseException:
            self.actors.close()
            release_ray()
            raise
        self._queue: list[list] = [[] for _ in range(k)]
        self._inflight: dict[int, tuple] = {}  # env id -> (ref, position in the batch, actor)
        self._answers: dict[Any, Any] = {}  # ref -> its results, or the failure message
        self._dead: set[int] = set()  # actors to replace at their envs' next restart
        self._lost: set[int] = set()  # envs whose actor was replaced since their last reset
        self._open = n

    def _check_built(self, cfg: Any) -> None:
        """Waits for every actor to have built its envs; a factory that raises does so for
        every actor: its error is raised, as BaseEnvManager's.

        Raises:
            RuntimeError: the actors did not start within ``connect_timeout``.
        """
        k = len(self.actors)
        refs = [actor.built.remote() for actor in self.actors.actors]
        try:
            errors = self.ray.get(refs, timeout=cfg.connect_timeout)
        except self.ray.exceptions.GetTimeoutError as err:
            raise RuntimeError(
                f"RayEnvManager: expected {k} actors to start within connect_timeout "
                f"{cfg.connect_timeout:g} s, got fewer (Ray may lack the CPUs they reserve: "
                f"{k} * num_cpus_per_actor {cfg.num_cpus_per_actor:g}, beside other actors; or "
                "they are still building their envs: raise connect_timeout)"
            ) from err
        failed = next((e for e in errors if e is not None), None)
        if failed is not None:
            raise failed

    def _name(self, a: int) -> str:
        return f"Ray actor {a} (envs {self.chunks[a]})"

    def send(self, env_id: int, cmd: str, arg: Any) -> None:
        a, j = self.where[env_id]
        if env_id in self._lost and cmd == "step":  # its env was lost with its actor
            self._inflight[env_id] = (None, 0, a)
            return
        if cmd in ("seed", "reset"):  # the fresh env in the replacement actor starts here
            self._lost.discard(env_id)
        self._queue[a].append((env_id, j, cmd, arg))

    def flush(self) -> None:
        for a, queue in enumerate(self._queue):
            if queue:
                ref = self.actors[a].run.remote([(j, cmd, arg) for _, j, cmd, arg in queue])
                for pos, (env_id, *_) in enumerate(queue):
                    self._inflight[env_id] = (ref, pos, a)
                queue.clear()

    def recv(self, env_id: int, deadline: float | None) -> Any:
        self.flush()
        ref, pos, a = self._inflight.pop(env_id)
        if ref is None:
            raise EnvFailure(
                f"env {env_id}: lost with {self._name(a)}, which died and was replaced"
            )
        if ref not in self._answers:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                self._answers[ref] = self.ray.get(ref, timeout=timeout)
            except self.ray.exceptions.GetTimeoutError:
                message = f"{self._name(a)} gave no answer within the timeout"
                self._answers[ref] = EnvTimeout(message)
                self._dead.add(a)
            except self.ray.exceptions.RayActorError as err:
                text = _ANSI.sub("", str(err)).strip()  # Ray colours its actor names
                first = text.splitlines()[0] if text else type(err).__name__
                self._answers[ref] = EnvFailure(f"{self._name(a)} died: {first}")
                self._dead.add(a)
        answer = self._answers[ref]
        if all(r is not ref for r, _, _ in self._inflight.values()):
            del self._answers[ref]  # every env of that call has its answer
        if isinstance(answer, EnvFailure):  # EnvTimeout too
            raise type(answer)(f"env {env_id}: {answer}")
        status, value = answer[pos]
        if status == "rejected":
            raise EnvRejected(value)
        if status != "ok":
            raise EnvFailure(f"env {env_id} raised:\n{value}")
        return value

    def wait(self, pending: Mapping[int, float], num: int, wait_timeout: float | None,
             step_timeout: float | None) -> list[int]:  # fmt: skip
        """Ids of the pending envs (``{env id: time sent}``) whose answers are in: at least
        ``num`` of them, or after ``wait_timeout`` seconds at least one; envs pending longer
        than ``step_timeout`` are returned too (their ``recv`` reports the timeout)."""
        self.flush()
        start, num = time.monotonic(), min(num, len(pending))
        while True:
            refs = {self._inflight[e][0] for e in pending} - {None} - set(self._answers)
            done, _ = (
                self.ray.wait(list(refs), num_returns=len(refs), timeout=0) if refs else ([], [])
            )
            done = set(done)
            ready = [
                e
                for e in pending
                if self._inflight[e][0] not in refs or self._inflight[e][0] in done
            ]
            now = time.monotonic()
            late = [
                e for e in pending if step_timeout is not None and now - pending[e] >= step_timeout
            ]
            waited = wait_timeout is not None and now - start >= wait_timeout
            if len(ready) >= num or (waited and ready) or late:
                return sorted(set(ready) | set(late))
            limits = [start + wait_timeout - now] if wait_timeout is not None and not waited else []
            limits += [pending[e] + step_timeout - now for e in pending] if step_timeout else []
            self.ray.wait(
                list(refs - done), num_returns=1, timeout=max(0.0, min(limits)) if limits else None
            )

    def restart(self, env_id: int) -> None:
        a, j = self.where[env_id]
        if a in self._dead:
            self._dead.discard(a)
            self.actors.restart(a)
            self._lost.update(self.chunks[a])
        if env_id in self._lost:
            return  # a fresh env in the new actor: the manager reseeds and resets it
        try:
            self.ray.get(self.actors[a].rebuild.remote(j), timeout=60.0)
        except (self.ray.exceptions.RayError, self.ray.exceptions.GetTimeoutError) as err:
            self._dead.add(a)
            raise EnvFailure(f"env {env_id}: {self._name(a)} failed while rebuilding it") from err

    def close_env(self) -> None:
        """Called once per env; the last call kills the actors and releases Ray."""
        self._open -= 1
        if self._open == 0:
            self.actors.close()
            release_ray()


class RayEnvHandle:
    """An env handle (see :mod:`.env_handle`) whose env lives in an actor of ``hub``."""

    def __init__(self, hub: ActorHub, env_id: int) -> None:
        self._hub, self.env_id = hub, env_id

    def send(self, cmd: str, arg: Any) -> None:
        self._hub.send(self.env_id, cmd, arg)

    def recv(self, deadline: float | None) -> Any:
        return self._hub.recv(self.env_id, deadline)

    def restart(self) -> None:
        self._hub.restart(self.env_id)

    def close(self) -> None:
        self._hub.close_env()
