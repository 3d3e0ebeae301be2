"""Ray for our managers and self-play collectors: the optional import, joining or starting a
cluster, and a set of actors that are replaced one at a time.

Ray is an optional extra (``pip install -e ".[ray]"``); :func:`import_ray` raises
:class:`~lzero.errors.MissingExtraError` naming it when Ray is absent.

Who owns the cluster: if Ray is already initialised in this process (by the user, or a test),
we use it and never shut it down. Otherwise the first user joins ``ray_address`` (or
``$RAY_ADDRESS``), or starts a local Ray when neither is set; the last user to close calls
``ray.shutdown()``, which stops a local Ray's processes and only disconnects from a cluster.
"""

from __future__ import annotations

import math
import os
import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

from lzero.errors import ConfigError, MissingExtraError

#: The keys that place work on Ray, shared by ``RayEnvManager`` and the Ray self-play collector.
RAY_CONFIG = dict(
    # (int | None) Ray actors; the envs (or games) are split into this many contiguous chunks,
    # one per actor. None: as many as the cluster's CPUs hold (at most one per env).
    actor_num=None,
    # (float) CPUs Ray reserves for each actor: with 1 it spreads actors over a cluster's
    # nodes and never starts more than the cluster has CPUs; 0 places them anywhere.
    num_cpus_per_actor=1.0,
    # (str | None) cluster to join: 'auto' (the one `ray start` runs on this machine),
    # 'host:port' or 'ray://host:port'. None: $RAY_ADDRESS if set, else a local Ray started
    # for this run and stopped by close(). Ignored when Ray is already initialised.
    ray_address=None,
)

_session = {"users": 0}  # users of the Ray this module initialised (0: none, or not ours)


def import_ray(what: str = "the Ray env manager") -> Any:
    """Returns the ``ray`` module.

    Raises:
        MissingExtraError: Ray is not installed; the message names the extra to install.
    """
    try:
        import ray
    except ImportError as err:
        raise MissingExtraError(
            f'{what} needs ray, which is not installed: pip install -e ".[ray]" '
            f"(or pip install 'ray>=2.10')"
        ) from err
    return ray


def check_ray_config(cfg: Any, where: str) -> None:
    """Raises ConfigError unless ``actor_num``, ``num_cpus_per_actor`` and ``ray_address``
    hold the types :data:`RAY_CONFIG` documents, and ``connect_timeout`` (where the config has
    it) is a positive number of seconds or None."""
    n = cfg.actor_num
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
        raise ConfigError(f"{where}: expected actor_num to be a positive int or None, got {n!r}")
    cpus = cfg.num_cpus_per_actor
    if (
        isinstance(cpus, bool)
        or not isinstance(cpus, (int, float))
        or not math.isfinite(cpus)
        or cpus < 0
    ):
        raise ConfigError(f"{where}: expected num_cpus_per_actor, a number >= 0, got {cpus!r}")
    if cfg.ray_address is not None and not isinstance(cfg.ray_address, str):
        raise ConfigError(
            f"{where}: expected ray_address to be a str or None, got {cfg.ray_address!r}"
        )
    t = cfg.get("connect_timeout")
    if t is not None and (
        isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t < math.inf
    ):
        raise ConfigError(
            f"{where}: expected connect_timeout, a positive number of seconds or None (no "
            f"limit), got {t!r}"
        )


