"""CartPole (gymnasium ``CartPole-v0``) as a LightZero env: push the cart left or right."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.envs.wrappers import LightZeroGymEnv


@ENV_REGISTRY.register("cartpole_lightzero")
class CartPoleEnv(LightZeroGymEnv):
    """``CartPole-v0`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[4]` float32 (cart position, velocity, pole angle, angular velocity); actions
    ``Discrete(2)``; reward +1 per step; episodes end on a fall or after 200 steps.
    Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        LightZeroGymEnv.config,
        env_id="CartPole-v0",
    )
