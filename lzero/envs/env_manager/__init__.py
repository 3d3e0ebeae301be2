"""Env managers that step many envs through LightZero's dict-keyed interface."""

from lzero.envs.env_manager.base_env_manager import BaseEnvManager
from lzero.envs.env_manager.subprocess_env_manager import SubprocessEnvManager

__all__ = ["BaseEnvManager", "SubprocessEnvManager"]
