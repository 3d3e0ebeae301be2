"""LightZero's module ``zoo.box2d.bipedalwalker.envs.bipedalwalker_cont_disc_env`` and env type 'bipedalwalker_cont_disc', over our
env (see ``zoo.box2d.lightzero_names``)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.box2d.bipedalwalker.envs.bipedalwalker_lightzero_env import BipedalWalkerEnv as _Ours
from zoo.box2d.lightzero_names import lightzero_variant

BipedalWalkerDiscEnv = ENV_REGISTRY.register("bipedalwalker_cont_disc")(
    lightzero_variant(_Ours, discretized=True, bipedal=True)
)
