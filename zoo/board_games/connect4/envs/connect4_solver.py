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

import numpy as np
from numba import njit

from zoo.board_games.connect4.envs.connect4_position import (
    BOARD_MASK,
    BOTTOM_MASK,
    HEIGHT,
    SIZE,
    WIDTH,
    play_sequence,
    position_from_board,
)

__all__ = [
    "DEFAULT_TABLE_SIZE",
    "MAX_SCORE",
    "MIN_SCORE",
    "Connect4Solver",
    "analyze",
    "analyze_board",
    "solve",
    "solve_board",
]

#: Bounds of the scores a search can return from a position where no immediate win exists
#: (Pons' ``MIN_SCORE``/``MAX_SCORE``); the table's bound encoding relies on them.
MIN_SCORE = -(SIZE // 2) + 3  # -18
MAX_SCORE = (SIZE + 1) // 2 - 3  # 18
#: Default number of table entries: the first prime above 2**23 (5 bytes each: 40 MiB).
DEFAULT_TABLE_SIZE = 8388617
#: Smallest table allowed: the index (key mod a prime p) and the stored low 32 bits of a key
#: < 2**49 identify it only if p * 2**32 > 2**49 (Chinese remainder theorem).
MIN_TABLE_SIZE = (1 << 17) + 1
COLUMN_ORDER = np.array([3, 2, 4, 1, 5, 0, 6], dtype=np.int64)


@njit(cache=True)
def _popcount(m):
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@njit(cache=True)
def _winning_cells(pos, mask):
    """Empty cells (sentinels excluded) that complete four of ``pos``'s stones."""
    r = (pos << 1) & (pos << 2) & (pos << 3)  # vertical
    for s in (HEIGHT + 1, HEIGHT, HEIGHT + 2):  # horizontal, two diagonals
        p = (pos << s) & (pos << (2 * s))
        r |= p & (pos << (3 * s))
        r |= p & (pos >> s)
        p = (pos >> s) & (pos >> (2 * s))
        r |= p & (pos << s)
        r |= p & (pos >> (3 * s))
    return r & (BOARD_MASK ^ mask)


@njit(cache=True)
def can_win_next(current, mask):
    """True if the player to move wins with one stone."""
    return (_winning_cells(current, mask) & ((mask + BOTTOM_MASK) & BOARD_MASK)) != 0


@njit(cache=True)
def _non_losing_moves(current, mask):
    """Playable cells that do not let the opponent win at once (0: every move loses).

    Precondition: the player to move cannot win at once.
    """
    possible = (mask + BOTTOM_MASK) & BOARD_MASK
    opp_win = _winning_cells(current ^ mask, mask)
    forced = possible & opp_win
    if forced:
        if forced & (forced - 1):
            return 0  # two threats: cannot block both
        possible = forced
    return possible & ~(opp_win >> 1)  # never play right under an opponent's winning cell


@njit(cache=True)
def _tt_get(keys, vals, key):
    i = key % keys.shape[0]
    if np.int64(keys[i]) == (key & 0xFFFFFFFF):
        return np.int64(vals[i])
    return 0


@njit(cache=True)
def _negamax(current, mask, n, alpha, beta, keys, vals, moves, scores):
    """Pons' negamax; ``moves``/``scores`` `[43, 7]` are per-depth buffers (no allocation).

    Precondition: the player to move cannot win at once; ``alpha < beta``.
    """
    possible = _non_losing_moves(current, mask)
    if possible == 0:
        return -((SIZE - n) // 2)
    if n >= SIZE - 2:
        return 0
    lo = -((SIZE - 2 - n) // 2)  # the opponent cannot win with its next stone
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (SIZE - 1 - n) // 2  # we cannot win with our next stone
    if beta > hi:
        beta = hi
        if alpha >= beta:
            return beta
    key = current + mask
    val = _tt_get(keys, vals, key)
    if val:
        if val > MAX_SCORE - MIN_SCORE + 1:  # lower bound
            lo = val + 2 * MIN_SCORE - MAX_SCORE - 2
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    return alpha
        else:  # upper bound
            hi = val + MIN_SCORE - 1
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    return beta
    # Insertion sort by score; among equal scores the more central column comes out first.
    count = 0
    for i in range(WIDTH - 1, -1, -1):
        move = possible & (np.int64(63) << (COLUMN_ORDER[i] * (HEIGHT + 1)))
        if move:
            sc = _popcount(_winning_cells(current | move, mask))
            j = count
            while j > 0 and scores[n, j - 1] > sc:
                moves[n, j] = moves[n, j - 1]
                scores[n, j] = scores[n, j - 1]
                j -= 1
            moves[n, j] = move
            scores[n, j] = sc
            count += 1
    i = key % keys.shape[0]
    for k in range(count - 1, -1, -1):
        move = moves[n, k]
        opp = current ^ mask
        new_mask = mask | move
        score = -_negamax(opp, new_mask, n + 1, -beta, -alpha, keys, vals, moves, scores)
        if score >= beta:
            keys[i] = key & 0xFFFFFFFF
            vals[i] = score + MAX_SCORE - 2 * MIN_SCORE + 2
            return score
        if score > alpha:
            alpha = score
    keys[i] = key & 0xFFFFFFFF
    vals[i] = alpha - MIN_SCORE + 1
    return alpha


@njit(cache=True)
def _half_toward_zero(x):
    return x // 2 if x >= 0 else -((-x) // 2)  # C++ x / 2


@njit(cache=True)
def solve_bits(current, mask, keys, vals, moves, scores):
    """Exact score of a position that is not won and not full; iterative null windows."""
    n = _popcount(mask)
    if can_win_next(current, mask):
        return (SIZE + 1 - n) // 2
    lo = -((SIZE - n) // 2)
    hi = (SIZE + 1 - n) // 2
    while lo < hi:  # narrow [lo, hi] by null-window searches, first near 0 (Pons, part 9)
        med = lo + (hi - lo) // 2
        if med <= 0 and _half_toward_zero(lo) < med:
            med = _half_toward_zero(lo)
        elif med >= 0 and _half_toward_zero(hi) > med:
            med = _half_toward_zero(hi)
        r = _negamax(current, mask, n, med, med + 1, keys, vals, moves, scores)
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


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

    Raises:
        ValueError: ``table_size`` is not an int of at least ``MIN_TABLE_SIZE``.
    """

    def __init__(self, *, table_size: int = DEFAULT_TABLE_SIZE) -> None:
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
        self._scores = np.zeros((SIZE + 1, WIDTH), dtype=np.int64)

    def reset(self) -> None:
        """Empties the transposition table."""
        self._keys[:] = 0
        self._vals[:] = 0

    def _solve(self, current: int, mask: int) -> int:
        args = (self._keys, self._vals, self._moves, self._scores)
        return int(solve_bits(np.int64(current), np.int64(mask), *args))

    def _analyze(self, current: int, mask: int) -> list[int | None]:
        n = bin(mask).count("1")
        out: list[int | None] = []
        for col in range(WIDTH):
            top = 1 << (col * (HEIGHT + 1) + HEIGHT - 1)
            if mask & top:
                out.append(None)
                continue
            move = (mask + (1 << (col * (HEIGHT + 1)))) & (63 << (col * (HEIGHT + 1)))
            if int(_winning_cells(np.int64(current), np.int64(mask))) & move:
                out.append((SIZE + 1 - n) // 2)
            elif n + 1 == SIZE:
                out.append(0)
            else:
                out.append(-self._solve(current ^ mask, mask | move))
        return out

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


_DEFAULT: list[Connect4Solver] = []


def _default_solver() -> Connect4Solver:
    if not _DEFAULT:
        _DEFAULT.append(Connect4Solver())
    return _DEFAULT[0]


def solve(moves: str) -> int:
    """:meth:`Connect4Solver.solve` on a shared default solver."""
    return _default_solver().solve(moves)


def analyze(moves: str) -> list[int | None]:
    """:meth:`Connect4Solver.analyze` on a shared default solver."""
    return _default_solver().analyze(moves)


def solve_board(board: np.ndarray, to_play: int) -> int:
    """:meth:`Connect4Solver.solve_board` on a shared default solver."""
    return _default_solver().solve_board(board, to_play)


def analyze_board(board: np.ndarray, to_play: int) -> list[int | None]:
    """:meth:`Connect4Solver.analyze_board` on a shared default solver."""
    return _default_solver().analyze_board(board, to_play)
