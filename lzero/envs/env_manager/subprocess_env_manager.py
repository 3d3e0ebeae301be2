"""``SubprocessEnvManager``: the envs of a :class:`BaseEnvManager`, each in a worker process.

Each env runs in its own worker, so one env that crashes, dies or hangs is restarted alone.
Array observations come back through shared memory (see :mod:`.shm`); steps of different
envs run in parallel, as ``step`` sends every action before it waits for any answer.

Workers ignore Ctrl-C (the manager decides when they stop), exit when the manager's end of
their pipe closes, and are daemon processes: ``close()``, garbage collection, interpreter exit
after a ``KeyboardInterrupt`` and the death of the manager's process all leave none behind.
"""

from __future__ import annotations

from lzero.envs.env_manager.base_env_manager import BaseEnvManager
from lzero.envs.env_manager.env_handle import WorkerProcess


class SubprocessEnvManager(BaseEnvManager):
    """Steps a list of envs in parallel worker processes, one env per worker.

    Args:
        env_fn: one factory per env; a lambda too with 'spawn' or 'forkserver' (sent with
            cloudpickle, as DI-engine's CloudpickleWrapper).
        cfg: overrides of :attr:`BaseEnvManager.config` (``step_timeout``, ``reset_timeout``,
            ``connect_timeout``, ``context`` and ``shared_memory`` apply here); unknown keys
            raise ``ConfigError``.
    """

    _handle_cls = WorkerProcess

    def __init__(self, env_fn, cfg=None) -> None:
        super().__init__(env_fn, cfg)  # checks context among the start methods too

    def _deadline(self, key: str) -> float | None:
        # DI-engine's subprocess managers wait at most connect_timeout for a worker's answer
        # to a reset (reset_timeout is its in-env watchdog), so a reset waits the shorter.
        deadline = super()._deadline(key)
        if key != "reset_timeout" or self._cfg.connect_timeout is None:
            return deadline
        connect = super()._deadline("connect_timeout")
        return connect if deadline is None else min(deadline, connect)

    @property
    def worker_pids(self) -> list[int]:
        """Process ids of the running workers (empty once closed)."""
        return [handle.pid for handle in self._handles]


class SyncSubprocessEnvManager(SubprocessEnvManager):
    """DI-engine's name of the synchronous subprocess manager: :class:`SubprocessEnvManager`."""


class AsyncSubprocessEnvManager(SubprocessEnvManager):
    """DI-engine's asynchronous subprocess manager, under its name. Here every ``step`` waits
    for all the envs it was given (DI-engine can return after ``wait_num`` of them): the same
    results, without the latency hiding; its ``wait_num`` and ``step_wait_timeout`` keys are
    not accepted, so a config that relies on them fails loudly."""
