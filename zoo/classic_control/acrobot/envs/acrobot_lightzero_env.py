"""Acrobot (gymnasium ``Acrobot-v1``) as a LightZero env: swing the tip above the line."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.envs.wrappers import LightZeroGymEnv


@ENV_REGISTRY.register("acrobot_lightzero")
class AcrobotEnv(LightZeroGymEnv):
    """``Acrobot-v1`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[6]` float32 (cos/sin of both joint angles, both angular velocities); actions
    ``Discrete(3)`` (torque -1, 0, +1); reward -1 per step; episodes end at the goal or
    after 500 steps.
    Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        LightZeroGymEnv.config,
        env_id="Acrobot-v1",
    )
