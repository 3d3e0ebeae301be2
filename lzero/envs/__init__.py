"""The env contract, registries, config helpers and the env checker."""

from lzero.envs.base_env import ENV_MANAGER_KEYS, BaseEnv, BaseEnvTimestep
from lzero.envs.config import deep_merge_dicts, merge_config
from lzero.envs.env_checker import check_env
from lzero.envs.env_implementation_check import (
    check_all,
    check_array_space,
    check_different_memory,
    check_obs_deepcopy,
    check_reset,
    check_space_dtype,
    check_step,
    demonstrate_correct_procedure,
)
from lzero.envs.get_wrapped_env import get_wrappered_env
from lzero.envs.registry import (
    ENV_REGISTRY,
    ENV_WRAPPER_REGISTRY,
    Registry,
    create_env,
    get_env_cls,
    get_vec_env_setting,
    import_module_names,
)
from lzero.envs.utils import to_list, to_ndarray, to_reward, to_tensor
from lzero.envs.wrappers import (
    ActionDiscretizationEnvWrapper,
    DingEnvWrapper,
    LightZeroEnvWrapper,
    LightZeroGymEnv,
)

__all__ = [
    "ActionDiscretizationEnvWrapper",
    "DingEnvWrapper",
    "LightZeroEnvWrapper",
    "LightZeroGymEnv",
    "get_wrappered_env",
    "BaseEnv",
    "BaseEnvTimestep",
    "ENV_MANAGER_KEYS",
    "ENV_REGISTRY",
    "ENV_WRAPPER_REGISTRY",
    "Registry",
    "check_all",
    "check_array_space",
    "check_different_memory",
    "check_obs_deepcopy",
    "check_reset",
    "check_space_dtype",
    "check_step",
    "check_env",
    "demonstrate_correct_procedure",
    "create_env",
    "get_env_cls",
    "get_vec_env_setting",
    "deep_merge_dicts",
    "import_module_names",
    "merge_config",
    "to_list",
    "to_ndarray",
    "to_reward",
    "to_tensor",
]

# DI-engine's ding.envs exports its managers too (``from ding.envs import BaseEnvManager``).
_MANAGER_NAMES = (
    "create_env_manager",
    "get_env_manager_cls",
    "BaseEnvManager",
    "SubprocessEnvManager",
    "SyncSubprocessEnvManager",
    "AsyncSubprocessEnvManager",
    "EnvState",
)
_POOL_NAMES = ("make", "make_gym", "make_gymnasium", "make_dm", "make_spec", "list_all_envs")


def __getattr__(name: str):
    # The envpool-style pool pulls in the managers and numba kernels: import it on first use.
    if name in _POOL_NAMES:
        from lzero.envs import pool

        return getattr(pool, name)
    if name in _MANAGER_NAMES:  # DI-engine exports these from ding.envs too
        from lzero.envs import env_manager

        return getattr(env_manager, name)
    raise AttributeError(f"module 'lzero.envs' has no attribute {name!r}")
