"""Env managers: step many envs through one dict-keyed interface, the one LightZero's collectors use.

``BaseEnvManager`` runs the envs one after another in the caller's process;
``SubprocessEnvManager`` runs each in a worker process. Both follow DI-engine's manager
contract: ``launch()``; ``ready_obs`` (env id -> observation of each env waiting for an action);
``step({env_id: action})`` -> ``{env_id: BaseEnvTimestep}``; an env whose episode ended is reset
automatically (``auto_reset``) and its next first observation appears in ``ready_obs``.

An action an env cannot take is the caller's error, not the env's: an action outside a ready
observation's ``action_mask`` is refused before any env steps, and an env that rejects its
action itself (it raises ``IllegalActionError`` or ``GameOverError``, having changed nothing)
has the error raised from ``step``, naming the env, and stays ready as it was.

A failing env (it raised anything else, its worker died, or it hung past the timeout) never
takes the others down: its timestep is ``BaseEnvTimestep(None, [0.], True, {'abnormal': True, ...})``,
its handle is restarted (and reseeded with its seed), and with ``auto_reset`` it starts a new
episode while the other envs' episodes go on untouched.
"""

from __future__ import annotations

import copy
import enum
import multiprocessing as mp
import time
import warnings
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from easydict import EasyDict

from lzero.envs.base_env import BaseEnvTimestep
from lzero.envs.config import (
    is_int,
    is_number,
    merge_config,
    raise_unknown_keys,
    unknown_keys,
)
from lzero.envs.env_manager.env_attributes import EnvAttributeForwarding
from lzero.envs.env_manager.env_handle import (
    REJECTIONS,
    EnvFailure,
    EnvRejected,
    EnvTimeout,
    InProcessEnv,
)
from lzero.envs.env_manager.manager_state import SavableEnvs
from lzero.errors import ConfigError, EnvFailureWarning, IllegalActionError, ManagerStateError


class EnvState(enum.IntEnum):
    """The state of one env in a manager, under DI-engine's names (``env_states``)."""

    VOID = 0  # not launched (or closed)
    INIT = 1  # launched, not reset yet
    RUN = 2  # waiting for an action (in ready_obs)
    RESET = 3  # being reset
    DONE = 4  # its episodes are over (episode_num played, or waiting for a manual reset)
    ERROR = 5  # failed; restarted at its next reset
    NEED_RESET = 6  # its episode ended without auto_reset: waits for reset({env_id: ...})


#: Keys of DI-engine's compiled manager configs that no manager here takes, and why.
DI_ENGINE_ONLY_KEYS = {
    "retry_type": "a failed env is always rebuilt (DI-engine's 'renew')",
    "retry_waiting_time": "restarts follow at once",
    "wait_num": "asynchronous steps are the Ray manager's (type 'ray')",
    "step_wait_timeout": "asynchronous steps are the Ray manager's (type 'ray')",
    "cfg_type": "DI-engine's compiled-config marker",
    "copy_on_get": "observations are always copies",
    "reset_inplace": "resets always make new observations",
}


# Fork starts a worker in milliseconds and needs no picklable factory; elsewhere, spawn.
DEFAULT_CONTEXT = "fork" if "fork" in mp.get_all_start_methods() else "spawn"


def _close_all(handles: list) -> None:
    for handle in handles:
        handle.close()
    handles.clear()


def _seed_value(seed: object) -> int:
    if not is_int(seed) or seed < 0:
        raise ValueError(f"seed: expected non-negative int seeds, got {seed!r}")
    return int(seed)


