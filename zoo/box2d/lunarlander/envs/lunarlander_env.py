"""LightZero's module ``zoo.box2d.lunarlander.envs.lunarlander_env`` and env type 'lunarlander', over our
env (see ``zoo.box2d.lightzero_names``)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.box2d.lightzero_names import lightzero_variant
from zoo.box2d.lunarlander.envs.lunarlander_lightzero_env import LunarLanderEnv as _Ours

LunarLanderEnv = ENV_REGISTRY.register("lunarlander")(lightzero_variant(_Ours, discretized=False))
