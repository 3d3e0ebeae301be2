"""BipedalWalker (gymnasium, Box2D) as a LightZero env, continuous or discretized."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.box2d.box2d_support import Box2DGymEnv


@ENV_REGISTRY.register("bipedalwalker_lightzero")
class BipedalWalkerEnv(Box2DGymEnv):
    """``BipedalWalker-v3`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[24]` float32 (hull, joints, legs' contacts, 10 lidar readings); actions a
    ``Box(-1, 1, [4])`` of motor torques, or ``Discrete(n ** 4)`` with
    ``manually_discretization=True``; episodes end on a fall, at the end, or after 1600 steps.
    Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        Box2DGymEnv.config,
        env_id="BipedalWalker-v3",
        continuous=True,
    )
