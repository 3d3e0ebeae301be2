"""Connect4 positions labelled by the exact solver, sorted into Pascal Pons' six kinds, to grade
a player's moves by (``benchmarks/bench_connect4_strength.py``).

Pons' benchmark sets (http://blog.gamesolver.org/solving-connect-four/02-test-protocol/) sort
positions of random games by stage, the stones played (beginning 1-13, middle 14-27, end
28-41), and by difficulty, the moves left to the end of the game under perfect play (easy
under 14, medium 14-27, hard 28 or more). Ours are drawn the same way from our own seeded
random games: every move a uniformly random column among those that do not complete four (as
his generator), positions whose mover can win at once left out, each position labelled with
the exact score of every column. A kind's move strings are distinct (two move orders
that reach one board both count, as two random games would: the seed-0 file holds 22, 3 and 29
such repeats among its 1,000 beginning easy, medium and hard positions).

A move is an error when the outcome it leads to (win, draw or loss for the mover) is worse than
the best move's: ``sign(score[move]) < sign(max(score))``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from zoo.board_games.connect4.envs.connect4_position import HEIGHT, WIDTH, column_move, has_four

#: Pons' six kinds: (name, stones played, moves left under perfect play).
KINDS = (
    ("end easy", range(28, 42), range(0, 14)),
    ("middle easy", range(14, 28), range(0, 14)),
    ("middle medium", range(14, 28), range(14, 28)),
    ("beginning easy", range(1, 14), range(0, 14)),
    ("beginning medium", range(1, 14), range(14, 28)),
    ("beginning hard", range(1, 14), range(28, 43)),
)
KIND_NAMES = tuple(name for name, _, _ in KINDS)


def moves_left(score: int, stones: int) -> int:
    """Moves to the end of the game under perfect play from a position of ``stones`` stones
    whose exact score (Pons' convention) is ``score``: the winner's last stone, or a full
    board for a draw."""
    if score > 0:
        return 2 * (22 - score - stones // 2) - 1
    if score < 0:
        return 2 * (22 + score - (stones + 1) // 2)
    return WIDTH * HEIGHT - stones


def random_game(rng: random.Random, stones: int) -> str | None:
    """The move string (columns '1'-'7') of a random game of ``stones`` moves, each a random
    column that does not complete four; None when a position has no such column, or when the
    mover of the last position can win at once (it has nothing to decide)."""
    current = mask = 0
    moves = []
    for _ in range(stones + 1):
        playable = [c for c in range(WIDTH) if not mask & (1 << (c * (HEIGHT + 1) + HEIGHT - 1))]
        safe = [c for c in playable if not has_four(current | column_move(mask, c))]
        if len(moves) == stones:
            return "".join(moves) if len(safe) == len(playable) and playable else None
        if not safe:
            return None
        col = rng.choice(safe)
        move = column_move(mask, col)
        current, mask = current ^ mask, mask | move
        moves.append(str(col + 1))
    return None


def build_sets(per_kind: int, seed: int, solver, max_games: int = 2_000_000) -> dict[str, list]:
    """``{kind: [(moves, scores)]}``, ``per_kind`` distinct move strings of each of Pons' kinds
    (``scores``: the 7 columns' exact scores, ``FULL_COLUMN`` for a full one), from random games
    seeded by ``seed`` and labelled by ``solver`` (a ``Connect4Solver``; beginning positions
    take seconds each without its opening book).

    Raises:
        RuntimeError: ``max_games`` random games did not fill every kind.
    """
    rng = random.Random(seed)
    chosen: dict[str, dict[str, None]] = {name: {} for name in KIND_NAMES}
    for _ in range(max_games):
        open_kinds = [k for k in KINDS if len(chosen[k[0]]) < per_kind]
        if not open_kinds:
            break
        _, played, _ = rng.choice(open_kinds)
        moves = random_game(rng, rng.choice(played))
        if moves is None or any(moves in c for c in chosen.values()):
            continue
        left = moves_left(int(solver.solve(moves)), len(moves))
        for name, stage, lefts in KINDS:
            if len(moves) in stage and left in lefts and len(chosen[name]) < per_kind:
                chosen[name][moves] = None
    counts = {k: len(v) for k, v in chosen.items()}
    if min(counts.values()) < per_kind:
        raise RuntimeError(f"{max_games} random games did not fill every kind: {counts}")
    out = {}
    for name, positions in chosen.items():
        strings = list(positions)
        out[name] = list(zip(strings, solver.analyze_many(strings).tolist()))
    return out


def boards_of(moves: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The env's boards `[N, 6, 7]` int8 (row 0 at the top, player 1 moved first) and the
    players to move `[N]` of move strings."""
    boards = np.zeros((len(moves), HEIGHT, WIDTH), dtype=np.int8)
    to_play = np.zeros(len(moves), dtype=np.int64)
    for i, line in enumerate(moves):
        heights = [0] * WIDTH
        for k, ch in enumerate(line):
            col = int(ch) - 1
            boards[i, HEIGHT - 1 - heights[col], col] = 1 + k % 2
            heights[col] += 1
        to_play[i] = 1 + len(line) % 2
    return boards, to_play


def move_errors(moves: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """`[N]` bool: True where ``moves[i]`` leads to a worse outcome (win, draw, loss for the
    mover) than the best column of ``scores[i]`` `[7]` (``FULL_COLUMN``: a full column, an
    error whenever it is chosen)."""
    from zoo.board_games.connect4.envs.connect4_solver import FULL_COLUMN

    scores = np.asarray(scores)
    chosen = scores[np.arange(len(scores)), np.asarray(moves)]
    return (chosen == FULL_COLUMN) | (np.sign(chosen) < np.sign(scores.max(axis=1)))


def can_err(scores: np.ndarray) -> np.ndarray:
    """`[N]` bool: positions where some legal column is an error (a choice that matters)."""
    from zoo.board_games.connect4.envs.connect4_solver import FULL_COLUMN

    scores = np.asarray(scores)
    signs = np.where(scores == FULL_COLUMN, 2, np.sign(scores))
    return signs.min(axis=1) < np.sign(scores.max(axis=1))
