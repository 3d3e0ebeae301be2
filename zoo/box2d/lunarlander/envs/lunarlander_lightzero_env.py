"""LunarLander (gymnasium, Box2D) as a LightZero env: discrete, continuous, or discretized."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.box2d.box2d_support import Box2DGymEnv


@ENV_REGISTRY.register("lunarlander_lightzero")
class LunarLanderEnv(Box2DGymEnv):
    """``LunarLander-v3`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[8]` float32. ``env_id='LunarLander-v3'``: ``Discrete(4)`` engines.
    ``env_id='LunarLanderContinuous-v3', continuous=True``: a ``Box(-1, 1, [2])`` throttle,
    discretized to ``Discrete(n ** 2)`` with ``manually_discretization=True``. Episodes
    end on landing, a crash, or after 1000 steps.
    Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        Box2DGymEnv.config,
        env_id="LunarLander-v3",
    )
