"""``DingEnvWrapper``: a BaseEnv over a gymnasium env or a legacy gym-style env.

The names follow DI-engine, whose users know them: ``DingEnvWrapper(env, cfg={'env_wrapper':
[...]})`` takes an env (or a factory of one) and a list of wrapper factories, applied in order,
innermost first. Legacy gym-style envs are detected by duck typing (not a ``gymnasium.Env``)
and adapted by :class:`~lzero.envs.wrappers.legacy.LegacyGymAdapter` *before* the wrappers,
so every wrapper factory receives a gymnasium-API env.
"""

from __future__ import annotations

import copy
import functools
import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from lzero.envs.base_env import BaseEnv, BaseEnvTimestep
from lzero.envs.utils import to_reward
from lzero.envs.wrappers.conversions import contract_space, to_contract_obs, to_gym_action
from lzero.envs.wrappers.default_wrappers import resolve_wrappers
from lzero.envs.wrappers.legacy import LegacyGymAdapter, check_env_id, make_task
from lzero.envs.wrappers.replay import (
    ReplayRecorder,
    check_replay_dir,
    check_replay_format,
    check_replay_fps,
    quiet_offscreen_rendering,
)
from lzero.errors import ConfigError, GameOverError, ReplayWriteWarning


@functools.cache
def _any_numbers(shape: tuple) -> spaces.Box:
    """A Box of any finite float64 numbers of ``shape`` (``act_scale``'s input check)."""
    return spaces.Box(-np.inf, np.inf, shape, np.float64)


def check_gym_like(env: Any) -> None:
    """Raises TypeError unless ``env`` has what a gym-style env needs."""
    needed = ("reset", "step", "observation_space", "action_space")
    missing = [name for name in needed if not hasattr(env, name)]
    if missing:
        hint = " (to build from an id, pass cfg={'env_id': ...})" if isinstance(env, str) else ""
        raise TypeError(
            "DingEnvWrapper: expected a gymnasium env, a gym-style env (with "
            f"{', '.join(needed)}) or a factory of one{hint}, got {env!r} (missing "
            f"{', '.join(missing)})"
        )


def _with_is_train(cfgs: list, is_train: bool) -> list:
    for c in cfgs:
        c.is_train = is_train
    return cfgs


