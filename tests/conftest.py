"""Fixtures shared by the Ray tests (env manager, AlphaZero and MuZero self-play), and the
threads policy of every test process."""

from __future__ import annotations

import os
import time

import pytest

# The suite runs two xdist workers (and Ray actors, subprocesses) on two cores: torch's idle
# OpenMP threads must sleep, not spin, or each worker's waits burn the other's core. Set
# before anything imports torch; subprocesses and Ray actors inherit it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray for one test module (2 CPUs, no dashboard; starting one costs seconds),
    shut down after it. Yields the ``ray`` module. ``address='local'``: a new instance even
    when a cluster started by ``ray start`` runs on this machine (ray.init would join it, and
    refuses ``num_cpus`` there: the tests had errored whenever one ran)."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="error")
    yield ray
    ray.shutdown()


def _exits(pid: int, wait: float = 15.0) -> bool:
    """Whether process ``pid`` exits (or is a zombie) within ``wait`` seconds; ``ray.kill``
    is asynchronous."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    return True
        except (ProcessLookupError, FileNotFoundError):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def exits():
    """``exits(pid, wait=15.0)``: whether the process ends within ``wait`` seconds."""
    return _exits


@pytest.fixture
def mcts_bot_simulations(monkeypatch):
    """The simulations of every MCTS bot built during the test, in order (the bot class is
    wrapped to record them)."""
    from zoo.board_games import mcts_bot

    seen: list[int] = []

    class Recording(mcts_bot.MCTSBot):
        def __init__(self, env, name, simulations, **kwargs):
            seen.append(simulations)
            super().__init__(env, name, simulations, **kwargs)

    monkeypatch.setattr(mcts_bot, "MCTSBot", Recording)
    return seen
