"""CartPole (gymnasium ``CartPole-v0``) as a LightZero env: push the cart left or right."""

from __future__ import annotations

import warnings
from typing import Any

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

    def _make(self, render_mode: str | None) -> Any:
        # v0 (200-step episodes, as in LightZero) is chosen on purpose: gymnasium's advice to
        # upgrade to v1 would only be noise at every build.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*CartPole-v0 is out of date")
            return super()._make(render_mode)
