"""Who the page can play against: each game's bots, the shipped agents, the agents the server
was started with (``--agent NAME=PATH``), or another person at the same page.

An opponent is chosen by its id from :func:`catalogue`; the client never names a file. Agents
load on first use, once per number of simulations, and each plays one move at a time (its
search keeps buffers), so two games against the same agent take turns; other games do not
wait for it. The numba bots (rule, MCTS) hold the GIL while they search, so a long MCTS
search delays the server's other requests by its length; hence the bound on its simulations
(20,000: about 0.1 s on an empty 15x15 Gomoku board, 26 ms on Connect4, measured here).
"""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

from lzero.errors import ConfigError

HUMAN = "human"
PRETRAINED = "pretrained"
#: Simulations a move: the MCTS bot's default on the page (about 10 ms a move) and bounds.
MCTS_SIMULATIONS, MAX_MCTS_SIMULATIONS = 2000, 20_000
#: An agent's simulations a move are at most this (0: the network alone).
MAX_AGENT_SIMULATIONS = 2000
#: What a bot is called on the page.
BOT_LABELS = {
    "rule": "rule bot",
    "mcts": "MCTS bot (random rollouts)",
    "random": "random mover",
    "perfect": "perfect bot (exact solver)",
    "alpha_beta": "alpha-beta bot (exhaustive)",
}


class Opponent(NamedTuple):
    """One choice of opponent for one game.

    Attributes:
        id: what the client sends: ``human``, a bot type, ``pretrained`` or ``agent:NAME``.
        label: what the page shows.
        simulations: the default simulations a move; None: none taken (a person, most bots) or,
            for an agent, its checkpoint's own.
        max_simulations: the largest the server accepts; None where it takes none.
        min_simulations: the smallest (1 for the MCTS bot, 0 for an agent: its network alone).
        unavailable: why it cannot be chosen here (what to install), or None.
    """

    id: str
    label: str
    simulations: int | None = None
    max_simulations: int | None = None
    min_simulations: int | None = None
    unavailable: str | None = None

    def as_json(self) -> dict:
        return self._asdict()


class AgentBook:
    """The agents of one server: the shipped ones and ``--agent NAME=PATH``, loaded lazily.

    Args:
        paths: ``{name: checkpoint path}`` given at start-up (already checked to load).
        games: ``{name: (game, (height, width))}`` of those agents.
    """

    def __init__(self, paths: dict[str, str], games: dict[str, tuple[str, tuple[int, int]]]):
        self.paths, self.games = dict(paths), dict(games)
        self._loaded: dict[tuple[str, int | None], Any] = {}
        self._locks: dict[tuple[str, int | None], threading.Lock] = {}
        self._guard = threading.Lock()

    def names_for(self, game: str, shape: tuple[int, int]) -> list[str]:
        """The ``--agent`` names trained on ``game`` with board ``shape``."""
        return sorted(n for n, (g, s) in self.games.items() if g == game and tuple(s) == shape)

    def get(self, path: str, simulations: int | None) -> tuple[Any, threading.Lock]:
        """The agent of checkpoint ``path`` at ``simulations`` a move, and the lock its moves
        take; loaded on first use."""
        from lzero.agent import load_agent

        key = (path, simulations)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._loaded:
                self._loaded[key] = load_agent(path, simulations)
        return self._loaded[key], lock


def catalogue(
    env_cls: type, game: str, shape: tuple[int, int], agents: AgentBook
) -> list[Opponent]:
    """The opponents of ``game`` (an env class ``env_cls``, board ``shape``): a person, each
    bot, the shipped agent where there is one, then the ``--agent`` ones."""
    out = [Opponent(HUMAN, "another person (same page)")]
    for kind in env_cls.bot_types:
        reason = None
        try:  # on the class: no env is built (and no kernel compiled) to list the bots
            env_cls.check_bot_available(kind)
        except ConfigError as err:
            reason = str(err)
        sims = (MCTS_SIMULATIONS, MAX_MCTS_SIMULATIONS, 1) if kind == "mcts" else (None,) * 3
        label = BOT_LABELS.get(kind, kind)
        if kind == "alpha_beta" and env_cls.alpha_beta_bot is not None:
            label = "alpha-beta bot (a depth-limited search)"  # Othello's, not exhaustive
        out.append(Opponent(kind, label, *sims, unavailable=reason))
    default_shape = (
        (env_cls.rules.height, env_cls.rules.width) if hasattr(env_cls, "rules") else shape
    )
    if _ships(game) and tuple(shape) == default_shape:
        out.append(Opponent(PRETRAINED, "the shipped agent", None, MAX_AGENT_SIMULATIONS, 0))
    for name in agents.names_for(game, tuple(shape)):
        out.append(Opponent(f"agent:{name}", f"agent {name}", None, MAX_AGENT_SIMULATIONS, 0))
    return out


def _ships(game: str) -> bool:
    try:
        from lzero.pretrained import available
    except ImportError:  # pragma: no cover - lzero.pretrained needs nothing beyond the install
        return False
    return game in available()
