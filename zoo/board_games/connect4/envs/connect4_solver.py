"""Exact Connect4 solver: Pascal Pons' bitboard negamax (http://blog.gamesolver.org), in numba.

A position is two int64 bitboards, ``current`` (stones of the player to move) and ``mask``
(all stones), column-major with one zero sentinel bit on top of each column::

    bit:  6 13 20 27 34 41 48      <- sentinel row (always 0)
          5 12 19 26 33 40 47      <- top row
          ...
          0  7 14 21 28 35 42      <- bottom row
    col:  0  1  2  3  4  5  6

49 bits fit in int64, which is used everywhere (numba promotes int64 mixed with uint64 to
float64). Scores follow Pons: 0 for a draw; ``(43 - n) // 2`` for a win with the next stone
from a position with ``n`` stones, one less per pair of moves the win takes; negative for a
forced loss. The search is negamax with alpha-beta over null windows (iterative deepening
on the score), a transposition table of partial keys, centre-first move ordering by the
number of winning cells a move creates, and early pruning of moves that lose at once.
"""

from __future__ import annotations

from collections.abc import Iterable

import numba
import numpy as np

from zoo.board_games.connect4.envs.connect4_book import BOOK_PLY, book_available, load_book
from zoo.board_games.connect4.envs.connect4_moves import FULL, column_scores, first_optimal_move
from zoo.board_games.connect4.envs.connect4_position import (
    BOARD_MASK,
    HEIGHT,
    SIZE,
    WIDTH,
    play_sequence,
    position_from_board,
    sequences_bits,
)
from zoo.board_games.connect4.envs.connect4_search import (
    DEFAULT_TABLE_SIZE,
    MAX_SCORE,
    MIN_SCORE,
    MIN_TABLE_SIZE,
    solve_bits,
)

__all__ = [
    "DEFAULT_TABLE_SIZE",
    "FULL_COLUMN",
    "MAX_SCORE",
    "MIN_SCORE",
    "Connect4Solver",
    "analyze",
    "analyze_board",
    "analyze_many",
    "solve",
    "solve_board",
    "solve_many",
]

#: :meth:`Connect4Solver.analyze_many`'s score of a full column (no score is below -21).
FULL_COLUMN = FULL


@numba.njit(cache=True, nogil=True)
def _solve_each(currents, masks, out, keys, vals, moves, frames, codes, values, book_ply):
    """``out[i]``: the score of position ``(currents[i], masks[i])``, one compiled loop."""
    for i in range(currents.size):
        out[i] = solve_bits(
            currents[i], masks[i], keys, vals, moves, frames, codes, values, book_ply
        )


@numba.njit(cache=True, nogil=True)
def _analyze_each(currents, masks, out, keys, vals, moves, frames, codes, values, book_ply):
    """``out[i]`` `[7]`: each column's score of position ``(currents[i], masks[i])``."""
    for i in range(currents.size):
        column_scores(
            currents[i], masks[i], out[i], keys, vals, moves, frames, codes, values, book_ply
        )


def _next_prime(n: int) -> int:
    def is_prime(k: int) -> bool:
        return k >= 2 and all(k % d for d in range(2, int(k**0.5) + 1))

    while not is_prime(n):
        n += 1
    return n


