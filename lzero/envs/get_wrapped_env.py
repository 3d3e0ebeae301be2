"""``get_wrappered_env``: LightZero's factory of wrapped gym envs, and gym id checking."""

from __future__ import annotations

import functools
from collections.abc import Callable

from lzero.envs.wrappers.ding_env_wrapper import DingEnvWrapper, check_env_id
from lzero.envs.wrappers.lightzero_env_wrapper import wrapper_config
from lzero.envs.wrappers.lightzero_gym_env import lightzero_wrappers
from lzero.errors import ConfigError


def get_wrappered_env(wrapper_cfg: dict, env_id: str) -> Callable[[], DingEnvWrapper]:
    """Returns a factory of ``DingEnvWrapper(gym.make(env_id), env_wrapper=[...])`` envs.

    The factory is picklable (a ``functools.partial``), so subprocess managers can send it;
    each env builds its gym env lazily, on first use.

    Args:
        wrapper_cfg: LightZero's wrapper config: ``env_id``, ``continuous``,
            ``manually_discretization``, ``each_dim_disc_size``, ``is_train``.
        env_id: the gymnasium id.

    Raises:
        ConfigError: an unknown key, an unknown ``env_id``, or ``wrapper_cfg['env_id']``
            naming another task.
    """
    cfg = wrapper_config(wrapper_cfg, "get_wrappered_env wrapper_cfg")
    check_env_id(env_id)
    if cfg.env_id not in (None, env_id):
        raise ConfigError(
            f"get_wrappered_env: expected wrapper_cfg['env_id'] to match env_id {env_id!r}, "
            f"got {cfg.env_id!r}"
        )
    cfg.env_id = env_id
    return functools.partial(
        DingEnvWrapper, None, cfg={"env_id": env_id, "env_wrapper": lightzero_wrappers(cfg)}
    )
