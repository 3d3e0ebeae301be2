"""The perfect Connect4 bot's moves, from the exact solver with the opening book.

The solver and its book (``bitbully-databases``, see :mod:`connect4_book`) are loaded at the
first move and shared by every env of the process.
"""

from __future__ import annotations

import numpy as np

from lzero.errors import ConfigError
from zoo.board_games.connect4.envs.connect4_book import BOOK_PLY, INSTALL_HINT, book_available
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver

_SOLVER: list[Connect4Solver] = []


def _solver() -> Connect4Solver:
    if not _SOLVER:
        if not book_available():
            raise ConfigError(
                f"bot_action_type 'perfect': the Connect4 opening book is missing: {INSTALL_HINT}"
            )
        _SOLVER.append(Connect4Solver(opening_book=True))
    return _SOLVER[0]


def perfect_moves(board: np.ndarray, player: int) -> np.ndarray:
    """The columns the perfect bot picks from, each keeping the position's exact score.

    With fewer stones than the book's ``BOOK_PLY``, every optimal column (each column's
    exact score costs little: the searches stop at the book). From ``BOOK_PLY`` stones on,
    where each column would need a search of its own to the end of the game, the first
    optimal column in the solver's move order (:meth:`Connect4Solver.best_move`), so that a
    move takes well under a second.

    Args:
        board: `[6, 7]` env board (row 0 at the top) of a running game.
        player: 1 or 2, the player to move.

    Returns:
        `[7]` bool, True for the columns to pick from.

    Raises:
        ConfigError: the opening book is not installed; says what to install.
        ValueError: an impossible or finished position.
    """
    solver = _solver()
    out = np.zeros(7, dtype=bool)
    if np.count_nonzero(board) >= BOOK_PLY:
        out[solver.best_move_board(board, player)] = True
        return out
    scores = solver.analyze_board(board, player)
    best = max(s for s in scores if s is not None)
    out[[s == best for s in scores]] = True
    return out
