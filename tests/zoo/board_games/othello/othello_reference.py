"""A plain-Python Othello, written from the rules (not from the kernel), as the reference of
the numba kernel: positions are dicts of ``(row, col) -> player``, moves ``(row, col)`` or
``None`` for the pass."""

from __future__ import annotations

SIZE = 8
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def start() -> dict:
    return {(3, 3): 2, (4, 4): 2, (3, 4): 1, (4, 3): 1}


def flips(discs: dict, move: tuple[int, int], player: int) -> list[tuple[int, int]]:
    """The opponent's discs that ``player`` turns by playing ``move`` (empty: not a move)."""
    if move in discs:
        return []
    turned = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = move[0] + dr, move[1] + dc
        while 0 <= r < SIZE and 0 <= c < SIZE and discs.get((r, c)) == 3 - player:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and discs.get((r, c)) == player:
            turned += line
    return turned


def placements(discs: dict, player: int) -> list[tuple[int, int]]:
    cells = [(r, c) for r in range(SIZE) for c in range(SIZE)]
    return [m for m in cells if flips(discs, m, player)]


def legal(discs: dict, player: int) -> list:
    """``player``'s moves: its placements, or the pass alone if it has none."""
    return placements(discs, player) or [None]


def play(discs: dict, move, player: int) -> dict:
    after = dict(discs)
    if move is not None:
        for cell in flips(discs, move, player):
            after[cell] = player
        after[move] = player
    return after


def over(discs: dict) -> bool:
    return not placements(discs, 1) and not placements(discs, 2)


def winner(discs: dict) -> int:
    """1 or 2, or 3 for a draw, of a finished game."""
    black = sum(v == 1 for v in discs.values())
    white = sum(v == 2 for v in discs.values())
    return 1 if black > white else 2 if white > black else 3


def action(move) -> int:
    return 64 if move is None else move[0] * SIZE + move[1]
