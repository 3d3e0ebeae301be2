"""The perfect Connect4 bot's moves, from the exact solver with the opening book.

The solver and its book (``bitbully-databases``, see :mod:`connect4_book`) are loaded at the
first move and shared by every env of the process, and by the vectorised pool's bot
(:func:`pool_bot`), which reaches the same tables from inside its numba step.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from lzero.errors import ConfigError
from lzero.utils.nbarrays import address_as_pointer
from lzero.utils.nbrng import randbelow
from zoo.board_games.connect4.envs.connect4_book import INSTALL_HINT, book_available
from zoo.board_games.connect4.envs.connect4_moves import perfect_columns
from zoo.board_games.connect4.envs.connect4_position import WIDTH, board_bits, position_from_board
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver

_SOLVER: list[Connect4Solver] = []
_POOL_BOT: list = []


def check_book() -> None:
    """Raises ConfigError, saying what to install, if the opening book is missing."""
    if not book_available():
        raise ConfigError(
            f"bot_action_type 'perfect': the Connect4 opening book is missing: {INSTALL_HINT}"
        )


def _solver() -> Connect4Solver:
    if not _SOLVER:
        check_book()
        _SOLVER.append(Connect4Solver(opening_book=True))
    return _SOLVER[0]


def perfect_moves(board: np.ndarray, player: int) -> np.ndarray:
    """The columns the perfect bot picks from (at random), each keeping the exact score:
    every optimal column below the book's 12 stones, the first optimal one in the solver's
    move order from there on (see :func:`~.connect4_moves.perfect_columns`).

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
    current, mask = position_from_board(board, player)
    out = np.zeros(WIDTH, dtype=bool)
    perfect_columns(np.int64(current), np.int64(mask), out, *solver._tables())
    return out


def pool_bot():
    """The perfect bot as the pool's numba ``rule_bot(board, player, rng_state) -> column``:
    the same columns as :func:`perfect_moves`, the same draw as ``bot_move``'s.

    The kernel reaches the shared solver's tables by address (a closure would freeze them
    into read-only constants); the module keeps the solver, so they outlive it.

    Raises:
        ConfigError: the opening book is not installed; says what to install.
    """
    if _POOL_BOT:
        return _POOL_BOT[0]
    tables = _solver()._tables()
    addresses = tuple(int(a.ctypes.data) for a in tables[:6])
    shapes = tuple(a.shape for a in tables[:6])
    dtypes = tuple(a.dtype.type for a in tables[:6])
    book_ply = tables[6]
    (ak, av, am, af, ac, aw), (sk, sv, sm, sf, sc, sw) = addresses, shapes
    (dk, dv, dm, df, dc, dw) = dtypes

    @njit
    def bot(board, player, rng_state):
        keys = numba.carray(address_as_pointer(ak), sk, dk)
        vals = numba.carray(address_as_pointer(av), sv, dv)
        moves = numba.carray(address_as_pointer(am), sm, dm)
        frames = numba.carray(address_as_pointer(af), sf, df)
        codes = numba.carray(address_as_pointer(ac), sc, dc)
        values = numba.carray(address_as_pointer(aw), sw, dw)
        current, mask = board_bits(board, player)
        picks = np.zeros(WIDTH, dtype=np.bool_)
        perfect_columns(current, mask, picks, keys, vals, moves, frames, codes, values, book_ply)
        k = randbelow(rng_state, picks.sum())
        for col in range(WIDTH):
            if picks[col]:
                if k == 0:
                    return col
                k -= 1
        return -1

    _POOL_BOT.append(bot)
    return bot
