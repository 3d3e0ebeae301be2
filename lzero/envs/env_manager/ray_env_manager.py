"""``RayEnvManager``: the envs of a :class:`BaseEnvManager` in Ray actors, a chunk per actor.

The envs are split into ``actor_num`` contiguous chunks; each actor builds its chunk's envs
and runs the commands sent to them (see :mod:`.env_handle`), one remote call per actor per
round, so a step of 8 envs on 2 actors costs two remote calls, made in parallel. The
bookkeeping (seeds, auto reset, episode counts, failures) is :class:`BaseEnvManager`'s.

Faults: an env that raises is rebuilt alone inside its actor. An actor that dies (killed, or
its process exits) or hangs past ``step_timeout`` fails every env of its chunk: each is reported
as an abnormal timestep naming the env and the actor, the actor is replaced, its envs are
reseeded and reset; envs in other actors keep their episodes. An env of the dead actor that
was not being stepped reports the failure at its next step.

Stepping is synchronous by default. With ``wait_num`` set (DI-engine's asynchronous manager),
``step`` returns once ``wait_num`` envs have answered (rounded up to whole actors, which
answer for their chunk at once), or after ``step_wait_timeout`` seconds with whatever has
answered; the other envs stay in flight, out of ``ready_obs``, and their timesteps come with
a later ``step`` (``step({})`` only collects them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from lzero.envs.base_env import BaseEnvTimestep
from lzero.envs.env_manager.base_env_manager import BaseEnvManager, EnvState
from lzero.envs.env_manager.env_handle import EnvFailure
from lzero.envs.env_manager.ray_hub import ActorHub, RayEnvHandle
from lzero.envs.env_manager.ray_session import RAY_CONFIG, check_ray_config, import_ray
from lzero.errors import ConfigError


class RayEnvManager(BaseEnvManager):
    """Steps a list of envs in Ray actors, ``actor_num`` chunks of envs (see the module docstring).

    Args:
        env_fn: one factory per env; Ray pickles them (cloudpickle) to the actors.
        cfg: overrides of :attr:`config`; unknown keys raise ``ConfigError``.

    Raises:
        MissingExtraError: Ray is not installed (``pip install -e ".[ray]"``).
    """

    config: dict = dict(
        BaseEnvManager.config,
        **RAY_CONFIG,
        # (int | None) DI-engine's asynchronous stepping: step returns once this many envs have
        # answered (whole actors at a time). None: every step waits for all its envs.
        wait_num=None,
        # (float | None) With wait_num: seconds step waits for wait_num envs before it returns
        # the ones that have answered (at least one). None: wait for wait_num envs.
        step_wait_timeout=None,
    )

    def __init__(self, env_fn: list[Callable[[], Any]], cfg: Mapping | None = None) -> None:
        import_ray()
        super().__init__(env_fn, cfg)
        check_ray_config(self._cfg, "RayEnvManager config")
        w, t = self._cfg.wait_num, self._cfg.step_wait_timeout
        if w is not None and (isinstance(w, bool) or not isinstance(w, int) or w < 1):
            raise ConfigError(
                f"RayEnvManager config: expected wait_num to be a positive int or None, got {w!r}"
            )
        if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or t < 0):
            raise ConfigError(
                f"RayEnvManager config: expected step_wait_timeout >= 0 or None, got {t!r}"
            )
        self._pending: dict[int, float] = {}  # env id -> when its step was sent (async only)
        self._hub: ActorHub | None = None

    def _make_handles(self) -> list:
        self._pending = {}
        self._hub = ActorHub(self._env_fn, self._cfg)
        return [RayEnvHandle(self._hub, i) for i in range(self.env_num)]

    @property
    def actor_pids(self) -> list[int]:
        """Process ids of the actors (one per chunk), for tests and monitoring."""
        hub = self._hub
        return (
            hub.ray.get([actor.pid.remote() for actor in hub.actors.actors])
            if self.launched
            else []
        )

    @property
    def actor_of_env(self) -> dict[int, int]:
        """``{env id: actor index}``: which actor each env lives in."""
        return (
            {e: a for a, chunk in enumerate(self._hub.chunks) for e in chunk} if self._hub else {}
        )

    @property
    def done(self) -> bool:
        return super().done and not self._pending

    @property
    def env_states(self) -> dict[int, EnvState]:
        states = super().env_states
        return {**states, **dict.fromkeys(self._pending, EnvState.RUN)} if self.launched else states

    def step(self, actions: Mapping[int, Any]) -> dict[int, BaseEnvTimestep]:
        if self._cfg.wait_num is None:
            return super().step(actions)
        self._check_launched("step")
        self._check_actions(actions)
        self._send_steps(actions)
        self._pending.update(dict.fromkeys(actions, time.monotonic()))
        if not self._pending:
            return {}
        cfg = self._cfg
        ready = self._hub.wait(self._pending, cfg.wait_num, cfg.step_wait_timeout, cfg.step_timeout)
        for env_id in ready:
            del self._pending[env_id]
        return self._receive(ready, time.monotonic())

    def reset(self, reset_param: Mapping[int, dict] | None = None) -> None:
        if self.launched:  # answers still in flight belong to the episodes being reset
            for env_id in [e for e in self._pending if reset_param is None or e in reset_param]:
                del self._pending[env_id]
                try:
                    self._hub.recv(env_id, self._deadline("step_timeout"))
                except EnvFailure:
                    self._restart(env_id)
        super().reset(reset_param)

    def close(self) -> None:
        self._pending = {}
        super().close()
        self._hub = None
