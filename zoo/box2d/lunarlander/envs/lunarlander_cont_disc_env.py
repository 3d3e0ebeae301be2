"""LightZero's module ``zoo.box2d.lunarlander.envs.lunarlander_cont_disc_env`` and env type 'lunarlander_cont_disc', over our
env (see ``zoo.box2d.lightzero_names``)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.box2d.lightzero_names import lightzero_variant
from zoo.box2d.lunarlander.envs.lunarlander_lightzero_env import LunarLanderEnv as _Ours

LunarLanderDiscEnv = ENV_REGISTRY.register("lunarlander_cont_disc")(
    lightzero_variant(_Ours, discretized=True, env_id="LunarLanderContinuous-v3")
)
