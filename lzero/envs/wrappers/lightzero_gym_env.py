"""``LightZeroGymEnv``: a gym task as a LightZero env built from one flat config.

The zoo's classic_control and box2d envs are this class with their own default ``env_id``.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

from lzero.envs.classic_control.single_env import make_classic_env
from lzero.envs.classic_control.stepper import TASKS as CLASSIC_TASKS
from lzero.envs.wrappers.action_discretization import ActionDiscretizationEnvWrapper
from lzero.envs.wrappers.ding_env_wrapper import DingEnvWrapper
from lzero.envs.wrappers.legacy import make_task
from lzero.envs.wrappers.lightzero_env_wrapper import WRAPPER_CONFIG, LightZeroEnvWrapper
from lzero.errors import ConfigError


def lightzero_wrappers(wrapper_cfg: dict) -> list[Callable]:
    """Returns the wrapper factories LightZero applies, innermost first: discretization (when
    ``manually_discretization``), then :class:`LightZeroEnvWrapper`. Picklable."""
    wrappers = [functools.partial(LightZeroEnvWrapper, cfg=dict(wrapper_cfg))]
    if wrapper_cfg.get("manually_discretization"):
        wrappers.insert(0, functools.partial(ActionDiscretizationEnvWrapper, cfg=dict(wrapper_cfg)))
    return wrappers


class LightZeroGymEnv(DingEnvWrapper):
    """``DingEnvWrapper(gym.make(env_id), [ActionDiscretizationEnvWrapper?, LightZeroEnvWrapper])``.

    Observations are ``{'observation', 'action_mask', 'to_play'}`` dicts. Subclasses set the
    default ``env_id`` in their ``config``.

    Args:
        cfg: see :attr:`config`; LightZero's manager keys (``collector_env_num``, ...) are
            accepted and dropped.
    """

    config = dict(
        **WRAPPER_CONFIG,
        # (int|None) episode step limit passed to gymnasium.make; None keeps the task's own.
        max_episode_steps=None,
        # (str) format of saved replays: 'gif' or 'mp4' (mp4 needs imageio-ffmpeg or av).
        replay_format="gif",
        # (int) frames per second of saved replays.
        replay_fps=30,
        # (bool) LightZero's Stochastic MuZero switch in its CartPole config: whether the
        # policy models chance outcomes; the env is the same either way, so no effect here.
        enable_chance=False,
        # (bool) LightZero's agents set it before calling enable_save_replay(path), which is
        # what records here; no effect by itself.
        save_replay=False,
        # (bool) gymnasium's classic-control ids (CartPole, MountainCar, Pendulum, Acrobot...)
        # step this project's numba kernels, which equal gymnasium's envs bit for bit; False
        # steps gymnasium's own env. Rendering (replays) always uses gymnasium's.
        classic_kernels=True,
    )

    _ding_keys = False  # LightZero's configs, not DingEnvWrapper's act_scale / rew_clip

    def clone(self, caller: str = "collector") -> LightZeroGymEnv:
        """A new env of the same class and config (DI-engine's ``clone``; the wrappers here
        are the same for the collector and the evaluator)."""
        return type(self)(copy.deepcopy(dict(self._cfg)))

    def __init__(self, cfg: dict | None = None) -> None:
        name = (cfg or {}).get("env_name")
        if name is not None and "env_id" in (cfg or {}) and cfg["env_id"] != name:
            raise ConfigError(
                "env_name: expected the same task as env_id (LightZero's older name of it) or "
                f"one of them alone, got env_name {name!r} and env_id {cfg['env_id']!r}"
            )
        if name is not None:
            cfg = {**cfg, "env_id": name}
        super().__init__(None, cfg)
        steps = self._cfg.max_episode_steps
        if steps is not None and (
            isinstance(steps, bool) or not isinstance(steps, int) or steps < 1
        ):
            raise ConfigError(f"max_episode_steps: expected a positive int or None, got {steps!r}")

    def _make(self, render_mode: str | None) -> Any:
        kwargs: dict = {"render_mode": render_mode} if render_mode else {}
        if self._cfg.max_episode_steps is not None:
            kwargs["max_episode_steps"] = self._cfg.max_episode_steps
        if self._cfg.classic_kernels and not render_mode and self._cfg.env_id in CLASSIC_TASKS:
            return make_classic_env(self._cfg.env_id, **kwargs)
        return make_task(self._cfg.env_id, **kwargs)

    def _wrappers(self) -> list:
        keys = ("env_id", "continuous", "manually_discretization", "each_dim_disc_size", "is_train")
        return lightzero_wrappers({k: self._cfg[k] for k in keys})
