"""The lunarlander env; ``LunarLanderEnv`` is LightZero's class here (its package exports it)."""

from zoo.box2d.lunarlander.envs.lunarlander_env import LunarLanderEnv

__all__ = ["LunarLanderEnv"]
