"""The trained agents the package ships: one a game at most, each in its game's folder.

A game's agent is in the folder ``pretrained/`` beside the ``envs/`` folder of its registered
env class (``zoo/board_games/<game>/pretrained/``; the library finds it through
``lzero.envs.ENV_REGISTRY``, not by naming the zoo): ``agent.pth.tar``, a checkpoint
written by ``lzero train`` (package data), and ``recipe.json``, how it was made (config module,
seed, command, training minutes, commit) and what it measured (the grading scripts' figures).
``lzero.agent.load_pretrained(game)`` loads it; on the command line it is the bot
``pretrained`` (``lzero play connect4 --bot pretrained``) and the checkpoint
``pretrained:connect4`` (``lzero eval --ckpt pretrained:connect4``).
"""

from __future__ import annotations

import json
from pathlib import Path

from lzero.errors import ConfigError

__all__ = ["PRETRAINED_PREFIX", "available", "pretrained_path", "recipe", "resolve"]

#: ``lzero eval --ckpt pretrained:GAME`` and ``agent:pretrained:GAME`` name a shipped agent.
PRETRAINED_PREFIX = "pretrained:"
#: Keys every recipe holds (``tests/lzero/test_pretrained.py`` checks each shipped one).
RECIPE_KEYS = ("game", "config", "seed", "command", "training_minutes", "commit", "strength")


def _agent_folder(name: str) -> Path:
    """``pretrained/`` beside the ``envs/`` folder of env ``name``'s class (it may not exist)."""
    import inspect

    from lzero.envs import ENV_REGISTRY

    return Path(inspect.getfile(ENV_REGISTRY.get(name))).resolve().parent.parent / "pretrained"


def _ships(folder: Path) -> bool:
    return (folder / "agent.pth.tar").is_file() and (folder / "recipe.json").is_file()


def available() -> tuple[str, ...]:
    """The registered envs (games) with a shipped agent, sorted."""
    from lzero.envs import ENV_REGISTRY

    return tuple(name for name in ENV_REGISTRY.names() if _ships(_agent_folder(name)))


def _folder(game: str) -> Path:
    from lzero.envs import ENV_REGISTRY

    if isinstance(game, str) and game in ENV_REGISTRY and _ships(_agent_folder(game)):
        return _agent_folder(game)
    games = list(available())
    which = f"one of {games}" if games else "but no game has one yet"
    raise ConfigError(f"expected a game with a shipped agent, {which}, got {game!r}")


def pretrained_path(game: str) -> Path:
    """The checkpoint file of ``game``'s shipped agent.

    Raises:
        ConfigError: ``game`` has no shipped agent (the message names the games that have one).
    """
    return _folder(game) / "agent.pth.tar"


def recipe(game: str) -> dict:
    """How ``game``'s shipped agent was trained and what it measured (``recipe.json``).

    Raises:
        ConfigError: as :func:`pretrained_path`, or a recipe that is not JSON.
    """
    path = _folder(game) / "recipe.json"
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise ConfigError(f"{path}: expected the agent's recipe as JSON, got: {err}") from None


def resolve(path: str | Path) -> str | Path:
    """``path`` itself, or the shipped agent's checkpoint for ``pretrained:GAME``.

    Raises:
        ConfigError: ``pretrained:GAME`` of a game without a shipped agent.
    """
    if isinstance(path, str) and path.startswith(PRETRAINED_PREFIX):
        return pretrained_path(path[len(PRETRAINED_PREFIX) :])
    return path
