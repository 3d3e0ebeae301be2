"""Adapters from gym envs to the BaseEnv contract and LightZero's observation dicts."""

from lzero.envs.registry import ENV_WRAPPER_REGISTRY
from lzero.envs.wrappers.action_discretization import (
    ActionDiscretizationEnvWrapper,
    discretize_box,
)
from lzero.envs.wrappers.default_wrappers import get_default_wrappers
from lzero.envs.wrappers.ding_env_wrapper import DingEnvWrapper, check_env_id
from lzero.envs.wrappers.legacy import LegacyGymAdapter
from lzero.envs.wrappers.lightzero_env_wrapper import WRAPPER_CONFIG, LightZeroEnvWrapper
from lzero.envs.wrappers.lightzero_gym_env import LightZeroGymEnv, lightzero_wrappers

ENV_WRAPPER_REGISTRY.register("lightzero")(LightZeroEnvWrapper)
ENV_WRAPPER_REGISTRY.register("action_discretization")(ActionDiscretizationEnvWrapper)

__all__ = [
    "WRAPPER_CONFIG",
    "ActionDiscretizationEnvWrapper",
    "DingEnvWrapper",
    "LegacyGymAdapter",
    "LightZeroEnvWrapper",
    "LightZeroGymEnv",
    "check_env_id",
    "get_default_wrappers",
    "discretize_box",
    "lightzero_wrappers",
]