class Connect4Solver:
    """An exact solver with its own transposition table, kept between calls.

    Args:
        table_size: entries of the transposition table (5 bytes each), rounded up to a prime;
            the default, ``DEFAULT_TABLE_SIZE``, takes 40 MiB.
        opening_book: read positions of 12 stones from the opening book (38 MiB more, needs
            ``bitbully-databases``): the empty board is solved in seconds instead of hours.

    Raises:
        ValueError: ``table_size`` is not an int of at least ``MIN_TABLE_SIZE``.
        ImportError: ``opening_book`` without ``bitbully-databases``; says what to install.
    """

    def __init__(self, *, table_size: int = DEFAULT_TABLE_SIZE, opening_book: bool = False) -> None:
        if isinstance(table_size, bool) or not isinstance(table_size, (int, np.integer)):
            raise ValueError(f"table_size: expected an int, got {table_size!r}")
        if table_size < MIN_TABLE_SIZE:
            raise ValueError(
                f"table_size: expected at least {MIN_TABLE_SIZE} entries, got {table_size}"
            )
        size = _next_prime(int(table_size))
        self.table_size = size
        self._keys = np.zeros(size, dtype=np.uint32)
        self._vals = np.zeros(size, dtype=np.int8)
        self._moves = np.zeros((SIZE + 1, WIDTH), dtype=np.int64)
        self._frames = np.zeros((SIZE + 1, 6), dtype=np.int64)
        self._book = _shared_book() if opening_book else (_NO_CODES, _NO_VALUES, -1)
        self._solve_entry = None  # solve_bits' compiled entry point for these tables

    def reset(self) -> None:
        """Empties the transposition table."""
        self._keys[:] = 0
        self._vals[:] = 0

    def _tables(self) -> tuple:
        """The search's buffers and book, as the kernels take them."""
        return (self._keys, self._vals, self._moves, self._frames, *self._book)

    def prepare(self) -> None:
        """Compiles the search's kernels now, in the calling thread, or loads them from numba's
        cache (otherwise the first :meth:`solve`, :meth:`analyze` or :meth:`best_move` does)."""
        if self._solve_entry is None:
            self._compile_solve()
        args = (np.int64(0), np.int64(0), np.empty(WIDTH, np.int64), *self._tables())
        column_scores.compile(tuple(numba.typeof(a) for a in args))

    def _compile_solve(self) -> None:
        # The compiled function itself, without numba's dispatch over nine argument types: a
        # call from Python costs 0.7 us instead of 2.2 us, about as much as a whole end-game
        # solve (the tables' types never change).
        args = (np.int64(0), np.int64(0), *self._tables())
        signature = tuple(numba.typeof(a) for a in args)
        solve_bits.compile(signature)
        self._solve_entry = solve_bits.overloads[signature].entry_point
        self._solve_args = self._tables()

    def _solve(self, current: int, mask: int) -> int:
        if self._solve_entry is None:
            self._compile_solve()
        return self._solve_entry(current, mask, *self._solve_args)

    def _analyze(self, current: int, mask: int) -> list[int | None]:
        out = np.empty(WIDTH, dtype=np.int64)
        column_scores(np.int64(current), np.int64(mask), out, *self._tables())
        return [None if s == FULL else int(s) for s in out]

    def _best_move(self, current: int, mask: int) -> int:
        if mask == BOARD_MASK:
            raise ValueError("expected a position with a playable column, got a full board")
        score = self._solve(current, mask)
        c, m, sc = np.int64(current), np.int64(mask), np.int64(score)
        move = int(first_optimal_move(c, m, sc, *self._tables()))
        if not move:
            raise RuntimeError(f"no move keeps the score {score}: solver bug")
        return (move.bit_length() - 1) // (HEIGHT + 1)

    def solve_position(self, current: int, mask: int) -> int:
        """Score of the bitboard position ``(current, mask)`` of
        ``connect4_position.play_sequence`` or ``position_from_board`` (not checked here: a
        position already won has no score)."""
        return self._solve(current, mask)

    def solve(self, moves: str) -> int:
        """Score of the position after ``moves`` (columns ``'1'``-``'7'``), Pons' convention.

        Raises:
            ValueError: a character that is not a column 1-7, a move into a full column, a
                move after the game was won.
        """
        return self._solve(*play_sequence(moves))

    def analyze(self, moves: str) -> list[int | None]:
        """Score of each column 1-7 for the player to move (``None``: full column)."""
        return self._analyze(*play_sequence(moves))

    def _bits_of(self, positions: Iterable) -> tuple[np.ndarray, np.ndarray]:
        """``(currents, masks)`` int64 of positions given as move strings or ``(board,
        to_play)`` pairs, each checked as :meth:`solve` and :meth:`solve_board` check theirs."""
        if isinstance(positions, (str, bytes, np.ndarray)) or not isinstance(positions, Iterable):
            raise ValueError(
                "positions: expected a sequence of move strings or (board, to_play) pairs, "
                f"got {type(positions).__name__}"
            )
        positions = list(positions)
        if all(isinstance(p, str) for p in positions):
            return _sequences(positions)
        bits = []
        for i, position in enumerate(positions):
            try:
                if isinstance(position, str):
                    bits.append(play_sequence(position))
                elif isinstance(position, tuple) and len(position) == 2:
                    bits.append(position_from_board(*position))
                else:
                    raise ValueError(
                        "expected a move string or a (board, to_play) pair, got "
                        f"{type(position).__name__}"
                    )
            except ValueError as err:
                raise ValueError(f"positions[{i}]: {err}") from None
        array = np.array(bits, dtype=np.int64).reshape(-1, 2)
        return np.ascontiguousarray(array[:, 0]), np.ascontiguousarray(array[:, 1])

    def solve_many(self, positions: Iterable) -> np.ndarray:
        """Scores `[N]` int64 of many positions in one compiled loop (no per-position call
        from Python): each a move string as :meth:`solve` takes, or a ``(board, to_play)``
        pair as :meth:`solve_board` takes.

        Raises:
            ValueError: ``positions`` is not a sequence of those, or one of them is bad (the
                message names its index); nothing is solved then.
        """
        currents, masks = self._bits_of(positions)
        out = np.empty(currents.size, dtype=np.int64)
        _solve_each(currents, masks, out, *self._tables())
        return out

    def analyze_many(self, positions: Iterable) -> np.ndarray:
        """Each column's score `[N, 7]` int64 for the player to move in many positions, as
        :meth:`solve_many` takes them (columns 0-6; ``FULL_COLUMN`` for a full column).

        Raises:
            ValueError: as :meth:`solve_many`.
        """
        currents, masks = self._bits_of(positions)
        out = np.empty((currents.size, WIDTH), dtype=np.int64)
        _analyze_each(currents, masks, out, *self._tables())
        return out

    def best_move(self, moves: str) -> int:
        """A column 1-7 that keeps the position's score: the first in the search's own move
        order. Cheaper than :meth:`analyze`: the position is solved once, then the columns
        are probed in order, each with one null-window search, until one keeps the score.

        Raises:
            ValueError: as :meth:`solve`, or a full board.
        """
        return self._best_move(*play_sequence(moves)) + 1

    def solve_board(self, board: np.ndarray, to_play: int) -> int:
        """Score for ``to_play`` (1 or 2) of an env board `[6, 7]` (row 0 is the top).

        Raises:
            ValueError: wrong shape or values, floating stones, impossible stone counts for
                ``to_play``, a line of four already.
        """
        return self._solve(*position_from_board(board, to_play))

    def analyze_board(self, board: np.ndarray, to_play: int) -> list[int | None]:
        """Score of each column 0-6 for ``to_play`` on an env board (``None``: full column)."""
        return self._analyze(*position_from_board(board, to_play))

    def best_move_board(self, board: np.ndarray, to_play: int) -> int:
        """:meth:`best_move` of an env board, a column 0-6."""
        return self._best_move(*position_from_board(board, to_play))


