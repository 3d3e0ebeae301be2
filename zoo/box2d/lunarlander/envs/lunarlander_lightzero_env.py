"""LunarLander (gymnasium, Box2D) as a LightZero env: discrete, continuous, or discretized."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.envs.wrappers import LightZeroGymEnv


@ENV_REGISTRY.register("lunarlander_lightzero")
class LunarLanderEnv(LightZeroGymEnv):
    """``LunarLander-v3`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[8]` float32. ``env_id='LunarLander-v3'``: ``Discrete(4)`` engines.
    ``env_id='LunarLanderContinuous-v3', continuous=True``: a ``Box(-1, 1, [2])`` throttle,
    discretized to ``Discrete(n ** 2)`` with ``manually_discretization=True``. Episodes
    end on landing, a crash, or after 1000 steps.
    Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        LightZeroGymEnv.config,
        env_id="LunarLander-v3",
    )
