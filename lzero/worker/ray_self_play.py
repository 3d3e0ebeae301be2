"""Self-play in Ray actors, for every algorithm: each actor holds its own copy of the model and
plays its share of the games with the batched search; the learner stays in the driver.
:class:`RaySelfPlay` is the driver's side (actors, weights, pipelining, faults); AlphaZero's and
MuZero's collectors add their actor body and how a phase's results are merged.

Weights: the driver puts the model's weights in Ray's object store (``ray.put``, one copy per
node however many actors read it) when ``weight_sync_freq`` learner updates have passed since
the last broadcast, checked at the start of each collect phase; an actor loads a new version
before its next phase.

Pipelining: as soon as an actor's phase is in, its next phase is started, so the actors play
while the learner trains on what they sent. Their weights are therefore one collect phase older
than in-process self-play's (the usual trade of distributed self-play for throughput). Which
weights a phase plays with does not depend on timing (a phase starts with the weights of the
broadcast before the previous collect returned), so a seed gives the same run.

Faults: an actor that dies (killed, or its process exits) or raises is reported with an
:class:`~lzero.errors.ActorFailureWarning` naming it, replaced by a new actor with the current
weights, and its unfinished games are lost; the phase returns the other actors' results and the
learner goes on. An actor that fails ``max_consecutive_failures`` phases in a row raises.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from lzero.envs.env_manager.ray_session import ActorSet, acquire_ray, actor_count, release_ray
from lzero.errors import ActorFailureWarning

#: The self-play keys of ``main_config.env.manager`` beside ``RAY_CONFIG``'s.
SELF_PLAY_CONFIG = dict(
    weight_sync_freq=1,  # (int) learner updates between weight broadcasts (ray.put) to the
    # actors, checked as each collect phase starts
    max_consecutive_failures=5,  # (int) phases in a row an actor may die before the run stops
    # with an error (each failure is warned about and the actor replaced)
)


class SelfPlayActorBase:
    """What every self-play actor body has: the weights it plays with and its process id.
    Subclasses set ``self.policy`` (with a ``model`` and a ``train_iter``)."""

    version = -1
    policy: Any

    def sync(self, weights: list, train_iter: int) -> None:
        """Loads ``weights`` (``[(version, ObjectRef)]``) if newer than the loaded ones and sets
        the policy's ``train_iter`` (temperature schedules read it)."""
        import ray

        version, ref = weights[0]
        if version > self.version:
            self.policy.model.load_state_dict(ray.get(ref))
            self.version = version
        self.policy.train_iter = train_iter

    def pid(self) -> int:
        import os

        return os.getpid()


