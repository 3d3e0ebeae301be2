"""AlphaZero self-play in Ray actors: each actor holds its own copy of the model and plays its
share of the games with the batched search (an :class:`AlphaZeroCollector`); the learner stays
in the driver. Weights, pipelining and faults: :mod:`lzero.worker.ray_self_play`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from lzero.worker.ray_self_play import RaySelfPlay, SelfPlayActorBase


class SelfPlayActor(SelfPlayActorBase):
    """The body of one self-play actor: a policy built from the config and a collector of
    ``collector_cls`` (:class:`~lzero.worker.alphazero_collector.AlphaZeroCollector`, handed
    in by ``make_alphazero_collector``, which chooses this collector and lives beside that
    one)."""

    def __init__(self, cfg: Mapping, num_envs: int, seed: int, collector_cls: type) -> None:
        import torch

        from lzero.envs.registry import create_env
        from lzero.policy.alphazero import AlphaZeroPolicy
        from lzero.policy.board_game import BoardGame

        torch.set_num_threads(max(1, int(cfg.trainer.manager.num_cpus_per_actor)))
        torch.manual_seed(seed)
        env = create_env(cfg.create, cfg.env)
        game = BoardGame.from_env(env)
        env.close()
        self.policy = AlphaZeroPolicy(cfg.policy, game, seed=seed)
        self.collector = collector_cls(self.policy, cfg.create.env.type, cfg.env, num_envs, seed)

    def collect(self, n_episode: int, weights: list, train_iter: int) -> dict:
        """Loads ``weights`` (``[(version, ObjectRef)]``) if newer, then plays ``n_episode``
        games; adds the seconds spent (``seconds``, ``forward_seconds``) to the collector's dict."""
        self.sync(weights, train_iter)
        self.policy.forward_seconds, start = 0.0, time.perf_counter()
        data = self.collector.collect(n_episode)
        data["seconds"], data["forward_seconds"] = (
            time.perf_counter() - start,
            self.policy.forward_seconds,
        )
        return data


class RayAlphaZeroCollector(RaySelfPlay):
    """Drop-in for :class:`AlphaZeroCollector` (``collect``, ``close``) with Ray actors.

    Args:
        policy: the driver's (learner's) ``AlphaZeroPolicy``.
        cfg: the compiled AlphaZero config; ``cfg.trainer.manager`` holds the Ray keys
            (``actor_num``, ``num_cpus_per_actor``, ``ray_address``, ``weight_sync_freq``,
            ``max_consecutive_failures``; an actor runs torch on ``num_cpus_per_actor`` threads).
        seed: actor ``a`` plays its games as an in-process collector seeded ``seed + offset``,
            ``offset`` being the index of its first game among ``collector_env_num``.
        collector_cls: the in-process collector each actor runs
            (:class:`~lzero.worker.alphazero_collector.AlphaZeroCollector`).
    """

    def __init__(self, policy: Any, cfg: Mapping, seed: int, *, collector_cls: type) -> None:
        super().__init__(
            policy,
            cfg.trainer.manager,
            cfg.trainer.collector_env_num,
            lambda remote, chunk: remote.remote(cfg, len(chunk), seed + chunk[0], collector_cls),
            SelfPlayActor,
        )

    def collect(self, n_episode: int) -> dict:
        """Returns the games of one phase of every live actor (about ``n_episode`` in all), in
        :meth:`AlphaZeroCollector.collect`'s format, plus ``actors`` (the ids that sent games)."""
        share = math.ceil(n_episode / len(self.actors))
        parts = self._phases(
            lambda a: self.actors[a].collect.remote(share, self._weights, self.policy.train_iter)
        )
        done = [parts[a] for a in sorted(parts)]
        busy = sum(p["seconds"] for p in done)
        forward = sum(p["forward_seconds"] for p in done)
        self.policy.forward_seconds += self.wait_seconds * forward / max(busy, 1e-9)
        return {
            "planes": np.concatenate([p["planes"] for p in done]),
            "policy": np.concatenate([p["policy"] for p in done]),
            "value": np.concatenate([p["value"] for p in done]),
            "draw": np.concatenate([p["draw"] for p in done]),
            "env_steps": sum(p["env_steps"] for p in done),
            "episodes": sum(p["episodes"] for p in done),
            "returns": [r for p in done for r in p["returns"]],
            "actors": sorted(parts),
        }
