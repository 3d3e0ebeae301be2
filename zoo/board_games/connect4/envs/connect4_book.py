"""Connect4 opening book: exact scores of 12-stone positions, read from ``bitbully-databases``.

The book is Markus Thill's 12-ply database with distances (``book_12ply_distances.dat`` of
the MIT-licensed ``bitbully-databases`` package, an optional dependency: ``pip install
bitbully-databases``). With it the solver stops at 12 stones, so that the first moves of a
game are solved in about a second instead of hours. Each entry is 5 bytes: a 32-bit
big-endian signed Huffman code of the position, then a signed byte ``v`` for the first
player (to move at 12 stones): ``0`` a draw, ``100 - v`` plies to a win for ``v > 0``,
``100 + v`` plies to a loss for ``v < 0``. One of a position and its mirror is stored; the
codes are sorted. Huffman code, columns left to right, each from the bottom up: ``10`` a
first-player stone, ``11`` a second-player stone, ``0`` the end of the column; a final ``0``.
"""

from __future__ import annotations

import importlib.util

import numpy as np
from numba import njit

from zoo.board_games.connect4.envs.connect4_position import HEIGHT, SIZE, WIDTH

#: Stones on the board of every book position.
BOOK_PLY = 12
#: What to install when the book is missing.
INSTALL_HINT = "pip install bitbully-databases (MIT licence), or pip install -e '.[perfect]'"
MISSING = 1000  # not in the book


def book_available() -> bool:
    """True if ``bitbully-databases`` is installed."""
    return importlib.util.find_spec("bitbully_databases") is not None


def load_book() -> tuple[np.ndarray, np.ndarray]:
    """The book as sorted codes `[N]` int64 and first-player values `[N]` int8.

    Raises:
        ImportError: ``bitbully-databases`` is not installed; says what to install.
    """
    if not book_available():
        raise ImportError(f"the Connect4 opening book is not installed: {INSTALL_HINT}")
    import bitbully_databases

    path = bitbully_databases.BitBullyDatabases.get_database_path("12-ply-dist")
    raw = np.fromfile(path, dtype=np.dtype([("code", ">i4"), ("value", "i1")]))
    return raw["code"].astype(np.int64), raw["value"].astype(np.int8)


@njit(cache=True)
def _code(first, mask, mirror):
    h = np.int64(0)
    for k in range(WIDTH):
        c = WIDTH - 1 - k if mirror else k
        for r in range(HEIGHT):
            bit = np.int64(1) << (c * (HEIGHT + 1) + r)
            if not mask & bit:
                break
            h = (h << 2) | (2 if first & bit else 3)
        h <<= 1
    h <<= 1
    return h - (np.int64(1) << 32) if h >= np.int64(1) << 31 else h


@njit(cache=True)
def _find(codes, code):
    i = np.searchsorted(codes, code)
    return i if i < codes.shape[0] and codes[i] == code else -1


@njit(cache=True)
def book_score(codes, values, current, mask, n):
    """Pons' score for the player to move of a ``BOOK_PLY``-stone position, or ``MISSING``."""
    first = current if n % 2 == 0 else current ^ mask
    i = _find(codes, _code(first, mask, False))
    if i < 0:
        i = _find(codes, _code(first, mask, True))
        if i < 0:
            return MISSING
    v = np.int64(values[i])
    if n % 2:
        v = -v  # the book's values are the first player's
    if v > 0:
        return (SIZE + 2) // 2 - (n + 100 - v + 1) // 2
    if v < 0:
        return -((SIZE + 2) // 2 - (n + 100 + v) // 2)
    return 0