class BaseEnvManager(EnvAttributeForwarding, SavableEnvs):
    """Steps a list of envs sequentially in the caller's process.

    Args:
        env_fn: one factory per env (``env_fn[i]()`` builds env ``i``), each returning a
            :class:`~lzero.envs.BaseEnv` (or anything with its ``seed/reset/step/close``).
        cfg: overrides of :attr:`config`; unknown keys raise ``ConfigError``.

    Raises:
        ValueError: ``env_fn`` is not a non-empty list of callables.
    """

    config: dict = dict(
        # (bool) Reset an env as soon as its episode ends; its new first obs joins ready_obs.
        auto_reset=True,
        # (int | float) Episodes each env plays before it leaves ready_obs for good (inf: no limit).
        episode_num=float("inf"),
        # (int) Attempts to restart a failed env before the manager gives up and raises.
        max_retry=3,
        # (int) Steps in a row an env may fail (raise, die or hang: each is reported as an
        # abnormal timestep, warned about and restarted) before ``step`` raises an error
        # naming the env, instead of a collector looping forever on an env that always fails.
        max_consecutive_failures=5,
        # The keys below configure SubprocessEnvManager's workers; BaseEnvManager accepts and
        # ignores them, so one config (LightZero's ``env.manager``) serves either manager.
        # (float | None) Seconds a step may take before its env counts as hung (None: no limit).
        step_timeout=60.0,
        # (float | None) Seconds a seed or reset may take before its env counts as hung.
        reset_timeout=120.0,
        # (str) multiprocessing start method of the workers: 'fork', 'spawn' or 'forkserver'.
        context=DEFAULT_CONTEXT,
        # (bool) Pass array observations through shared memory instead of pickling them.
        shared_memory=True,
        # (float | None) DI-engine's seconds SubprocessEnvManager waits for a worker's answer
        # to a reset (the shorter of this and reset_timeout applies there).
        connect_timeout=60.0,
    )
    _handle_cls: type = InProcessEnv

    def __init__(self, env_fn: list[Callable[[], Any]], cfg: Mapping | None = None) -> None:
        if not isinstance(env_fn, (list, tuple)) or not env_fn or not all(map(callable, env_fn)):
            raise ValueError(f"env_fn: expected a non-empty list of env factories, got {env_fn!r}")
        where = f"{type(self).__name__} config"
        self.check_config(cfg, where)
        self._cfg = merge_config(self.default_config(), cfg, where=where)
        self._check_values(self._cfg, where)
        self._env_fn = list(env_fn)
        self.env_num = len(env_fn)
        self._handles: list = []
        self._finalizer = None
        self._seeds: list[int] | None = None
        self._dynamic_seed = True
        self._seed_pending = [False] * self.env_num
        self._ready_obs: dict[int, Any] = {}
        self._episodes = [0] * self.env_num
        self._closed = False
        self._reference_spaces: dict | None = None
        self._sent_obs: dict[int, Any] = {}

    @classmethod
    def check_config(cls, cfg: Mapping | None, where: str) -> None:
        """Checks a config's keys before anything is built (a training entry's config
        compiler calls it too).

        Raises:
            ConfigError: DI-engine's keys this manager does not take (with the reason), or
                unknown keys (with the closest valid one).
        """
        cls._refuse_di_engine_only_keys(cfg, where)
        if isinstance(cfg, Mapping):
            raise_unknown_keys(unknown_keys(cls.config, cfg, where))

    @staticmethod
    def _check_values(cfg: Mapping, where: str) -> None:
        """Checks the values of :attr:`config`'s keys, before any env is built: a negative
        ``max_retry`` crashed ``launch``, a negative timeout made every step a failure, and a
        string ``auto_reset`` or ``shared_memory`` read as True.

        Raises:
            ConfigError: the first value of a wrong type or out of range, and what is allowed.
        """

        def refuse(key: str, allowed: str) -> None:
            raise ConfigError(f"{where}: expected {key} to be {allowed}, got {cfg[key]!r}")

        for key in ("auto_reset", "shared_memory"):
            if not isinstance(cfg[key], (bool, np.bool_)):
                refuse(key, "True or False")
        for key, lowest in (("max_retry", 0), ("max_consecutive_failures", 1)):
            if not is_int(cfg[key]) or cfg[key] < lowest:
                refuse(key, f"an int >= {lowest}")
        n = cfg.episode_num
        if not (is_int(n) and n >= 1) and n != float("inf"):
            refuse("episode_num", "an int >= 1 or float('inf') (no limit)")
        for key in ("step_timeout", "reset_timeout", "connect_timeout"):
            t = cfg[key]
            if t is not None and not (is_number(t) and 0 < t < float("inf")):
                refuse(key, "a positive number of seconds, or None (no limit)")
        methods = mp.get_all_start_methods()
        if cfg.context not in methods:
            refuse("context", f"one of {methods} (a multiprocessing start method)")

    @classmethod
    def _refuse_di_engine_only_keys(cls, cfg: Mapping | None, where: str) -> None:
        """Names DI-engine's keys this manager does not take, with the reason, rather than
        a close match among ours (``wait_num`` is not a misspelt ``episode_num``)."""
        if not isinstance(cfg, Mapping):
            return
        given = [k for k in cfg if k in DI_ENGINE_ONLY_KEYS and k not in cls.config]
        if given:
            reasons = "; ".join(f"{k}: {DI_ENGINE_ONLY_KEYS[k]}" for k in given)
            raise ConfigError(
                f"{where}: DI-engine's keys {given} are not taken here ({reasons}). Valid "
                f"keys: {sorted(cls.config)}"
            )

    @classmethod
    def default_config(cls) -> EasyDict:
        """Returns a deep copy of the documented defaults."""
        return EasyDict(copy.deepcopy(cls.config))

    # ------------------------------------------------------------------ lifecycle
    @property
    def launched(self) -> bool:
        """True between :meth:`launch` and :meth:`close`."""
        return bool(self._handles)

    def launch(self, reset_param: Mapping[int, dict] | None = None) -> None:
        """Builds the envs (or starts their workers) and resets them.

        Raises:
            RuntimeError: the manager is already launched.
            ValueError: ``reset_param`` does not map every env id to a dict (or None), as
                DI-engine asserts; nothing is started then.
        """
        if self.launched:  # a ManagerStateError: a RuntimeError, and DI-engine asserts
            raise ManagerStateError(
                "launch: expected a manager not launched yet, got a running one"
            )
        if reset_param is None:
            reset_param = {i: {} for i in range(self.env_num)}
        self._check_reset_param(reset_param)
        if sorted(reset_param) != list(range(self.env_num)):
            raise ValueError(
                f"launch: expected reset_param to name every env 0..{self.env_num - 1} (as "
                f"DI-engine asserts; reset() takes some), got ids {sorted(reset_param)}"
            )
        self._closed = False
        self._handles = self._make_handles()
        self._finalizer = weakref.finalize(self, _close_all, self._handles)
        self._ready_obs = {}
        self._failures = [0] * self.env_num
        self._episodes = [0] * self.env_num
        try:
            for env_id in range(self.env_num):  # enable_save_replay before launch (DI-engine's)
                self._apply_replay_path(env_id)
        except RuntimeError:
            self.close()  # not launched after all
            raise
        self._reset_envs({i: dict(p or {}) for i, p in reset_param.items()})

    def seed(
        self, seed: int | list[int] | dict[int, int], dynamic_seed: bool | None = True
    ) -> None:
        """Seeds env ``i`` with ``seed + i`` (or ``seed[i]``) at its next reset; a dict
        ``{env_id: seed}`` (DI-engine's) reseeds those envs only, after a first full seed.
        ``dynamic_seed`` None is the envs' default, True (DI-engine then leaves it to the env).

        Raises:
            ValueError: ``seed`` is neither a non-negative int nor a list of ``env_num`` of them,
                nor a dict of env ids to them after a full seed.
        """
        if isinstance(seed, dict):
            if self._seeds is None:
                raise ValueError(
                    "seed: expected a seed of every env (an int or a list) before a dict of "
                    "some, as DI-engine requires"
                )
            self._check_ids(seed, range(self.env_num), "seed")
            seeds = list(self._seeds)
            for env_id, s in seed.items():
                seeds[env_id] = _seed_value(s)
            pending = list(seed)
        elif is_int(seed) and seed >= 0:
            seeds, pending = [int(seed) + i for i in range(self.env_num)], range(self.env_num)
        elif isinstance(seed, (list, tuple)) and len(seed) == self.env_num:
            seeds, pending = [_seed_value(s) for s in seed], range(self.env_num)
        else:
            raise ValueError(
                f"seed: expected a non-negative int or a list of {self.env_num} ints, got {seed!r}"
            )
        self._seeds = seeds
        self._dynamic_seed = True if dynamic_seed is None else bool(dynamic_seed)
        for env_id in pending:
            self._seed_pending[env_id] = True

    def reset(self, reset_param: Mapping[int, dict] | None = None) -> None:
        """Resets the envs named in ``reset_param`` (``{env_id: reset kwargs}``), or all of them.

        Episode counts (for ``episode_num``) start at :meth:`launch` only, as DI-engine's: a
        reset keeps them, so that ``episode_num`` ends a loop that resets finished envs
        (DI-engine's, with ``auto_reset=False``); close and launch again to count afresh.

        Raises:
            ManagerStateError: the manager is not launched (a RuntimeError and, as in
                DI-engine, an AssertionError).
            ValueError: ``reset_param`` names an env id that does not exist.
        """
        if not self.launched:
            state = "a closed one" if self._closed else "one not launched yet"
            raise ManagerStateError(
                f"reset: expected a launched manager (launch() first), got {state}"
            )
        if reset_param is None:
            reset_param = {i: {} for i in range(self.env_num)}
        self._check_reset_param(reset_param)
        self._reset_envs({i: dict(p or {}) for i, p in reset_param.items()})

    def close(self) -> None:
        """Stops every env (and worker process); the manager may be launched again."""
        if self._finalizer is not None:
            self._finalizer()  # closes the handles exactly once
        self._handles, self._ready_obs, self._closed = [], {}, True

    def __enter__(self) -> BaseEnvManager:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ stepping
    @property
    def ready_obs(self) -> dict[int, Any]:
        """``{env_id: obs}`` of the envs waiting for an action."""
        return dict(self._ready_obs)

    @property
    def env_states(self) -> dict[int, EnvState]:
        """Each env's :class:`EnvState`: RUN if it waits for an action, DONE once it played
        ``episode_num`` episodes, NEED_RESET if its episode ended without ``auto_reset``,
        VOID before launch or after close."""
        if not self.launched:
            return dict.fromkeys(range(self.env_num), EnvState.VOID)
        return {i: self._state_of(i) for i in range(self.env_num)}

    def _state_of(self, env_id: int) -> EnvState:
        if env_id in self._ready_obs:
            return EnvState.RUN
        if self._episodes[env_id] >= self._cfg.episode_num:
            return EnvState.DONE
        return EnvState.NEED_RESET

    def env_state_done(self, env_id: int) -> bool:
        """Whether env ``env_id`` played its ``episode_num`` episodes (DI-engine's name)."""
        return self.launched and self._state_of(env_id) == EnvState.DONE

    @property
    def ready_env(self) -> list[int]:
        """Sorted ids of the envs waiting for an action."""
        return sorted(self._ready_obs)

    #: DI-engine's names of :attr:`ready_env` (the envs in state RUN).
    ready_obs_id = active_env = ready_env

    @property
    def done(self) -> bool:
        """True once every env played its ``episode_num`` episodes (DI-engine's: every env
        DONE). An env whose episode ended without ``auto_reset`` waits for ``reset({env_id:
        {}})`` (NEED_RESET) and keeps the manager from being done."""
        return self.launched and all(
            self._state_of(i) == EnvState.DONE for i in range(self.env_num)
        )

    @property
    def observation_space(self) -> Any:
        """Env 0's observation space (DI-engine's: one space for all the envs); before
        :meth:`launch` read from a reference env built and closed for it."""
        return self._space("observation_space")

    @property
    def action_space(self) -> Any:
        """Env 0's action space (see :attr:`observation_space`)."""
        return self._space("action_space")

    @property
    def reward_space(self) -> Any:
        """Env 0's reward space (see :attr:`observation_space`)."""
        return self._space("reward_space")

    @property
    def closed(self) -> bool:
        """DI-engine's: True unless the manager is launched (before launch and after close)."""
        return not self.launched

    def random_action(self) -> dict[int, Any]:
        """DI-engine's: ``{env_id: action}`` for the ready envs, each env's own
        ``random_action()`` (seeded by the env; a board env's is a legal move, where
        DI-engine samples the action space, which knows no mask)."""
        return {env_id: self._call_env(env_id, "random_action") for env_id in self.ready_obs}

    def _space(self, name: str) -> Any:
        if self.launched:
            try:
                return self._ask_env(0, "getattr", name)
            except EnvTimeout as err:  # not a missing attribute: an env too slow to answer
                raise RuntimeError(
                    f"{name}: env 0 did not answer within step_timeout ({err})"
                ) from None
            except (EnvFailure, EnvRejected) as err:
                raise AttributeError(f"env 0 has no attribute {name!r} ({err})") from None
        if self._reference_spaces is None:
            env = self._env_fn[0]()
            try:
                self._reference_spaces = {
                    key: getattr(env, key, None)
                    for key in ("observation_space", "action_space", "reward_space")
                }
            finally:
                env.close()
        return self._reference_spaces[name]

    def step(self, actions: Mapping[int, Any]) -> dict[int, BaseEnvTimestep]:
        """Plays one action in each named env.

        Args:
            actions: ``{env_id: action}`` for some or all of the envs in ``ready_obs``.

        Returns:
            ``{env_id: BaseEnvTimestep}`` for the same ids. A failed env's timestep has
            ``obs=None``, ``done=True`` and ``info={'abnormal': True, 'env_id': ..., 'error': ...}``.

        Raises:
            ManagerStateError: the manager is not launched or closed (a RuntimeError and an
                AssertionError, as in DI-engine).
            ValueError: an id is not among the ready envs (no env is stepped then).
            IllegalActionError: an action outside its env's ready ``action_mask`` (no env is
                stepped then), or one the env rejected itself (also ``GameOverError``): that
                env stays ready as it was, the others in ``actions`` have stepped and their
                timesteps are the error's ``timesteps``.
        """
        self._check_launched("step")
        self._check_actions(actions)
        self._send_steps(actions)
        return self._receive(list(actions), self._deadline("step_timeout"))

    def _check_actions(self, actions: Any) -> None:
        """Refuses ids not ready and actions outside their env's mask, before any step."""
        self._check_ids(actions, self._ready_obs, "actions")
        for env_id, action in actions.items():
            self._check_masked(env_id, action)

    def _check_masked(self, env_id: int, action: Any) -> None:
        """Refuses an action outside the ``action_mask`` of env ``env_id``'s ready dict
        observation (LightZero's contract), before any env steps."""
        obs = self._ready_obs[env_id]
        mask = obs.get("action_mask") if isinstance(obs, Mapping) else None
        if mask is None:
            return
        arr = np.asarray(action)
        if arr.size != 1 or arr.dtype.kind not in "iu":
            return  # not an index (a continuous action, say): the env decides
        mask = np.asarray(mask).reshape(-1)
        index = int(arr.reshape(()))
        if not (0 <= index < mask.size and mask[index]):
            raise IllegalActionError(
                f"actions: env {env_id} expected a legal action {np.flatnonzero(mask).tolist()}, "
                f"got {index} (no env was stepped)"
            )

    def _send_steps(self, actions: Mapping[int, Any]) -> None:
        """Sends one step to each named env; they leave ``ready_obs`` until they answer."""
        for env_id, action in actions.items():
            flag = self._cfg.auto_reset and self._episodes[env_id] + 1 < self._cfg.episode_num
            self._handles[env_id].send("step", (action, flag))
            self._sent_obs[env_id] = self._ready_obs.pop(env_id)

    def _receive(self, ids: list[int], deadline: float | None) -> dict[int, BaseEnvTimestep]:
        """Collects the answers of the stepped envs ``ids``: counts episodes and failures,
        restarts (and with ``auto_reset`` resets) the failed envs."""
        timesteps, failed, rejected = {}, {}, {}
        for env_id in ids:
            sent_obs = self._sent_obs.pop(env_id, None)
            try:
                timestep, reset_obs = self._handles[env_id].recv(deadline)
            except EnvFailure as err:
                failed[env_id] = str(err)
                continue
            except EnvRejected as err:  # the caller's error: the env changed nothing
                rejected[env_id] = err
                self._ready_obs[env_id] = sent_obs
                continue
            timesteps[env_id] = timestep
            self._failures[env_id] = 0
            if not timestep.done:
                self._ready_obs[env_id] = timestep.obs
                continue
            self._episodes[env_id] += 1
            if reset_obs is not None:
                self._ready_obs[env_id] = reset_obs
        for env_id, message in failed.items():
            self._failures[env_id] += 1
            if self._failures[env_id] >= self._cfg.max_consecutive_failures:
                # A fresh worker, so a hung env does not hold up the next reset.
                self._restart(env_id)
                raise RuntimeError(
                    f"step: env {env_id} failed {self._failures[env_id]} steps in a row "
                    f"(max_consecutive_failures); last error: {message}"
                )
            warnings.warn(
                f"env {env_id} failed and is restarted (failure {self._failures[env_id]} in a "
                f"row): {message}",
                EnvFailureWarning,
                stacklevel=2,
            )
            info = {"abnormal": True, "env_id": env_id, "error": message}
            timesteps[env_id] = BaseEnvTimestep(None, np.zeros(1, np.float32), True, info)
            self._restart(env_id)
            if self._cfg.auto_reset:
                self._reset_envs({env_id: {}})
        if rejected:
            env_id, err = next(iter(rejected.items()))
            message = f"step: env {env_id} rejected its action: {err.error}"
            try:
                error = type(err.error)(message)
            except Exception:  # a subclass with another signature: its base class says it
                error = next(c for c in REJECTIONS if isinstance(err.error, c))(message)
            error.timesteps = timesteps
            raise error from err.error
        return {env_id: timesteps[env_id] for env_id in ids}

    # ------------------------------------------------------------------ internals
    def _make_handles(self) -> list:
        handles = []
        try:
            for i, fn in enumerate(self._env_fn):
                handles.append(self._handle_cls(fn, i, self._cfg))
        except BaseException:  # env i could not be built: the envs built so far are closed
            _close_all(handles)
            raise
        return handles

    def _check_launched(self, what: str) -> None:
        if not self.launched:
            state = "a closed one" if self._closed else "one not launched yet"
            raise ManagerStateError(f"{what}: expected a launched manager, got {state}")

    def _deadline(self, key: str) -> float | None:
        timeout = self._cfg.get(key)
        return None if timeout is None else time.monotonic() + float(timeout)

    def _check_reset_param(self, reset_param: Any) -> None:
        self._check_ids(reset_param, range(self.env_num), "reset_param")
        for env_id, param in reset_param.items():
            if param is not None and not isinstance(param, Mapping):
                raise ValueError(
                    f"reset_param: expected a dict of reset keyword arguments (or None) for "
                    f"env {env_id}, got {param!r}"
                )

    @staticmethod
    def _check_ids(given: Any, valid: Any, what: str) -> None:
        if not isinstance(given, Mapping):
            raise ValueError(f"{what}: expected a dict env_id -> value, got {type(given).__name__}")
        kind = "env ids" if isinstance(valid, range) else "ids of ready envs"
        for env_id in given:  # an int: 1.0 and True are in range(2) too
            if not is_int(env_id) or env_id not in valid:
                raise ValueError(f"{what}: expected {kind} {sorted(valid)}, got env id {env_id!r}")

    def _restart(self, env_id: int) -> None:
        try:
            self._handles[env_id].restart()
            self._apply_replay_path(env_id)  # the new env records as the old one did
        except (EnvFailure, RuntimeError):
            pass  # the new handle is broken too: the next reset reports it and retries
        self._seed_pending[env_id] = self._seeds is not None

    def _reset_envs(self, params: dict[int, dict]) -> None:
        """Seeds (if pending) and resets the envs in ``params``, restarting any that fail."""
        todo = dict(params)
        for _attempt in range(int(self._cfg.max_retry) + 1):
            deadline = self._deadline("reset_timeout")
            errors = {}
            seeding = [i for i in todo if self._seed_pending[i]]
            for env_id in seeding:
                self._ready_obs.pop(env_id, None)
                self._handles[env_id].send("seed", (self._seeds[env_id], self._dynamic_seed))
            for env_id in seeding:
                try:
                    self._handles[env_id].recv(deadline)
                    self._seed_pending[env_id] = False
                except EnvFailure as err:
                    errors[env_id] = str(err)
            for env_id in todo:
                self._ready_obs.pop(env_id, None)
                if env_id not in errors:
                    self._handles[env_id].send("reset", todo[env_id])
            for env_id in todo:
                if env_id not in errors:
                    try:
                        self._ready_obs[env_id] = self._handles[env_id].recv(deadline)
                    except EnvFailure as err:
                        errors[env_id] = str(err)
            if not errors:
                return
            for env_id in errors:
                self._restart(env_id)
            todo = {i: todo[i] for i in errors}
        self.close()  # as DI-engine: a manager that gave up is closed, to be launched again
        raise RuntimeError(
            f"reset: envs {sorted(errors)} still fail after {self._cfg.max_retry} restarts; "
            f"last error: {next(iter(errors.values()))}"
        )
