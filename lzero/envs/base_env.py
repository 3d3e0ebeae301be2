"""The BaseEnv contract that every env, wrapper, pool and trainer of the project relies on.

It follows the contract DI-engine documents and LightZero builds on, under the same names:

* ``__init__(cfg)`` only stores the config; the real environment is built lazily, on the
  first ``reset``.
* ``seed(seed, dynamic_seed=True)``: with a static seed every ``reset`` starts the same
  episode; with a dynamic seed each episode gets its own seed, drawn from a generator the
  seed itself fixes, so a run is reproducible while its episodes differ.
* ``step`` returns ``BaseEnvTimestep(obs, reward, done, info)``: observations are NumPy
  arrays (or dicts of them), ``reward`` is a float32 array of shape `[1]`, ``done`` a Python
  bool, and at the end of an episode ``info['eval_episode_return']`` is the episode's return
  as a Python float.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections import namedtuple
from collections.abc import Mapping
from typing import Any

import numpy as np
from easydict import EasyDict

from lzero.envs.config import merge_config, raise_unknown_keys, unknown_keys
from lzero.errors import ConfigError

BaseEnvTimestep = namedtuple("BaseEnvTimestep", ["obs", "reward", "done", "info"])


#: Keys of LightZero's ``main_config.env`` that configure the env manager, collector or
#: evaluator rather than one env. An env accepts and drops them, so configs port unchanged.
ENV_MANAGER_KEYS = frozenset(
    {
        "type",
        "import_names",
        "collector_env_num",
        "evaluator_env_num",
        "n_evaluator_episode",
        "stop_value",
        "manager",
        # (str) Not a manager key: LightZero's ``default_config()`` stamps the class name on
        # every config it returns (``'TicTacToeEnvDict'``), so a config read back from it
        # carries the key; no effect here.
        "cfg_type",
    }
)


def _space(name: str, what: str) -> property:
    """A settable space property; reading one never set raises AttributeError (so that
    ``hasattr`` and ``check_env`` see it missing), but ``reward_space`` has a default."""
    attr = f"_base_env_{name}"

    def get(self):
        value = self.__dict__.get(attr)
        if value is not None:
            return value
        if name == "reward_space":
            from gymnasium import spaces

            return spaces.Box(-np.inf, np.inf, (1,), np.float32)
        raise AttributeError(
            f"{type(self).__name__}: expected {name} to be defined (a property or class "
            f"attribute, or set in __init__), got none"
        )

    def set(self, value):
        self.__dict__[attr] = value

    return property(get, set, doc=f"The gymnasium space of {what}.")


class BaseEnv(ABC):
    """Abstract environment: subclasses implement ``reset``, ``step``, ``close`` and spaces.

    Subclasses declare their documented defaults in the class attribute ``config`` (a dict,
    one ``# (type) meaning`` comment per key) and call ``super().__init__(cfg)``, which
    merges the user's dict over them and rejects unknown keys (a subclass that declares no
    ``config``, as DI-engine's envs, gets its dict as it is). The spaces are properties or
    class attributes, or are set in ``__init__``; ``reward_space`` defaults to a `[1]` Box.
    In ``reset`` they call :meth:`_start_episode` to get the episode's seed and a fresh
    ``self.np_random``.
    """

    config: dict = {}
    #: Top-level config keys whose dict values are free-form (not checked key by key).
    open_config_keys: tuple = ()
    # Class-level defaults, so that an env whose ``__init__`` does not call ours (DI-engine's
    # demo envs) still seeds, resets and draws random actions.
    _seed: int | None = None
    _dynamic_seed = True
    _seed_rng: np.random.Generator | None = None
    _replay_path: str | None = None
    _np_random: np.random.Generator | None = None

    @property
    def np_random(self) -> np.random.Generator:
        """The episode's generator (reseeded by :meth:`_start_episode`); made on first use."""
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @np_random.setter
    def np_random(self, rng: np.random.Generator) -> None:
        self._np_random = rng

    def __init__(self, cfg: dict | None = None) -> None:
        if cfg is not None and not isinstance(cfg, Mapping):
            raise ConfigError(
                f"{type(self).__name__} config: expected a dict, got {type(cfg).__name__}"
            )
        where = f"{type(self).__name__} config"
        if any("config" in vars(c) for c in type(self).__mro__ if c is not BaseEnv):
            # The manager's keys sit in LightZero's env config too: valid, named in the hints.
            valid = dict(self.default_config(), **dict.fromkeys(ENV_MANAGER_KEYS))
            raise_unknown_keys(unknown_keys(valid, cfg or {}, where, self.open_config_keys))
            cfg = {k: v for k, v in (cfg or {}).items() if k not in ENV_MANAGER_KEYS}
            self._cfg = merge_config(
                self.default_config(), cfg, where=where, open_keys=self.open_config_keys
            )
        else:  # no documented keys to check (a DI-engine-style env passing its config up):
            self._cfg = EasyDict(copy.deepcopy(dict(cfg or {})))  # taken as DI-engine's is
        self._init_flag = False
        self._seed: int | None = None
        self._dynamic_seed = True
        self._seed_rng: np.random.Generator | None = None
        self._replay_path: str | None = None
        self.np_random = np.random.default_rng()

    @classmethod
    def default_config(cls) -> EasyDict:
        """Returns a deep copy of the class's documented defaults."""
        return EasyDict(copy.deepcopy(cls.config))

    # ------------------------------------------------------------------ seeding
    def seed(self, seed: int, dynamic_seed: bool = True) -> None:
        """Fixes the seed of the following episodes.

        Args:
            seed: a non-negative integer.
            dynamic_seed: if True, each ``reset`` draws a new episode seed from a generator
                seeded with ``seed``; if False, every ``reset`` replays the same episode.

        Raises:
            ConfigError: ``seed`` is not a non-negative integer.
        """
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ConfigError(f"seed: expected a non-negative int, got {seed!r}")
        self._seed = int(seed)
        self._dynamic_seed = bool(dynamic_seed)
        self._seed_rng = np.random.default_rng(self._seed)
        # until an episode reseeds it (_start_episode): not the unseeded one of __init__
        self.np_random = np.random.default_rng(self._seed)

    def _start_episode(self) -> int | None:
        """Returns this episode's seed (None if never seeded) and reseeds ``self.np_random``."""
        if self._seed is None:
            episode_seed = None
        elif self._dynamic_seed:
            episode_seed = int(self._seed_rng.integers(0, 2**31 - 1))
        else:
            episode_seed = self._seed
        self.np_random = np.random.default_rng(episode_seed)
        return episode_seed

    # ------------------------------------------------------------------ the contract
    @abstractmethod
    def reset(self, *args: Any, **kwargs: Any) -> Any:
        """Starts a new episode and returns its first observation."""

    @abstractmethod
    def step(self, action: Any) -> BaseEnvTimestep:
        """Plays ``action`` and returns ``BaseEnvTimestep(obs, reward, done, info)``."""

    @abstractmethod
    def close(self) -> None:
        """Releases resources; the env may be reset again afterwards."""

    # The spaces: a subclass defines them as properties or class attributes, or, as DI-engine's
    # envs do, sets them in __init__ (self.observation_space = ...); reward_space defaults to
    # an unbounded [1] float32 Box (DI-engine's envs without one exist).
    observation_space = _space("observation_space", "the observations reset and step return")
    action_space = _space("action_space", "the actions step accepts")
    reward_space = _space("reward_space", "the rewards (default: an unbounded [1] float32 Box)")

    def random_action(self) -> Any:
        """Returns a uniformly random action of ``action_space``, drawn from the episode's
        seeded generator. It knows no ``action_mask``: an env with illegal actions overrides
        it (``check_env`` draws from the observation's mask itself)."""
        space = self.action_space
        space.seed(int(self.np_random.integers(0, 2**31 - 1)))
        return space.sample()

    def enable_save_replay(self, replay_path: str | None) -> None:
        """Asks the env to save each following episode as a replay under ``replay_path``."""
        self._replay_path = replay_path

    # ------------------------------------------------------------------ configs per env
    @staticmethod
    def create_collector_env_cfg(cfg: dict) -> list[EasyDict]:
        """Returns one config per collector env (``cfg.collector_env_num`` of them).

        The caller's config is not modified; each returned config is an independent copy.
        """
        return BaseEnv._per_env_cfgs(cfg, "collector_env_num")

    @staticmethod
    def create_evaluator_env_cfg(cfg: dict) -> list[EasyDict]:
        """Returns one config per evaluator env (``cfg.evaluator_env_num`` of them)."""
        return BaseEnv._per_env_cfgs(cfg, "evaluator_env_num")

    @staticmethod
    def _per_env_cfgs(cfg: dict, key: str) -> list[EasyDict]:
        num = cfg.get(key, 1)
        if isinstance(num, bool) or not isinstance(num, (int, np.integer)) or num < 1:
            raise ConfigError(f"{key}: expected a positive int, got {num!r}")
        return [EasyDict(copy.deepcopy(dict(cfg))) for _ in range(int(num))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self._seed}, dynamic_seed={self._dynamic_seed})"
