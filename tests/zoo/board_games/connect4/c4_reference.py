"""Plain-Python Connect4 references for the solver tests: no bitboards, no pruning, no ordering.

A position is a list of 7 columns, each a list of players (1 or 2) from the bottom up.
"""

from __future__ import annotations

import random

WIDTH, HEIGHT, SIZE = 7, 6, 42


def wins(cols: list[list[int]], c: int) -> bool:
    """True if the top stone of column ``c`` is in a line of four."""
    r = len(cols[c]) - 1
    p = cols[c][r]

    def at(cc: int, rr: int) -> int:
        return cols[cc][rr] if 0 <= cc < WIDTH and 0 <= rr < len(cols[cc]) else 0

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            k = 1
            while at(c + sign * k * dc, r + sign * k * dr) == p:
                n += 1
                k += 1
        if n >= 4:
            return True
    return False


def reference_score(cols: list[list[int]], mover: int, memo: dict) -> int:
    """Pons' score for ``mover`` by full negamax over every move (memoised on the position)."""
    key = (tuple(tuple(c) for c in cols), mover)
    if key in memo:
        return memo[key]
    n = sum(len(c) for c in cols)
    best = None
    if n == SIZE:
        best = 0
    else:
        for c in range(WIDTH):
            if len(cols[c]) < HEIGHT:
                cols[c].append(mover)
                won = wins(cols, c)
                cols[c].pop()
                if won:
                    best = (SIZE + 1 - n) // 2
                    break
        if best is None:
            for c in range(WIDTH):
                if len(cols[c]) < HEIGHT:
                    cols[c].append(mover)
                    s = -reference_score(cols, 3 - mover, memo)
                    cols[c].pop()
                    best = s if best is None else max(best, s)
    memo[key] = best
    return best


def column_scores(cols: list[list[int]], mover: int, memo: dict, full=None) -> list:
    """Each column's score for ``mover`` by plain negamax (``full`` for a full column)."""
    n = sum(map(len, cols))
    out = []
    for c in range(WIDTH):
        if len(cols[c]) == HEIGHT:
            out.append(full)
            continue
        cols[c].append(mover)
        out.append(
            (SIZE + 1 - n) // 2 if wins(cols, c) else -reference_score(cols, 3 - mover, memo)
        )
        cols[c].pop()
    return out


def columns_of(moves: str) -> list[list[int]]:
    """The columns of a move string (columns '1'-'7', player 1 first)."""
    cols: list[list[int]] = [[] for _ in range(WIDTH)]
    for k, ch in enumerate(moves):
        cols[int(ch) - 1].append(1 + k % 2)
    return cols


def random_position(rng: random.Random, stones: int) -> tuple[str, list[list[int]], int] | None:
    """A random game of ``stones`` moves without four in a row (``None`` if one is forced):
    ``(moves as columns '1'-'7', columns, player to move)``."""
    cols: list[list[int]] = [[] for _ in range(WIDTH)]
    moves, mover = "", 1
    for _ in range(stones):
        options = [c for c in range(WIDTH) if len(cols[c]) < HEIGHT]
        rng.shuffle(options)
        for c in options:
            cols[c].append(mover)
            if not wins(cols, c):
                break
            cols[c].pop()
        else:
            return None
        moves += str(c + 1)
        mover = 3 - mover
    return moves, cols, mover


def env_board(cols: list[list[int]]):
    """The env's `[6, 7]` int8 board of ``cols`` (row 0 at the top)."""
    import numpy as np

    board = np.zeros((HEIGHT, WIDTH), dtype=np.int8)
    for c, col in enumerate(cols):
        for r, p in enumerate(col):
            board[HEIGHT - 1 - r, c] = p
    return board
