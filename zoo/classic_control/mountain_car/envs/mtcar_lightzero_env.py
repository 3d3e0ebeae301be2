"""MountainCar (gymnasium ``MountainCar-v0``) as a LightZero env: drive up the hill."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.envs.wrappers import LightZeroGymEnv


@ENV_REGISTRY.register("mountain_car_lightzero")
class MountainCarEnv(LightZeroGymEnv):
    """``MountainCar-v0`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[2]` float32 (position, velocity); actions ``Discrete(3)`` (left, none,
    right); reward -1 per step; episodes end at the flag or after 200 steps.
    Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        LightZeroGymEnv.config,
        env_id="MountainCar-v0",
    )
