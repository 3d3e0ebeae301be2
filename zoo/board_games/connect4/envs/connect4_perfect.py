"""The perfect Connect4 bot: every column's exact score, from the solver with the opening book.

The solver and its book (``bitbully-databases``, see :mod:`connect4_book`) are loaded at the
first move and shared by every env of the process.
"""

from __future__ import annotations

import numpy as np

from lzero.errors import ConfigError
from zoo.board_games.connect4.envs.connect4_book import INSTALL_HINT, book_available
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver

#: Score of a full column (below every real score).
FULL = -100
_SOLVER: list[Connect4Solver] = []


def perfect_values(board: np.ndarray, player: int) -> np.ndarray:
    """Exact score (Pons' convention) of each column for ``player``, ``FULL`` for full ones.

    Args:
        board: `[6, 7]` env board (row 0 at the top) of a running game.
        player: 1 or 2, the player to move.

    Returns:
        `[7]` int64 scores.

    Raises:
        ConfigError: the opening book is not installed; says what to install.
        ValueError: an impossible or finished position.
    """
    if not _SOLVER:
        if not book_available():
            raise ConfigError(
                f"bot_action_type 'perfect': the Connect4 opening book is missing: {INSTALL_HINT}"
            )
        _SOLVER.append(Connect4Solver(opening_book=True))
    scores = _SOLVER[0].analyze_board(board, player)
    return np.array([FULL if s is None else s for s in scores], dtype=np.int64)
