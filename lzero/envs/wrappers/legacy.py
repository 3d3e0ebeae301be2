"""``LegacyGymAdapter``: the gymnasium API over a legacy gym-style env, found by duck typing.

Legacy envs (gym < 0.26 and code written for it) have ``seed(seed)``, a ``reset()`` that
returns only the observation, and a ``step`` that returns ``(obs, reward, done, info)``,
with ``info['TimeLimit.truncated']`` set when a time limit cut the episode. gym 0.26-style
envs that are not ``gymnasium.Env`` subclasses (``reset(seed=...)`` returning
``(obs, info)``, 5-value ``step``) are adapted too.
"""

from __future__ import annotations

import difflib
import inspect
from typing import Any

import gymnasium
from gymnasium import spaces

from lzero.envs.wrappers.conversions import to_gymnasium_space
from lzero.errors import ConfigError


class LegacyGymAdapter(gymnasium.Env):
    """Presents a legacy gym-style env as a ``gymnasium.Env``.

    ``reset(seed=s)`` calls ``env.seed(s)`` then ``env.reset()`` when the env has a ``seed``
    method, else ``env.reset(seed=s)``. A 4-value ``step`` becomes
    ``(obs, reward, terminated, truncated, info)`` with
    ``truncated = done and info.get('TimeLimit.truncated', False)``.

    Args:
        env: the legacy env; its spaces may be ``gym.spaces`` objects.
    """

    def __init__(self, env: Any) -> None:
        self.env = env
        self.observation_space = to_gymnasium_space(env.observation_space)
        self.action_space = to_gymnasium_space(env.action_space)
        metadata = dict(getattr(env, "metadata", None) or {})
        modes = metadata.get("render_modes", metadata.get("render.modes", []))
        self.render_mode = getattr(env, "render_mode", None) or (
            "rgb_array" if "rgb_array" in modes else None
        )
        self.metadata = metadata

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Returns ``(obs, info)``; see the class docstring for how ``seed`` is passed."""
        if callable(getattr(self.env, "seed", None)):
            if seed is not None:
                self.env.seed(seed)
            out = self.env.reset()
        elif _accepts_seed(self.env.reset):
            out = self.env.reset(seed=seed)
        elif seed is not None:
            raise ConfigError(
                f"seed: expected the legacy env {type(self.env).__name__} to have a seed() "
                "method or reset(seed=...), got neither (DingEnvWrapper(env, seed_api=False) "
                "leaves seeding to the env)"
            )
        else:
            out = self.env.reset()
        if (
            isinstance(out, tuple)
            and len(out) == 2
            and isinstance(out[1], dict)
            and not isinstance(self.observation_space, spaces.Tuple)
        ):
            return out[0], dict(out[1])
        return out, {}

    def step(self, action: Any):
        """Returns ``(obs, reward, terminated, truncated, info)``."""
        out = self.env.step(action)
        if len(out) == 5:
            obs, reward, terminated, truncated, info = out
            return obs, reward, bool(terminated), bool(truncated), dict(info)
        if len(out) != 4:
            raise TypeError(f"step: expected 4 or 5 values from the legacy env, got {len(out)}")
        obs, reward, done, info = out
        info = dict(info)
        truncated = bool(done) and bool(info.get("TimeLimit.truncated", False))
        return obs, reward, bool(done) and not truncated, truncated, info

    def render(self):
        """Returns an ``rgb_array`` frame (legacy ``render(mode='rgb_array')``)."""
        try:
            return self.env.render(mode="rgb_array")
        except TypeError:
            return self.env.render()

    def close(self) -> None:
        if callable(getattr(self.env, "close", None)):
            self.env.close()


def _accepts_seed(reset: Any) -> bool:
    try:
        params = inspect.signature(reset).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "seed" or p.kind is p.VAR_KEYWORD for p in params)


#: gym's Box2D ids in DI-engine's and LightZero's configs -> gymnasium 1.x's (the only ones it
#: has; same observations, actions and rewards).
LEGACY_GYM_IDS = {
    "LunarLander-v2": "LunarLander-v3",
    "LunarLanderContinuous-v2": "LunarLanderContinuous-v3",
    "BipedalWalker-v2": "BipedalWalker-v3",
    "BipedalWalkerHardcore-v2": "BipedalWalkerHardcore-v3",
}


def check_env_id(env_id: Any) -> str:
    """Returns ``env_id`` if gymnasium knows it, or the gymnasium id of a legacy gym id of
    :data:`LEGACY_GYM_IDS`.

    Raises:
        ConfigError: the id is not a registered gymnasium id; the message names the close
            matches in the registry.
    """
    if not isinstance(env_id, str) or not env_id:
        raise ConfigError(f"env_id: expected a gymnasium id such as 'CartPole-v1', got {env_id!r}")
    if env_id not in gymnasium.envs.registry and env_id in LEGACY_GYM_IDS:
        env_id = LEGACY_GYM_IDS[env_id]
    if env_id not in gymnasium.envs.registry:
        close = difflib.get_close_matches(env_id, list(gymnasium.envs.registry), n=5, cutoff=0.6)
        hint = (
            f"; close matches: {close}" if close else "; no close match in the gymnasium registry"
        )
        raise ConfigError(f"env_id: unknown gymnasium id {env_id!r}{hint}")
    return env_id


def make_task(env_id: str, **kwargs: Any) -> gymnasium.Env:
    """``gymnasium.make(env_id, **kwargs)``, also for a legacy gym-style class registered under
    a gymnasium id: ``gymnasium.make`` refuses a class that is not a ``gymnasium.Env``, so
    that one is built from its entry point with the spec's keywords, adapted by
    :class:`LegacyGymAdapter` and cut at the spec's (or ``max_episode_steps``') time limit.
    A factory function returning a legacy env cannot be told apart before it runs: register
    one that returns ``LegacyGymAdapter(env)`` instead."""
    spec = gymnasium.spec(env_id)
    creator = spec.entry_point
    if isinstance(creator, str):
        creator = gymnasium.envs.registration.load_env_creator(creator)
    if not isinstance(creator, type) or issubclass(creator, gymnasium.Env):
        return gymnasium.make(env_id, **kwargs)
    steps = kwargs.pop("max_episode_steps", None) or spec.max_episode_steps
    render_mode = kwargs.pop("render_mode", None)
    kwargs.pop("disable_env_checker", None)  # gymnasium.make's; no checker wraps this one
    env = LegacyGymAdapter(creator(**{**spec.kwargs, **kwargs}))
    if render_mode is not None:
        env.render_mode = render_mode
    if steps is not None:
        env = gymnasium.wrappers.TimeLimit(env, steps)
    return env
