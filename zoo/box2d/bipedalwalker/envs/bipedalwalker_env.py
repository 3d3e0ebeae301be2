"""LightZero's module ``zoo.box2d.bipedalwalker.envs.bipedalwalker_env`` and env type 'bipedalwalker', over our
env (see ``zoo.box2d.lightzero_names``)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.box2d.bipedalwalker.envs.bipedalwalker_lightzero_env import BipedalWalkerEnv as _Ours
from zoo.box2d.lightzero_names import lightzero_variant

BipedalWalkerEnv = ENV_REGISTRY.register("bipedalwalker")(
    lightzero_variant(_Ours, discretized=False, bipedal=True)
)
