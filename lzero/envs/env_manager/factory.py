"""Which manager a config asks for: DI-engine's ``get_env_manager_cls`` and the one rule that
reads the type from either place LightZero's configs name it."""

from __future__ import annotations

from collections.abc import Mapping

from lzero.envs.config import unknown_name_message
from lzero.envs.env_manager.base_env_manager import BaseEnvManager
from lzero.envs.env_manager.ray_env_manager import RayEnvManager
from lzero.envs.env_manager.subprocess_env_manager import (
    AsyncSubprocessEnvManager,
    SubprocessEnvManager,
)
from lzero.errors import ConfigError

#: Manager types under DI-engine's names (``create_config.env_manager.type``).
ENV_MANAGER_TYPES = {
    "base": BaseEnvManager,
    "subprocess": SubprocessEnvManager,
    "async_subprocess": AsyncSubprocessEnvManager,  # DI-engine's name (see the class)
    "ray": RayEnvManager,
}


def get_env_manager_cls(cfg: Mapping | str) -> type:
    """The manager class of ``cfg.type`` (or of the type name itself).

    Raises:
        ConfigError: an unknown type; the message lists the known ones.
    """
    name = cfg if isinstance(cfg, str) else cfg.get("type")
    if name not in ENV_MANAGER_TYPES:
        raise ConfigError(
            "env_manager: " + unknown_name_message("type", str(name), ENV_MANAGER_TYPES)
        )
    return ENV_MANAGER_TYPES[name]


def manager_type(manager: Mapping, env_manager: Mapping, where: str) -> str:
    """The manager type of a config: ``main_config.env.manager.type`` if set, else
    ``create_config.env_manager.type``; they must agree when both are set.

    Raises:
        ConfigError: an unknown type, or the two places name different types.
    """
    own, create = manager.get("type"), env_manager.get("type")
    if own is not None and create not in (None, "base", own):
        raise ConfigError(
            f"{where}.manager: expected type {create!r} as create_config.env_manager says "
            f"(or no type there), got {own!r}"
        )
    name = own or create or "base"
    get_env_manager_cls(name)
    return name


def create_env_manager(manager_cfg: Mapping | None, env_fn: list) -> BaseEnvManager:
    """DI-engine's ``create_env_manager``: the manager of ``manager_cfg.type`` (default
    ``'base'``) over the env factories ``env_fn``, configured by the rest of ``manager_cfg``
    (its ``import_names`` dropped).

    Raises:
        ConfigError: an unknown type or manager key.
    """
    cfg = dict(manager_cfg or {})
    kind = cfg.pop("type", None) or "base"
    cfg.pop("import_names", None)
    return get_env_manager_cls(kind)(env_fn, cfg)
