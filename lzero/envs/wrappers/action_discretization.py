"""``ActionDiscretizationEnvWrapper``: a continuous (Box) action space as one Discrete space.

Each of the ``m`` action dimensions gets ``n = each_dim_disc_size`` evenly spaced values from
the space's own ``low[d]`` to its ``high[d]``, both included (``np.linspace``, whose end
points are exact); the discrete actions are their Cartesian product, ``n ** m`` of them, in
``itertools.product`` order: index ``i`` has base-``n`` digits ``(k_0, ..., k_{m-1})``, most
significant first, and maps to ``(grid_0[k_0], ..., grid_{m-1}[k_{m-1}])``. (LightZero's grid
``-1 + 2/n * k`` never reaches the upper bound and ignores the space's bounds.)
"""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from lzero.envs.wrappers.conversions import to_gym_action
from lzero.envs.wrappers.lightzero_env_wrapper import check_gymnasium_env, wrapper_config
from lzero.errors import ConfigError

#: Largest number of discrete actions the wrapper builds (the table holds one row each).
MAX_ACTIONS = 1_000_000


def discretize_box(space: spaces.Box, each_dim_disc_size: int) -> np.ndarray:
    """Returns the continuous action of every discrete index.

    Args:
        space: a Box with finite bounds, of shape `S` (``m = prod(S)`` dimensions, taken in
            C order).
        each_dim_disc_size: ``n >= 2``, values per dimension.

    Returns:
        An array `[n ** m, *S]` of the space's dtype; row ``i`` is the action of index ``i``.

    Raises:
        ConfigError: ``space`` is not a Box, has infinite bounds, ``n < 2``, or
            ``n ** m > MAX_ACTIONS``.
    """
    if not isinstance(space, spaces.Box):
        raise ConfigError(
            f"action discretization: expected a continuous (Box) action space, got {space}"
        )
    n = each_dim_disc_size
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ConfigError(f"each_dim_disc_size: expected an int >= 2, got {n!r}")
    low, high = space.low.reshape(-1), space.high.reshape(-1)
    if not (np.all(np.isfinite(low)) and np.all(np.isfinite(high))):
        raise ConfigError(
            f"action discretization: expected finite low and high, got low={space.low}, "
            f"high={space.high}"
        )
    n, m = int(n), low.size  # a Python int: a NumPy int's power wraps (int64(2) ** 64 == 0)
    if n**m > MAX_ACTIONS:
        raise ConfigError(
            f"action discretization: expected each_dim_disc_size ** action_dims <= "
            f"{MAX_ACTIONS:,}, got {n} ** {m} = {n**m:,}"
        )
    grids = [
        np.linspace(lo, hi, int(n))
        for lo, hi in zip(low.astype(np.float64), high.astype(np.float64))
    ]
    table = np.array(list(itertools.product(*grids)), dtype=np.float64).reshape(n**m, *space.shape)
    if np.issubdtype(space.dtype, np.integer):
        table = np.rint(table)  # nearest grid value; astype alone would truncate
    return table.astype(space.dtype)


class ActionDiscretizationEnvWrapper(gymnasium.ActionWrapper):
    """Exposes a Box action space as ``Discrete(each_dim_disc_size ** m)``.

    Attributes:
        action_table: `[n ** m, *S]`, the continuous action played for each index (see the
            module docstring for the order).

    Args:
        env: a gymnasium env with a Box action space of finite bounds.
        cfg: keys of :data:`~lzero.envs.wrappers.lightzero_env_wrapper.WRAPPER_CONFIG`; only
            ``each_dim_disc_size`` is read.

    Raises:
        ConfigError: see :func:`discretize_box`; asking to discretize a Discrete space is
            an error.
    """

    def __init__(self, env: gymnasium.Env, cfg: dict | None = None) -> None:
        check_gymnasium_env(env, "ActionDiscretizationEnvWrapper")
        super().__init__(env)
        self.cfg = wrapper_config(cfg, "ActionDiscretizationEnvWrapper config")
        self.action_table = discretize_box(env.action_space, self.cfg.each_dim_disc_size)
        self.action_space = spaces.Discrete(len(self.action_table))

    def action(self, action: Any) -> np.ndarray:
        """Returns the continuous action of index ``action`` (a fresh array).

        Raises:
            IllegalActionError: ``action`` is not an index in ``[0, n ** m)``.
        """
        return self.action_table[to_gym_action(self.action_space, action)].copy()
