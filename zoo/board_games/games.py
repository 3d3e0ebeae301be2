"""The board games installed: every registered env that is a ``BoardGameEnv``, found through
``lzero``'s env registry (its ``lzero.envs`` entry points), so that no list of games is kept
anywhere else. A game is one folder and its entry-point line."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.errors import LZeroError
from zoo.board_games.board_game_env import BoardGameEnv


def board_games() -> dict[str, type[BoardGameEnv]]:
    """The registered board games by name, sorted (their modules are imported to tell)."""
    out = {}
    for name in ENV_REGISTRY.names():
        try:
            cls = ENV_REGISTRY.get(name)
        except (LZeroError, ImportError):  # a module that fails to import: no game to offer
            continue
        if isinstance(cls, type) and issubclass(cls, BoardGameEnv):
            out[name] = cls
    return out


__all__ = ["board_games"]
