"""Connect4 solver speed against bitbully (C++) on Pons' six kinds of positions, in one run.

Positions come from seeded random games, labelled by bitbully (with its opening book) and
sorted into Pons' categories by stones played (beginning < 14 <= middle < 28 <= end) and
moves left to the end of the game under perfect play (easy < 14 <= medium < 28 <= hard).
Each position is solved from an empty transposition table by both solvers without opening
books, timed from a position already built from its move string (bitbully's
``Board.from_moves``, our ``play_sequence``), the table emptied outside the clock (Pons' published means per position, C++: 4.6 us, 37 us, 3.2 ms, 255 us, 97 ms, 5.5 s).

    python benchmarks/bench_connect4_solver.py [--per-category 20] [--hard 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from zoo.board_games.connect4.envs.connect4_position import play_sequence  # noqa: E402
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver  # noqa: E402

CATEGORIES = [  # (name, stones played range, moves left range)
    ("end easy", range(28, 42), range(0, 14)),
    ("middle easy", range(14, 28), range(0, 14)),
    ("middle medium", range(14, 28), range(14, 28)),
    ("beginning easy", range(0, 14), range(0, 14)),
    ("beginning medium", range(0, 14), range(14, 28)),
    ("beginning hard", range(0, 14), range(28, 43)),
]


def moves_left(score: int, n: int) -> int:
    if score > 0:
        return 2 * (22 - score - n // 2) - 1
    if score < 0:
        return 2 * (22 + score - (n + 1) // 2)
    return 42 - n


def random_moves(rng: random.Random, bitbully, n: int) -> str | None:
    board = bitbully.Board()
    moves = ""
    for _ in range(n):
        legal = [c for c in range(7) if board.is_legal_move(c)]
        safe = [c for c in legal if not board.play_on_copy(c).has_win()]
        if not safe:
            return None
        c = rng.choice(safe)
        board.play(c)
        moves += str(c + 1)
    return moves


def positions(bitbully, per: dict[str, int], seed: int) -> dict[str, list[tuple[str, int]]]:
    rng = random.Random(seed)
    labeller = bitbully.BitBully("default")
    out: dict[str, list[tuple[str, int]]] = {name: [] for name, _, _ in CATEGORIES}
    for _ in range(200_000):
        if all(len(out[k]) >= per[k] for k in out):
            break
        name, played, _ = rng.choice(CATEGORIES)
        if len(out[name]) >= per[name]:
            continue
        moves = random_moves(rng, bitbully, rng.choice(played))
        if moves is None:
            continue
        board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
        if board.can_win_next():
            continue  # trivial for both
        score = labeller.mtdf(board)
        left = moves_left(score, len(moves))
        for cat, p, lft in CATEGORIES:
            if len(moves) in p and left in lft and len(out[cat]) < per[cat]:
                out[cat].append((moves, score))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-category", type=int, default=20)
    parser.add_argument("--hard", type=int, default=3, help="positions of 'beginning hard'")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import bitbully

    per = {name: args.per_category for name, _, _ in CATEGORIES}
    per["beginning hard"] = args.hard
    sets = positions(bitbully, per, args.seed)
    ours = Connect4Solver()
    ours.solve("4")  # compile outside the clock
    theirs = bitbully.BitBully(None)
    print(f"bitbully {bitbully.__version__} (no book) vs ours (numba, table {ours.table_size})")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'category':>17} {'n':>3} {'ours':>10} {'bitbully':>10} {'ratio':>6}  Pons C++")
    pons = dict(
        zip([c[0] for c in CATEGORIES], ["4.6us", "37us", "3.2ms", "255us", "97ms", "5.5s"])
    )
    for name, _, _ in CATEGORIES:
        t_ours = t_bb = 0.0
        for moves, score in sets[name]:
            # Both solvers start from a position already built from the move string, outside
            # the clock (bitbully's Board.from_moves, our play_sequence), with an empty table.
            current, mask = play_sequence(moves)
            ours.reset()
            t = time.perf_counter()
            got = ours.solve_position(current, mask)
            t_ours += time.perf_counter() - t
            board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
            theirs.reset_transposition_table()
            t = time.perf_counter()
            ref = theirs.null_window(board)
            t_bb += time.perf_counter() - t
            if got != score or ref != score:
                raise SystemExit(f"{moves}: ours {got}, bitbully {ref}, label {score}")
        k = max(len(sets[name]), 1)
        print(
            f"{name:>17} {len(sets[name]):>3} {_fmt(t_ours / k):>10} {_fmt(t_bb / k):>10} "
            f"{t_ours / max(t_bb, 1e-12):>6.2f}  {pons[name]}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def _fmt(s: float) -> str:
    return f"{s * 1e6:.1f}us" if s < 1e-3 else f"{s * 1e3:.2f}ms" if s < 1 else f"{s:.2f}s"


if __name__ == "__main__":
    main()