class RaySelfPlay:
    """The driver's side of self-play in Ray actors (see the module docstring).

    Args:
        policy: the driver's (learner's) policy, with ``model`` and ``train_iter``.
        m: the manager config (``actor_num``, ``num_cpus_per_actor``, ``ray_address``,
            ``weight_sync_freq``, ``max_consecutive_failures``).
        units: games (or envs) to share among the actors.
        make_actor: ``make_actor(remote_cls, chunk)`` starts the actor that plays ``chunk`` (a
            list of game indices) from ``remote_cls`` (the actor class with its Ray options).
        actor_cls: the actor body, a :class:`SelfPlayActorBase`.
        where: the config's place, for error messages.
    """

    def __init__(
        self,
        policy: Any,
        m: Mapping,
        units: int,
        make_actor: Callable[[Any, list[int]], Any],
        actor_cls: type,
        where: str = "main_config.env.manager",
    ) -> None:
        self.ray = acquire_ray(m.ray_address, "Ray self-play (manager type 'ray')")
        self.policy, self.cfg = policy, m
        self.actors = None
        self._connect_timeout, self._where = m.get("connect_timeout", 60.0), where
        try:
            n = actor_count(self.ray, m, units, where)
            self.chunks = [c.tolist() for c in np.array_split(np.arange(units), n)]
            remote = self.ray.remote(actor_cls).options(num_cpus=m.num_cpus_per_actor)
            self.actors = ActorSet(self.ray, lambda a: make_actor(remote, self.chunks[a]), n)
            self._wait_started(range(n))
        except BaseException:
            if self.actors is not None:
                self.actors.close()
            release_ray()
            raise
        self._failures = [0] * n
        self._inflight: dict[int, Any] = {}  # actor -> ref of its running phase
        self._weights: list = []  # [(version, ObjectRef)]
        self._synced_iter: int | None = None
        self._version = -1
        self._closed = False

    def _wait_started(self, actors) -> None:
        """Waits at most ``connect_timeout`` seconds (None: no limit) for ``actors`` (indices)
        to start: all of them at first, a replacement after a failure.

        Raises:
            RuntimeError: they did not: Ray lacked the free CPUs they reserve (other jobs'
                actors hold them), and would have waited for them without a word.
        """
        refs = [self.actors[a].pid.remote() for a in actors]
        timeout = self._connect_timeout
        try:
            self.ray.get(refs, timeout=timeout)
        except self.ray.exceptions.GetTimeoutError as err:
            k, per = len(refs), float(self.cfg.num_cpus_per_actor)
            raise RuntimeError(
                f"Ray self-play: expected {k} actors to start within {self._where}."
                f"connect_timeout {timeout:g} s, got fewer (Ray may lack the free CPUs they "
                f"reserve: {k} * num_cpus_per_actor {per:g}, beside other jobs' actors; or they "
                "are still starting: a first start compiles their kernels; lower actor_num or "
                "num_cpus_per_actor, or raise connect_timeout)"
            ) from err

    def _broadcast(self) -> None:
        it = self.policy.train_iter
        if self._synced_iter is None or it - self._synced_iter >= self.cfg.weight_sync_freq:
            state = {k: v.detach().clone() for k, v in self.policy.model.state_dict().items()}
            self._version += 1
            self._weights = [(self._version, self.ray.put(state))]
            self._synced_iter = it

    def _phases(
        self,
        start: Callable[[int], Any | None],
        received: Callable[[int, Any], None] | None = None,
    ) -> dict[int, Any]:
        """Broadcasts the weights if due, then returns ``{actor: result}`` of one phase of every
        live actor (at least one, unless ``start`` starts none). ``start(a)`` starts actor
        ``a``'s next phase and returns its ref, or None to start none; a started phase runs on
        while the learner trains. ``received(a, result)`` is called as each result comes in,
        before any next phase starts.

        The time spent waiting is ``self.wait_seconds``."""
        self._broadcast()
        parts: dict[int, Any] = {}
        begin = time.perf_counter()
        while not parts:  # if every actor failed, wait for their replacements' phase
            for a in range(len(self.actors)):
                if a not in self._inflight:
                    self._launch(a, start)
            if not self._inflight:
                break
            for a in range(len(self.actors)):
                if a not in self._inflight:
                    continue
                try:
                    parts[a] = self.ray.get(self._inflight.pop(a))
                    self._failures[a] = 0
                    if received is not None:
                        received(a, parts[a])
                except self.ray.exceptions.RayError as err:
                    self._fail(a, err)
            for a in range(len(self.actors)):
                self._launch(a, start)  # the next phase runs while the learner trains
        self.wait_seconds = time.perf_counter() - begin
        return parts

    def _launch(self, a: int, start: Callable[[int], Any | None]) -> None:
        ref = start(a)
        if ref is not None:
            self._inflight[a] = ref

    def _fail(self, a: int, err: Exception) -> None:
        self._lost(a)
        self._failures[a] += 1
        text = str(err).strip().splitlines()
        message = (
            f"Ray self-play actor {a} (games {self.chunks[a]}) failed and is replaced "
            f"(failure {self._failures[a]} in a row): {text[0] if text else type(err).__name__}"
        )
        if self._failures[a] >= self.cfg.max_consecutive_failures:
            raise RuntimeError(f"{message} (max_consecutive_failures reached)") from err
        warnings.warn(message, ActorFailureWarning, stacklevel=4)
        self.actors.restart(a)
        try:  # another job may have taken the CPUs the dead one freed: an error, not a wait
            self._wait_started([a])
        except self.ray.exceptions.RayActorError:
            pass  # it died starting: its next phase fails, and counts as a failure in a row

    def _lost(self, a: int) -> None:
        """Called when actor ``a``'s running phase is lost (the actor failed)."""

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
