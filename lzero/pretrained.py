"""The trained agents the package ships: one a game at most, each in its game's folder.

A game's agent is ``zoo/board_games/<game>/pretrained/``: ``agent.pth.tar``, a checkpoint
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


def _games_folder() -> Path:
    import zoo.board_games

    return Path(zoo.board_games.__file__).parent


def available() -> tuple[str, ...]:
    """The games with a shipped agent, sorted."""
    return tuple(
        sorted(
            p.parent.parent.name
            for p in _games_folder().glob("*/pretrained/agent.pth.tar")
            if (p.parent / "recipe.json").is_file()
        )
    )


def _folder(game: str) -> Path:
    if not isinstance(game, str) or game not in available():
        raise ConfigError(
            f"expected a game with a shipped agent, one of {list(available())}, got {game!r}"
        )
    return _games_folder() / game / "pretrained"


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


def resolve(path):
    """``path`` itself, or the shipped agent's checkpoint for ``pretrained:GAME``.

    Raises:
        ConfigError: ``pretrained:GAME`` of a game without a shipped agent.
    """
    if isinstance(path, str) and path.startswith(PRETRAINED_PREFIX):
        return pretrained_path(path[len(PRETRAINED_PREFIX) :])
    return path
