"""``LightZeroEnvWrapper``: a gymnasium wrapper whose observations are LightZero dicts.

Each observation becomes ``{'observation': obs, 'action_mask': mask, 'to_play': -1}``: the
mask is all ones (int8, one per action) for a discrete action space and ``None`` for a
continuous one; ``to_play`` is -1 (single-agent).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from lzero.envs.config import merge_config, take_renamed
from lzero.errors import ConfigError

#: The config both LightZero gym wrappers read (LightZero's ``wrapper_cfg``).
WRAPPER_CONFIG = dict(
    env_id=None,  # (str|None) gymnasium id of the task, e.g. 'Pendulum-v1' (informative)
    # (str|None) LightZero's older name of env_id (its configs use either): the task's
    # gymnasium id when given.
    env_name=None,
    continuous=False,  # (bool) the task's own action space is continuous (Box)
    manually_discretization=False,  # (bool) a Box action space is discretised on a grid
    each_dim_disc_size=11,  # (int) grid points per action dimension, both bounds included
    is_train=True,  # (bool) collector (True) or evaluator (False) env; kept for LightZero configs
)


def check_gymnasium_env(env: object, wrapper: str) -> None:
    """Refuses what gymnasium's ``Wrapper`` cannot wrap, saying how a legacy env gets there.

    Raises:
        TypeError: ``env`` is not a ``gymnasium.Env``.
    """
    if not isinstance(env, gymnasium.Env):
        raise TypeError(
            f"{wrapper}: expected a gymnasium.Env, got {type(env).__name__}; a legacy gym-style "
            f"env (step returning 4 values) goes through DingEnvWrapper, which makes it one: "
            f"DingEnvWrapper(env, cfg={{'env_wrapper': [lambda e: {wrapper}(e, cfg)]}})"
        )


def wrapper_config(cfg: dict | None, where: str) -> dict:
    """Merges ``cfg`` over :data:`WRAPPER_CONFIG`, rejecting unknown keys; ``env_name`` sets
    ``env_id`` (and must agree with it if both are given)."""
    user = dict(cfg or {})
    merged = merge_config(WRAPPER_CONFIG, user, where=where)
    take_renamed(user, merged, "env_name", "env_id", where=where)
    return merged


class LightZeroEnvWrapper(gymnasium.Wrapper):
    """Wraps a gymnasium env so that it returns LightZero observation dicts.

    The observation space is ``Dict(observation=<the env's>, action_mask=Box(0, 1, [A], int8),
    to_play=Discrete(1, start=-1))``; for continuous actions the mask is ``None``, which no
    gymnasium space holds, so the ``action_mask`` entry is left out. At the end of an episode
    ``info['eval_episode_return']`` holds the episode's return.

    Args:
        env: a gymnasium env (with discrete actions, or continuous ones).
        cfg: keys of :data:`WRAPPER_CONFIG`.

    Raises:
        ConfigError: an unknown key, or an action space that contradicts ``continuous`` and
            ``manually_discretization``: discrete actions are expected when
            ``continuous=False`` or ``manually_discretization=True``, a Box otherwise.
    """

    def __init__(self, env: gymnasium.Env, cfg: dict | None = None) -> None:
        check_gymnasium_env(env, "LightZeroEnvWrapper")
        super().__init__(env)
        self.cfg = wrapper_config(cfg, "LightZeroEnvWrapper config")
        space = env.action_space
        want_discrete = not self.cfg.continuous or self.cfg.manually_discretization
        if want_discrete and not isinstance(space, spaces.Discrete):
            how = (
                "manually_discretization=True discretizes a Box only through "
                "ActionDiscretizationEnvWrapper, applied before this wrapper"
                if self.cfg.manually_discretization
                else "continuous=False says the env's own actions are discrete; "
                "manually_discretization=True discretizes a Box"
            )
            raise ConfigError(
                f"LightZeroEnvWrapper: expected a Discrete action space, got {space} ({how})"
            )
        if not want_discrete and not isinstance(space, spaces.Box):
            raise ConfigError(
                f"LightZeroEnvWrapper: expected a Box action space (continuous=True), got {space}"
            )
        entries = {"observation": env.observation_space}
        if isinstance(space, spaces.Discrete):
            entries["action_mask"] = spaces.Box(0, 1, (int(space.n),), np.int8)
        entries["to_play"] = spaces.Discrete(1, start=-1)
        self.observation_space = spaces.Dict(entries)
        self._eval_episode_return = 0.0

    def _obs(self, obs: Any) -> dict:
        space = self.env.action_space
        mask = np.ones(int(space.n), np.int8) if isinstance(space, spaces.Discrete) else None
        return {"observation": obs, "action_mask": mask, "to_play": -1}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Returns ``(obs_dict, info)``."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._eval_episode_return = 0.0
        return self._obs(obs), info

    def step(self, action: Any):
        """Returns ``(obs_dict, reward, terminated, truncated, info)``."""
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._eval_episode_return += float(np.asarray(reward, np.float64).reshape(()))
        if terminated or truncated:
            info = {**info, "eval_episode_return": self._eval_episode_return}
        return self._obs(obs), reward, terminated, truncated, info
