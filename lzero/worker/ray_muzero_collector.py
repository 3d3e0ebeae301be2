"""MuZero self-play in Ray actors: each actor holds its own copy of the model and steps its share
of ``collector_env_num`` envs with the batched search (a :class:`MuZeroCollector` over an
in-process env manager); the game segments come back to the driver's replay buffer, where the
learner stays. Weights, pipelining and faults: :mod:`lzero.worker.ray_self_play`.

Chosen by ``main_config.env.manager=dict(type='ray', self_play_actors=True, actor_num=N)``.
Without ``self_play_actors`` a ``'ray'`` manager keeps only the envs in Ray actors
(``RayEnvManager``) and the search in the driver.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from easydict import EasyDict

from lzero.envs.config import check_positive_ints, merge_config
from lzero.envs.env_manager.base_env_manager import BaseEnvManager
from lzero.envs.env_manager.ray_session import RAY_CONFIG, check_ray_config
from lzero.errors import ConfigError
from lzero.worker.ray_self_play import SELF_PLAY_CONFIG, RaySelfPlay, SelfPlayActorBase

WHERE = "main_config.env.manager"

#: ``main_config.env.manager`` of MuZero self-play in Ray actors.
SELF_PLAY_MANAGER_CONFIG = dict(
    BaseEnvManager.config,  # each actor's in-process manager of its envs
    **RAY_CONFIG,
    **SELF_PLAY_CONFIG,
    type="ray",
    self_play_actors=True,  # (bool) True: self-play in Ray actors; False: only the envs
    # live in Ray actors (RayEnvManager) and the search stays in the driver
)


def self_play_manager(cfg: Mapping, manager_type: str) -> EasyDict | None:
    """The checked self-play manager config of a compiled MuZero config, or None when the envs
    are stepped by an env manager in the driver (``self_play_actors`` false or absent).

    Raises:
        ConfigError: ``self_play_actors`` with a manager type other than ``'ray'``, an unknown
            key, or a value of the wrong type.
    """
    user = dict(cfg.env.get("manager") or {})
    flag = user.get("self_play_actors", False)
    if not isinstance(flag, bool):
        raise ConfigError(f"{WHERE}: expected self_play_actors to be a bool, got {flag!r}")
    if not flag:
        if "weight_sync_freq" in user:
            raise ConfigError(
                f"{WHERE}: weight_sync_freq applies to self-play in Ray actors; expected it "
                "only with type 'ray' and self_play_actors=True"
            )
        return None
    if manager_type != "ray":
        raise ConfigError(
            f"{WHERE}: expected type 'ray' with self_play_actors=True (self-play runs in Ray "
            f"actors), got {manager_type!r}"
        )
    user["type"] = "ray"
    m = merge_config(SELF_PLAY_MANAGER_CONFIG, user, where=WHERE)
    check_ray_config(m, WHERE)
    check_positive_ints(m, ("weight_sync_freq", "max_consecutive_failures"), where=WHERE)
    return m


class MuZeroSelfPlayActor(SelfPlayActorBase):
    """The body of one MuZero self-play actor: a policy, its envs and a collector.

    Args:
        cfg: the compiled MuZero config.
        env_ids: the indices (among ``collector_env_num``) of the envs it steps; env ``i`` is
            seeded ``seed + i`` as in the driver's manager.
        seed: the run's seed.
    """

    def __init__(self, cfg: Mapping, env_ids: list[int], seed: int) -> None:
        import torch

        from lzero.worker.muzero_parts import env_factory, make_muzero_collector, make_policy

        m = cfg.env.manager
        torch.manual_seed(seed + env_ids[0])
        self.policy = make_policy(cfg)
        torch.set_num_threads(max(1, int(m.num_cpus_per_actor)))
        manager = BaseEnvManager(
            [env_factory(cfg, is_train=True)] * len(env_ids),
            {k: v for k, v in m.items() if k in BaseEnvManager.config},
        )
        manager.seed([seed + i for i in env_ids])
        manager.launch()
        self.collector = make_muzero_collector(cfg, manager, self.policy, seed + env_ids[0])

    def collect(
        self,
        n_episode: int,
        max_steps: int | None,
        weights: list,
        train_iter: int,
        epsilon: float | None = None,
    ) -> tuple[list, dict]:
        """Loads ``weights`` if newer, then runs :meth:`MuZeroCollector.collect`."""
        self.sync(weights, train_iter)
        return self.collector.collect(n_episode, max_steps=max_steps, epsilon=epsilon)


class RayMuZeroCollector(RaySelfPlay):
    """Drop-in for :class:`MuZeroCollector` (``collect``, ``env_steps``, ``close``) with Ray
    actors.

    Args:
        policy: the driver's (learner's) ``MuZeroPolicy``.
        cfg: the compiled MuZero config; ``cfg.env.manager`` as :func:`self_play_manager`
            returns it (an actor runs torch on ``num_cpus_per_actor`` threads).
        seed: the run's seed (env seeds as in-process; actor ``a``'s search noise is seeded
            by its first env's index).
    """

    def __init__(self, policy: Any, cfg: Mapping, seed: int) -> None:
        super().__init__(
            policy,
            cfg.env.manager,
            cfg.env.collector_env_num,
            lambda remote, chunk: remote.remote(cfg, chunk, seed),
            MuZeroSelfPlayActor,
        )
        self.env_steps = 0
        self._limit: int | None = None  # env-step count at which collecting stops
        self._promised: dict[int, int] = {}  # actor -> step budget of its running phase
        self._epsilon: float | None = None  # of the phases being started

    def _start(self, a: int, share: int) -> Any | None:
        budget = None
        if self._limit is not None:
            left = self._limit - self.env_steps - sum(self._promised.values())
            if left <= 0:
                return None
            budget = math.ceil(left / (len(self.actors) - len(self._promised)))
            self._promised[a] = budget
        return self.actors[a].collect.remote(
            share, budget, self._weights, self.policy.train_iter, self._epsilon
        )

    def _received(self, a: int, result: tuple[list, dict]) -> None:
        self._promised.pop(a, None)
        self.env_steps += result[1]["env_steps"]

    def _lost(self, a: int) -> None:
        self._promised.pop(a, None)

    def collect(
        self, n_episode: int, *, max_steps: int | None = None, epsilon: float | None = None
    ) -> tuple[list, dict[str, Any]]:
        """One phase of every live actor, about ``n_episode`` episodes in all, within
        ``max_steps`` env steps in all (exceeded by fewer than ``collector_env_num``); in
        :meth:`MuZeroCollector.collect`'s format, plus ``actors`` (the ids that sent data).
        ``epsilon`` goes to the phases this call starts; a phase starts as the one before it
        comes in, so, like the weights, it reaches the data a phase later."""
        self._limit = None if max_steps is None else self.env_steps + max_steps
        self._epsilon = epsilon
        share = math.ceil(n_episode / len(self.actors))
        parts = self._phases(lambda a: self._start(a, share), self._received)
        segments = [s for a in sorted(parts) for s in parts[a][0]]
        stats = [parts[a][1] for a in sorted(parts)]
        episodes = sum(s["episodes"] for s in stats)
        total = sum(s["return_mean"] * s["episodes"] for s in stats if s["episodes"])
        return segments, {
            "env_steps": sum(s["env_steps"] for s in stats),
            "episodes": episodes,
            "return_mean": total / episodes if episodes else float("nan"),
            "actors": sorted(parts),
        }