class DingEnvWrapper(BaseEnv):
    """Turns a gym env into a BaseEnv.

    * Lazy: a factory (or ``cfg.env_id``) is called on first need (``reset`` or a space).
    * ``seed(seed, dynamic_seed)`` has the BaseEnv semantics; each episode's seed reaches the
      gym env as ``reset(seed=...)`` (legacy envs: ``seed()`` then ``reset()``).
    * Observations become fresh arrays of the contract's dtypes (floats -> float32), the
      reward a float32 `[1]` array, ``done = terminated or truncated``, and
      ``info['TimeLimit.truncated']`` says whether a time limit ended the episode.
    * At the end of an episode ``info['eval_episode_return']`` is the sum of the rewards.

    Args:
        env: a ``gymnasium.Env``, a legacy gym-style env, a zero-argument factory of either,
            or None to build ``gymnasium.make(cfg['env_id'])``.
        cfg: see :attr:`config`.

    Raises:
        ConfigError: an unknown config key, no env and no ``env_id``, or a bad
            ``env_wrapper`` or ``replay_format``.
        TypeError: ``env`` (or what its factory returns) is not a gym-style env.
    """

    config = dict(
        # (str|None) gymnasium id built when ``env`` is None, e.g. 'CartPole-v0'.
        env_id=None,
        # (list|str) wrapper factories ``env -> wrapped env`` or DI-engine wrapper dicts
        # ({'type', 'kwargs'}), applied in order (innermost first); or a DI-engine preset name
        # ('default', 'mujoco_default').
        env_wrapper=[],
        # (str) format of saved replays: 'gif' or 'mp4' (mp4 needs imageio-ffmpeg or av).
        replay_format="gif",
        # (int) frames per second of saved replays.
        replay_fps=30,
        # (bool) DI-engine's: a collector (True) or an evaluator (False) env, as
        # create_collector_env_cfg and create_evaluator_env_cfg set it; no effect here.
        is_train=True,
        # (bool) DI-engine's: actions in [-1, 1] (clipped there) are mapped affinely onto the
        # Box action space's bounds before the step; a Box action space only.
        act_scale=False,
        # (bool) DI-engine's: rewards below -10 are raised to -10.
        rew_clip=False,
    )

    #: Whether ``act_scale`` and ``rew_clip`` are DI-engine's, applied here; False in
    #: subclasses whose configs give those keys LightZero's meanings (the Box2D envs).
    _ding_keys = True

    @staticmethod
    def create_collector_env_cfg(cfg: dict) -> list:
        """One config per collector env, with ``is_train=True`` (DI-engine's); ``cfg`` is not
        modified."""
        return _with_is_train(BaseEnv.create_collector_env_cfg(cfg), True)

    @staticmethod
    def create_evaluator_env_cfg(cfg: dict) -> list:
        """One config per evaluator env, with ``is_train=False`` (DI-engine's); ``cfg`` is not
        modified."""
        return _with_is_train(BaseEnv.create_evaluator_env_cfg(cfg), False)

    def __init__(
        self,
        env: Any = None,
        cfg: dict | None = None,
        seed_api: bool = True,
        caller: str = "collector",
        is_gymnasium: bool | None = None,
    ) -> None:
        super().__init__(cfg)
        # DI-engine's arguments: seed_api=False never seeds the gym env; caller
        # ('collector' or 'evaluator') is checked and kept, and changes nothing here: DI-engine's
        # only caller-dependent preset (Atari) is refused; is_gymnasium is found by duck typing.
        self._seed_api, self._caller = bool(seed_api), caller
        self._wrappers()  # checks env_wrapper: a preset, factories or DI-engine wrapper dicts
        check_replay_format(self._cfg.replay_format)
        check_replay_fps(self._cfg.replay_fps)
        if env is None:
            if not self._cfg.env_id:
                raise ConfigError(
                    "DingEnvWrapper: expected an env, an env factory or cfg['env_id'], got none"
                )
            self._cfg.env_id = check_env_id(self._cfg.env_id)
        self._source = env
        self._is_factory = env is None or (callable(env) and not isinstance(env, gymnasium.Env))
        if not self._is_factory and not isinstance(env, gymnasium.Env):
            check_gym_like(env)
        self._env: gymnasium.Env | None = None
        self._recorder: ReplayRecorder | None = None
        #: Why the last episode's replay could not be written (None if it was, or before).
        self.last_replay_error: OSError | ConfigError | None = None
        self._episode_seed: int | None = None
        self._done = True
        self._eval_episode_return = 0.0
        if not self._is_factory:
            self._build()  # an env instance: wrap it now, DI-engine style

    # ------------------------------------------------------------------ building
    def _make(self, render_mode: str | None) -> Any:
        """Returns a new unwrapped env (override to build tasks your own way)."""
        if self._source is not None:
            return self._source()
        kwargs = {"render_mode": render_mode} if render_mode else {}
        return make_task(self._cfg.env_id, **kwargs)

    def _wrappers(self) -> list[Callable[[gymnasium.Env], gymnasium.Env]]:
        """Returns the wrapper factories, innermost first (override in subclasses)."""
        return resolve_wrappers(self._cfg.env_wrapper, self._cfg.env_id, self._caller)

    def _build(self) -> None:
        if self._is_factory:
            if self._replay_path:
                quiet_offscreen_rendering()
            env = self._make("rgb_array" if self._replay_path else None)
        else:
            env = self._source
        if not isinstance(env, gymnasium.Env):
            check_gym_like(env)
            env = LegacyGymAdapter(env)
        for wrap in self._wrappers():
            env = wrap(env)
        if self._ding_keys and self._cfg.act_scale and not isinstance(env.action_space, spaces.Box):
            raise ConfigError(
                "DingEnvWrapper: act_scale maps actions onto a Box action space's bounds; "
                f"expected a Box, got {env.action_space}"
            )
        self._env = env
        self._init_flag = True

    def _ensure_env(self) -> gymnasium.Env:
        if self._env is None:
            self._build()
        return self._env

    # ------------------------------------------------------------------ the contract
    def reset(self) -> Any:
        """Starts an episode (seeded as ``seed`` said) and returns its first observation."""
        env = self._ensure_env()
        self._done = True  # until the new episode has started, whatever raises below
        self._episode_seed = self._start_episode()
        obs, _ = env.reset(seed=self._episode_seed if self._seed_api else None)
        if self._replay_path:
            if self._recorder is None:
                self._recorder = ReplayRecorder(
                    self._replay_path,
                    self._name(),
                    fmt=self._cfg.replay_format,
                    fps=self._cfg.replay_fps,
                )
            self._recorder.start(env.render())  # if it raises, no episode runs
        self._done = False
        self._eval_episode_return = 0.0
        return to_contract_obs(obs, env.observation_space)

    def step(self, action: Any) -> BaseEnvTimestep:
        """Plays ``action``; see the class docstring for the returned values.

        Raises:
            IllegalActionError: the action does not fit the action space.
            GameOverError: no episode is running (call ``reset`` first).
        """
        if self._done:
            raise GameOverError("step: expected a running episode, got none (call reset first)")
        env = self._env
        if self._ding_keys and self._cfg.act_scale:  # DI-engine's map of [-1, 1] to the bounds
            space = env.action_space
            # Numbers of the space's shape first (any dtype: the map casts to the space's).
            checked = to_gym_action(_any_numbers(space.shape), action)
            unit = np.clip(np.asarray(checked, np.float64), -1.0, 1.0)
            action = ((unit + 1) / 2 * (space.high - space.low) + space.low).astype(space.dtype)
        action = to_gym_action(env.action_space, action)
        obs, reward, terminated, truncated, info = env.step(action)
        # The episode return adds up the env's own rewards; rew_clip clips only the reward
        # returned (DI-engine's and LightZero's order, so evaluation scores the real return).
        self._eval_episode_return += float(np.asarray(reward, np.float64).reshape(()))
        if self._ding_keys and self._cfg.rew_clip:
            reward = max(-10.0, float(np.asarray(reward, np.float64).reshape(())))
        info = dict(info)
        done = bool(terminated) or bool(truncated)
        info["TimeLimit.truncated"] = bool(truncated)
        if self._recorder is not None:
            self._recorder.add(env.render())
        if done:
            self._done = True
            info["eval_episode_return"] = float(self._eval_episode_return)
            if self._recorder is not None:
                self._save_replay(info)
        return BaseEnvTimestep(
            to_contract_obs(obs, env.observation_space), to_reward(reward), done, info
        )

    def _save_replay(self, info: dict) -> None:
        """Writes the finished episode's replay into ``info['replay_path']``.

        The episode is over whatever happens to the file, so a failed write does not raise out
        of ``step`` (the caller would lose the final timestep): it warns with a
        :class:`~lzero.errors.ReplayWriteWarning`, puts the error's text in
        ``info['replay_error']`` and keeps the error in ``last_replay_error``.
        """
        try:
            info["replay_path"] = self._recorder.finish(self._episode_seed)
            self.last_replay_error = None
        except (OSError, ConfigError) as err:  # ConfigError: the folder became unwritable
            self.last_replay_error = err
            info["replay_error"] = str(err)
            warnings.warn(
                f"the replay of this episode was not written: {err}",
                ReplayWriteWarning,
                stacklevel=3,
            )

    def close(self) -> None:
        """Closes the gym env; a factory-built env is rebuilt on the next ``reset``."""
        if self._env is not None:
            self._env.close()
            if self._is_factory:
                self._env = None
                self._init_flag = False
        self._done = True

    def enable_save_replay(self, replay_path: str | None = "./video") -> None:
        """Saves each following episode under ``replay_path``: DI-engine's ``./video`` when
        called without one; None stops saving (DI-engine takes None for ``./video``).

        An env built from ``env_id`` is rebuilt with ``render_mode='rgb_array'``; an env
        given by the caller (or built by the caller's factory) must already render
        ``rgb_array`` frames.

        Raises:
            ConfigError: ``replay_path`` is not a writable directory, or the caller's env
                has another ``render_mode`` (checked first: no folder is made then). The
                replay settings are unchanged then (a factory's env may have been built).
        """
        if replay_path:
            if self._source is not None:  # the caller's env: built now to ask it
                mode = getattr(self._ensure_env(), "render_mode", None)
                if mode != "rgb_array":
                    raise ConfigError(
                        "enable_save_replay: expected an env with render_mode='rgb_array', "
                        f"got {mode!r}"
                    )
            check_replay_dir(replay_path)  # now, not at the end of the first episode
        super().enable_save_replay(replay_path)
        self._recorder = None
        if replay_path and self._env is not None and self._env.render_mode != "rgb_array":
            self.close()  # built from env_id: rebuilt with render_mode='rgb_array' on reset

    def clone(self, caller: str = "collector") -> DingEnvWrapper:
        """DI-engine's: a new wrapper of a new env of the same task, with this one's config
        (``caller``, checked, as the constructor's). An env given as an
        instance is made again from its gymnasium spec, else (no spec, or wrappers the spec
        cannot rebuild) deep-copied."""
        source = self._source
        if not self._is_factory:
            spec = getattr(source, "spec", None)
            if isinstance(spec, gymnasium.envs.registration.EnvSpec) and all(
                # gymnasium.make cannot rebuild a wrapper without RecordConstructorArgs
                w.kwargs is not None
                for w in spec.additional_wrappers
            ):
                source = functools.partial(gymnasium.make, spec)
            else:
                source = copy.deepcopy(source)
        return type(self)(
            source, copy.deepcopy(dict(self._cfg)), seed_api=self._seed_api, caller=caller
        )

    def _name(self) -> str:
        """The replays' name: the env's gymnasium id, else its class (a legacy env's own, not
        our adapter's)."""
        inner = self._env.unwrapped
        if isinstance(inner, LegacyGymAdapter):
            inner = getattr(inner.env, "unwrapped", inner.env)
        spec = getattr(self._env, "spec", None) or getattr(inner, "spec", None)
        return spec.id if getattr(spec, "id", None) else type(inner).__name__

    @property
    def env(self) -> gymnasium.Env:
        """The wrapped gymnasium env (built on first access)."""
        return self._ensure_env()

    @property
    def observation_space(self) -> spaces.Space:
        return contract_space(self._ensure_env().observation_space)

    @property
    def action_space(self) -> spaces.Space:
        return self._ensure_env().action_space

    @property
    def reward_space(self) -> spaces.Box:
        return spaces.Box(-float("inf"), float("inf"), (1,), "float32")

    def __repr__(self) -> str:
        name = self._name() if self._env is not None else self._cfg.env_id or "unbuilt"
        return f"DingEnvWrapper({name}, seed={self._seed}, dynamic_seed={self._dynamic_seed})"
