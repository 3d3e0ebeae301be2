"""AlphaZero self-play in Ray actors: each actor holds its own copy of the model and plays its
share of the games with the batched search (an :class:`AlphaZeroCollector`); the learner stays
in the driver.

Weights: the driver puts the model's weights in Ray's object store (``ray.put``, one copy per
node however many actors read it) when ``weight_sync_freq`` learner updates have passed since
the last broadcast, checked at the start of each collect phase; an actor loads a new version
before its next phase.

Pipelining: as soon as an actor's phase is in, its next phase is started, so the actors play
while the learner trains on what they sent. Their weights are therefore one collect phase older
than in-process self-play's (the usual trade of distributed self-play for throughput).

Faults: an actor that dies (killed, or its process exits) or raises is reported with an
:class:`~lzero.errors.ActorFailureWarning` naming it, replaced by a new actor with the current
weights, and its unfinished games are lost; the phase returns the other actors' games and the
learner goes on. An actor that fails ``max_consecutive_failures`` phases in a row raises.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from lzero.envs.env_manager.ray_session import (
    ActorSet,
    acquire_ray,
    actor_count,
    release_ray,
)
from lzero.errors import ActorFailureWarning


class SelfPlayActor:
    """The body of one self-play actor: a policy built from the config and a collector."""

    def __init__(self, cfg: Mapping, num_envs: int, seed: int) -> None:
        import torch

        from lzero.envs.registry import create_env
        from lzero.policy.alphazero import AlphaZeroPolicy
        from lzero.policy.board_game import BoardGame
        from lzero.worker.alphazero_collector import AlphaZeroCollector

        torch.set_num_threads(max(1, int(cfg.trainer.manager.num_cpus_per_actor)))
        torch.manual_seed(seed)
        env = create_env(cfg.create, cfg.env)
        game = BoardGame.from_env(env)
        env.close()
        self.policy = AlphaZeroPolicy(cfg.policy, game, seed=seed)
        self.collector = AlphaZeroCollector(
            self.policy, cfg.create.env.type, cfg.env, num_envs, seed
        )
        self.version = -1

    def collect(self, n_episode: int, weights: list, train_iter: int) -> dict:
        """Loads ``weights`` (``[(version, ObjectRef)]``) if newer, then plays ``n_episode``
        games; adds the seconds spent (``seconds``, ``forward_seconds``) to the collector's dict."""
        import ray

        version, ref = weights[0]
        if version > self.version:
            self.policy.model.load_state_dict(ray.get(ref))
            self.version = version
        self.policy.train_iter = train_iter  # the temperature schedule reads it
        self.policy.forward_seconds, start = 0.0, time.perf_counter()
        data = self.collector.collect(n_episode)
        data["seconds"], data["forward_seconds"] = (
            time.perf_counter() - start,
            self.policy.forward_seconds,
        )
        return data

    def pid(self) -> int:
        import os

        return os.getpid()


class RayAlphaZeroCollector:
    """Drop-in for :class:`AlphaZeroCollector` (``collect``, ``close``) with Ray actors.

    Args:
        policy: the driver's (learner's) ``AlphaZeroPolicy``.
        cfg: the compiled AlphaZero config; ``cfg.trainer.manager`` holds the Ray keys
            (``actor_num``, ``num_cpus_per_actor``, ``ray_address``, ``weight_sync_freq``,
            ``max_consecutive_failures``; an actor runs torch on ``num_cpus_per_actor`` threads).
        seed: actor ``a`` plays its games as an in-process collector seeded ``seed + offset``,
            ``offset`` being the index of its first game among ``collector_env_num``.
    """

    def __init__(self, policy: Any, cfg: Mapping, seed: int) -> None:
        m = cfg.trainer.manager
        self.ray = acquire_ray(m.ray_address, "Ray self-play (manager type 'ray')")
        self.policy, self.cfg = policy, m
        games = cfg.trainer.collector_env_num
        try:
            n = actor_count(self.ray, m, games, "main_config.env.manager")
            chunks = np.array_split(np.arange(games), n)
            remote = self.ray.remote(SelfPlayActor).options(num_cpus=m.num_cpus_per_actor)
            self.actors = ActorSet(
                self.ray, lambda a: remote.remote(cfg, len(chunks[a]), seed + int(chunks[a][0])), n
            )
        except BaseException:
            release_ray()
            raise
        self.chunks = [c.tolist() for c in chunks]
        self._failures = [0] * n
        self._inflight: dict[int, Any] = {}  # actor -> ref of its running phase
        self._weights: list = []  # [(version, ObjectRef)]
        self._synced_iter: int | None = None
        self._version = -1
        self._closed = False

    def _broadcast(self) -> None:
        it = self.policy.train_iter
        if self._synced_iter is None or it - self._synced_iter >= self.cfg.weight_sync_freq:
            state = {k: v.detach().clone() for k, v in self.policy.model.state_dict().items()}
            self._version += 1
            self._weights = [(self._version, self.ray.put(state))]
            self._synced_iter = it

    def _start(self, a: int, n_episode: int) -> None:
        share = math.ceil(n_episode / len(self.actors))
        self._inflight[a] = self.actors[a].collect.remote(
            share, self._weights, self.policy.train_iter
        )

    def collect(self, n_episode: int) -> dict:
        """Returns the games of one phase of every live actor (about ``n_episode`` in all), in
        :meth:`AlphaZeroCollector.collect`'s format, plus ``actors`` (the ids that sent games)."""
        self._broadcast()
        parts: dict[int, dict] = {}
        start = time.perf_counter()
        while not parts:  # if every actor failed, wait for their replacements' phase
            for a in range(len(self.actors)):
                if a not in self._inflight:
                    self._start(a, n_episode)
            for a in range(len(self.actors)):
                try:
                    parts[a] = self.ray.get(self._inflight.pop(a))
                    self._failures[a] = 0
                except self.ray.exceptions.RayError as err:
                    self._fail(a, err)
            for a in range(len(self.actors)):
                self._start(a, n_episode)  # the next phase runs while the learner trains
        done = [parts[a] for a in sorted(parts)]
        busy = sum(p["seconds"] for p in done)
        forward = sum(p["forward_seconds"] for p in done)
        self.policy.forward_seconds += (time.perf_counter() - start) * forward / max(busy, 1e-9)
        return {
            "planes": np.concatenate([p["planes"] for p in done]),
            "policy": np.concatenate([p["policy"] for p in done]),
            "value": np.concatenate([p["value"] for p in done]),
            "env_steps": sum(p["env_steps"] for p in done),
            "episodes": sum(p["episodes"] for p in done),
            "returns": [r for p in done for r in p["returns"]],
            "actors": sorted(parts),
        }

    def _fail(self, a: int, err: Exception) -> None:
        self._failures[a] += 1
        text = str(err).strip().splitlines()
        message = (
            f"Ray self-play actor {a} (games {self.chunks[a]}) failed and is replaced "
            f"(failure {self._failures[a]} in a row): {text[0] if text else type(err).__name__}"
        )
        if self._failures[a] >= self.cfg.max_consecutive_failures:
            raise RuntimeError(f"{message} (max_consecutive_failures reached)") from err
        warnings.warn(message, ActorFailureWarning, stacklevel=3)
        self.actors.restart(a)

    @property
    def actor_pids(self) -> list[int]:
        """Process ids of the actors."""
        return self.ray.get([actor.pid.remote() for actor in self.actors.actors])

    def close(self) -> None:
        """Kills the actors; releases Ray (shut down if this run started it)."""
        if not self._closed:
            self._closed = True
            self.actors.close()
            self._inflight.clear()
            release_ray()