def _sequences(moves: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(currents, masks)`` of move strings, played in one compiled loop; the first bad one
    raises :func:`play_sequence`'s error, its index in front."""
    starts = np.zeros(len(moves) + 1, dtype=np.int64)
    np.cumsum([len(m) for m in moves], out=starts[1:])
    # latin-1 keeps one byte a character; anything else becomes '?', which the loop refuses
    chars = np.frombuffer("".join(moves).encode("latin-1", errors="replace"), dtype=np.uint8)
    currents = np.empty(len(moves), dtype=np.int64)
    masks = np.empty(len(moves), dtype=np.int64)
    bad = sequences_bits(chars, starts, currents, masks)
    if bad >= 0:
        try:
            play_sequence(moves[bad])
        except ValueError as err:
            raise ValueError(f"positions[{bad}]: {err}") from None
        raise RuntimeError(f"positions[{bad}]: {moves[bad]!r} refused by the compiled loop only")
    return currents, masks


_NO_CODES = np.zeros(0, dtype=np.int64)
_NO_VALUES = np.zeros(0, dtype=np.int8)
_BOOK: list[tuple] = []


def _shared_book() -> tuple:
    """The opening book, loaded once per process, as ``(codes, values, BOOK_PLY)``."""
    if not _BOOK:
        _BOOK.append((*load_book(), BOOK_PLY))
    return _BOOK[0]


_DEFAULT: list[Connect4Solver] = []


def _default_solver() -> Connect4Solver:
    """The module functions' solver: with the opening book when ``bitbully-databases`` is
    installed, as ``lzero solve`` (without it an early position takes minutes to hours)."""
    if not _DEFAULT:
        _DEFAULT.append(Connect4Solver(opening_book=book_available()))
    return _DEFAULT[0]


def solve(moves: str) -> int:
    """:meth:`Connect4Solver.solve` on a shared default solver (with the opening
    book when it is installed)."""
    return _default_solver().solve(moves)


def analyze(moves: str) -> list[int | None]:
    """:meth:`Connect4Solver.analyze` on a shared default solver (with the opening
    book when it is installed)."""
    return _default_solver().analyze(moves)


def solve_many(positions: Iterable) -> np.ndarray:
    """:meth:`Connect4Solver.solve_many` on a shared default solver (with the opening
    book when it is installed)."""
    return _default_solver().solve_many(positions)


def analyze_many(positions: Iterable) -> np.ndarray:
    """:meth:`Connect4Solver.analyze_many` on a shared default solver (with the opening
    book when it is installed)."""
    return _default_solver().analyze_many(positions)


def solve_board(board: np.ndarray, to_play: int) -> int:
    """:meth:`Connect4Solver.solve_board` on a shared default solver (with the opening
    book when it is installed)."""
    return _default_solver().solve_board(board, to_play)


def analyze_board(board: np.ndarray, to_play: int) -> list[int | None]:
    """:meth:`Connect4Solver.analyze_board` on a shared default solver (with the opening
    book when it is installed)."""
    return _default_solver().analyze_board(board, to_play)
