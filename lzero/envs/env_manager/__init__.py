"""Env managers that step many envs through LightZero's dict-keyed interface (DI-engine's names:
``BaseEnvManager``, ``SubprocessEnvManager`` and its ``Sync``/``Async`` names, ``EnvState``,
``get_env_manager_cls``), and ``RayEnvManager`` (envs in Ray actors; ``pip install -e ".[ray]"``)."""

from lzero.envs.env_manager.base_env_manager import BaseEnvManager, EnvState
from lzero.envs.env_manager.factory import (
    ENV_MANAGER_TYPES,
    create_env_manager,
    get_env_manager_cls,
    manager_type,
)
from lzero.envs.env_manager.ray_env_manager import RayEnvManager
from lzero.envs.env_manager.subprocess_env_manager import (
    AsyncSubprocessEnvManager,
    SubprocessEnvManager,
    SyncSubprocessEnvManager,
)

__all__ = [
    "ENV_MANAGER_TYPES",
    "AsyncSubprocessEnvManager",
    "BaseEnvManager",
    "EnvState",
    "RayEnvManager",
    "SubprocessEnvManager",
    "SyncSubprocessEnvManager",
    "create_env_manager",
    "get_env_manager_cls",
    "manager_type",
]
