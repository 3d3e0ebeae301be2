"""What the gym backends step: gymnasium envs without the wrappers the pool replaces, and
``BaseEnv`` tasks behind gymnasium's ``reset/step`` signatures."""

from __future__ import annotations

from typing import Any

from gymnasium.wrappers import OrderEnforcing, PassiveEnvChecker, TimeLimit

from lzero.envs.wrappers.legacy import make_task


def make_gymnasium_env(task_id: str, kwargs: dict) -> Any:
    """``gymnasium.make(task_id, **kwargs)`` minus its ``TimeLimit`` and order/checker wrappers
    (a legacy gym-style class registered under the id is adapted, as ``make_task`` does).

    The pool counts steps and truncates episodes itself (``max_episode_steps``, by default
    the task's own limit), so these layers would only add a Python call per step.
    """
    env = make_task(task_id, disable_env_checker=True, **kwargs)
    while isinstance(env, (TimeLimit, OrderEnforcing, PassiveEnvChecker)):
        env = env.env
    return env


class BaseEnvAdapter:
    """A :class:`~lzero.envs.BaseEnv` seen through gymnasium's ``reset`` and ``step``."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.observation_space, self.action_space = env.observation_space, env.action_space

    @classmethod
    def build(cls, env_cls: type, cfg: dict) -> BaseEnvAdapter:
        return cls(env_cls(dict(cfg)))

    def reset(self, seed: int | None = None) -> tuple[Any, dict]:
        if seed is not None:
            self.env.seed(seed, dynamic_seed=True)
        return self.env.reset(), {}

    def step(self, action: Any) -> tuple:
        obs, reward, done, info = self.env.step(action)
        truncated = bool(info.get("TimeLimit.truncated", False))
        return obs, float(reward[0]), bool(done) and not truncated, truncated, info

    def render(self) -> object:
        return self.env.render()

    def close(self) -> None:
        self.env.close()