def actor_count(ray: Any, cfg: Any, units: int, where: str) -> int:
    """The number of actors for ``units`` envs or games: ``cfg.actor_num``, or by default as
    many as the cluster's CPUs hold at ``num_cpus_per_actor`` each (at most ``units``).

    Raises:
        ConfigError: the actors would need more CPUs than the cluster has (Ray would wait
            for them forever).
    """
    cpus, per = float(ray.cluster_resources().get("CPU", 0.0)), float(cfg.num_cpus_per_actor)
    fits = units if per == 0 else int(cpus // per + 1e-9)
    n = min(units, cfg.actor_num or max(1, fits))
    if n * per > cpus + 1e-9:
        asked = (
            ""
            if n == cfg.actor_num or cfg.actor_num is None
            else f" (actor_num {cfg.actor_num}, one per env or game at most)"
        )
        raise ConfigError(
            f"{where}: expected actor_num * num_cpus_per_actor <= the cluster's {cpus:g} CPUs, "
            f"got {n}{asked} * {per:g} (lower either, or join a larger cluster with ray_address)"
        )
    return n


def acquire_ray(address: str | None, what: str) -> Any:
    """Initialises Ray if needed (see the module docstring) and returns the module."""
    ray = import_ray(what)
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS") or None
        # ray.init installs a SIGTERM handler that exits the process; a handler of our own
        # (lzero train's: stop the run, save, exit 143) is put back.
        ours = signal.getsignal(signal.SIGTERM) if _main_thread() else None
        source = "$RAY_ADDRESS" if address == os.environ.get("RAY_ADDRESS") else "ray_address"
        if address:
            _check_reachable(address, source)
        try:
            if address:
                ray.init(address=address, logging_level="warning")
            else:
                ray.init(include_dashboard=False, logging_level="warning")
        except (ValueError, ConnectionError) as err:
            if not address:  # a local Ray that failed to start: Ray's own error says why
                raise
            if address.startswith("ray://") and "ray[client]" in str(err):
                raise MissingExtraError(
                    f"{source}: {address!r} joins through Ray Client, which needs "
                    "pip install 'ray[client]' (the .[ray] extra installs Ray without it; "
                    "'auto' or 'host:port' join without it)"
                ) from err
            raise ConfigError(
                f"{source}: expected 'auto', 'host:port' or 'ray://host:port' of a running Ray "
                f"cluster, got {address!r}: {err}"
            ) from err
        finally:
            if callable(ours):
                signal.signal(signal.SIGTERM, ours)
        _session["users"] = 0
        _session["ours"] = True
    elif not _session["users"]:
        _session["ours"] = False
    if _session.get("ours"):
        _session["users"] += 1
    return ray


def _check_reachable(address: str, source: str) -> None:
    """Raises ConfigError, naming ``source`` (the key or variable the address came from),
    when nothing answers at a 'host:port' address within 5 s (Ray would retry for minutes);
    'auto', 'ray://' and other forms are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or "/" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=5.0).close()
    except OSError as err:
        raise ConfigError(
            f"{source}: expected a running Ray cluster at {address!r}, got no answer there "
            f"({err}); start one with ray start --head, or leave it unset for a local Ray"
        ) from err


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def release_ray() -> None:
    """Ends one use of Ray; the last user of a Ray we initialised shuts it down."""
    if not _session.get("ours") or not _session["users"]:
        return
    _session["users"] -= 1
    if not _session["users"]:
        import ray

        ray.shutdown()
        _session["ours"] = False


class ActorSet:
    """``n`` Ray actors made by ``make(i)``; each can be replaced alone, all are killed together.

    Args:
        ray: the ray module.
        make: builds actor ``i`` (returns an actor handle).
        n: number of actors.
    """

    def __init__(self, ray: Any, make: Callable[[int], Any], n: int) -> None:
        self._ray, self._make = ray, make
        self.actors = [make(i) for i in range(n)]
        self.restarts = [0] * n

    def __getitem__(self, i: int) -> Any:
        return self.actors[i]

    def __len__(self) -> int:
        return len(self.actors)

    def restart(self, i: int) -> None:
        """Kills actor ``i`` (if still running) and starts a new one in its place."""
        self._kill(self.actors[i])
        self.actors[i] = self._make(i)
        self.restarts[i] += 1

    def _kill(self, actor: Any) -> None:
        if not self._ray.is_initialized():  # Ray is gone with its actors (and any Ray call
            return  # would start a new local one)
        try:
            self._ray.kill(actor, no_restart=True)
        except Exception:  # already dead, or Ray is gone: nothing left to stop
            pass

    def close(self) -> None:
        for actor in self.actors:
            self._kill(actor)
        self.actors = []
