"""The mountain_car env; ``MountainCarEnv`` is exported here as LightZero's package does."""

from zoo.classic_control.mountain_car.envs.mtcar_lightzero_env import MountainCarEnv

__all__ = ["MountainCarEnv"]
