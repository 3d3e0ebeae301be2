"""Env managers that step many envs through LightZero's dict-keyed interface (DI-engine's names:
``BaseEnvManager``, ``SubprocessEnvManager`` and its ``Sync``/``Async`` names, ``EnvState``)."""

from lzero.envs.env_manager.base_env_manager import BaseEnvManager, EnvState
from lzero.envs.env_manager.subprocess_env_manager import (
    AsyncSubprocessEnvManager,
    SubprocessEnvManager,
    SyncSubprocessEnvManager,
)

__all__ = [
    "AsyncSubprocessEnvManager",
    "BaseEnvManager",
    "EnvState",
    "SubprocessEnvManager",
    "SyncSubprocessEnvManager",
]
