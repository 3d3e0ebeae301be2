"""Forced wins in freestyle Gomoku (five or more in a row), found by a search over continuous
fours (VCF), to grade a player by: does it take a forced win, and does it stop one?

A VCF is a win made of fours only: every attacking move leaves a cell where the attacker
would make five, so the defender's reply is forced to that cell, until the attacker makes five
or two such cells at once. The search is sound and incomplete: every win it reports is forced
(the defender's replies are all considered, and a line is dropped where the defender could
make five, or threatens to, in a way the attacker's next move does not answer), but wins that
need threes (VCT) or deeper lines than ``depth`` are not found.

Positions are labelled from the mover's side:
- ``win``: the mover can make five now; a move is right if it does.
- ``block``: the opponent would make five at exactly one cell and the mover cannot make five;
  the right move is that cell.
- ``vcf``: the mover has a VCF (and no five); a move is right if it makes five or is a four
  from which the VCF goes on (the forced reply leaves a VCF).
- ``stop``: the opponent has a VCF, the mover neither a five nor a VCF; a move is an error if
  the opponent still has a VCF after it (a sure error: that VCF is forced, the mover's own
  fours answered), and not proved right otherwise.
"""

from __future__ import annotations

import random

import numpy as np

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
WIN = 5


def makes_five(board: np.ndarray, r: int, c: int, player: int) -> bool:
    """True if ``player`` placing a stone on the empty cell ``(r, c)`` makes five or more."""
    n = board.shape[0]
    for dr, dc in DIRECTIONS:
        count = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < n and 0 <= cc < n and board[rr, cc] == player:
                count += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if count >= WIN:
            return True
    return False


def five_cells(board: np.ndarray, player: int) -> list[tuple[int, int]]:
    """The empty cells where ``player`` would make five."""
    return [
        (int(r), int(c))
        for r, c in zip(*np.nonzero(board == 0))
        if makes_five(board, int(r), int(c), player)
    ]


def _fives_through(board: np.ndarray, r: int, c: int, player: int) -> list[tuple[int, int]]:
    """The empty cells within four of ``(r, c)`` on its lines where ``player`` would make five
    (after a stone at ``(r, c)``, the only cells a new five can need)."""
    n = board.shape[0]
    out = set()
    for dr, dc in DIRECTIONS:
        for k in range(-(WIN - 1), WIN):
            rr, cc = r + k * dr, c + k * dc
            if k and 0 <= rr < n and 0 <= cc < n and board[rr, cc] == 0:
                if makes_five(board, rr, cc, player):
                    out.add((rr, cc))
    return sorted(out)


def _near_stones(board: np.ndarray, player: int) -> list[tuple[int, int]]:
    """Empty cells within four of one of ``player``'s stones on a line (where a four can be)."""
    n = board.shape[0]
    out = set()
    for r, c in zip(*np.nonzero(board == player)):
        for dr, dc in DIRECTIONS:
            for k in range(-(WIN - 1), WIN):
                rr, cc = int(r) + k * dr, int(c) + k * dc
                if 0 <= rr < n and 0 <= cc < n and board[rr, cc] == 0:
                    out.add((rr, cc))
    return sorted(out)


def vcf_moves(board: np.ndarray, attacker: int, depth: int, first_only: bool = True):
    """The attacker's (to move) first moves of a VCF of at most ``depth`` fours: a list, empty
    if none was found (``first_only``: stop at the first). A five now is one too."""
    fives = five_cells(board, attacker)
    if fives:
        return fives[:1] if first_only else fives
    defender = 3 - attacker
    threats = five_cells(board, defender)
    if len(threats) > 1 or depth <= 0:
        return []
    found = []
    for r, c in threats or _near_stones(board, attacker):
        board[r, c] = attacker
        try:
            mine = _fives_through(board, r, c, attacker)
            if not mine or five_cells(board, defender):
                continue  # not a four, or the defender makes five first
            if len(mine) >= 2:
                found.append((r, c))  # two cells to block: the defender cannot
            else:
                br, bc = mine[0]
                board[br, bc] = defender
                try:
                    if vcf_moves(board, attacker, depth - 1):
                        found.append((r, c))
                finally:
                    board[br, bc] = 0
        finally:
            board[r, c] = 0
        if found and first_only:
            break
    return found


def random_position(rng: random.Random, size: int, stones: int) -> np.ndarray | None:
    """A board after ``stones`` random moves (players alternate, player 1 first) in which
    nobody has five; None if a random move made one."""
    board = np.zeros((size, size), dtype=np.int8)
    cells = [(r, c) for r in range(size) for c in range(size)]
    rng.shuffle(cells)
    for k, (r, c) in enumerate(cells[:stones]):
        player = 1 + k % 2
        if makes_five(board, r, c, player):
            return None
        board[r, c] = player
    return board


def label(board: np.ndarray, mover: int, depth: int) -> tuple[str, list] | None:
    """``(kind, right moves)`` of a position (module docstring), or None for none of them;
    ``stop`` positions carry the opponent's VCF first moves."""
    if five_cells(board, mover):
        return "win", five_cells(board, mover)
    threats = five_cells(board, 3 - mover)
    if len(threats) == 1:
        return "block", threats
    if threats:
        return None  # two cells to block: lost whatever the mover does
    mine = vcf_moves(board, mover, depth, first_only=False)
    if mine:
        return "vcf", mine
    theirs = vcf_moves(board, 3 - mover, depth)
    if theirs:
        return "stop", theirs
    return None


def move_is_right(board: np.ndarray, mover: int, kind: str, move: tuple[int, int], depth: int):
    """Whether ``move`` is right in a labelled position (``stop``: it leaves the opponent no VCF
    this search finds; the other kinds: as the module docstring says)."""
    r, c = move
    if board[r, c] != 0:
        return False
    if kind == "win":
        return makes_five(board, r, c, mover)
    if kind == "block":
        return (r, c) in five_cells(board, 3 - mover)
    board[r, c] = mover
    try:
        if kind == "vcf":
            if makes_five(board, r, c, mover):
                return True
            mine = _fives_through(board, r, c, mover)
            if len(mine) != 1 or five_cells(board, 3 - mover):
                return len(mine) >= 2 and not five_cells(board, 3 - mover)
            board[mine[0]] = 3 - mover
            try:
                return bool(vcf_moves(board, mover, depth - 1))
            finally:
                board[mine[0]] = 0
        return not vcf_moves(board, 3 - mover, depth)  # stop
    finally:
        board[r, c] = 0


KINDS = ("win", "block", "vcf", "stop")


def build_sets(per_kind: int, seed: int, size: int = 9, depth: int = 6) -> dict[str, list]:
    """``{kind: [(board, mover)]}``, ``per_kind`` positions of each kind from random boards of
    8 to ``size * size // 2`` stones seeded by ``seed``.

    Raises:
        RuntimeError: 200,000 random boards did not fill every kind.
    """
    rng = random.Random(seed)
    out: dict[str, list] = {k: [] for k in KINDS}
    for _ in range(200_000):
        if all(len(v) >= per_kind for v in out.values()):
            return out
        stones = rng.randrange(8, size * size // 2)
        board = random_position(rng, size, stones)
        if board is None:
            continue
        mover = 1 + stones % 2
        labelled = label(board, mover, depth)
        if labelled and len(out[labelled[0]]) < per_kind:
            out[labelled[0]].append((board, mover))
    counts = {k: len(v) for k, v in out.items()}
    raise RuntimeError(f"200,000 random boards did not fill every kind: {counts}")
