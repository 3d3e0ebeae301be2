"""Move time of the perfect Connect4 bot against bitbully's best move, in one run.

Positions with a given number of stones come from seeded games of three kinds: random moves,
the rule bot against itself (one move in five at random, so that games differ), and the
perfect bot (first player) against that rule bot. Each position is timed from an empty
transposition table (the worst case: the bot keeps its table between moves) for our bot's
``perfect_moves`` and for bitbully's ``score_all_moves`` (what its ``best_move`` does), both
with their opening books; every column our bot may play is checked to have bitbully's best
score. Prints the distribution of wall-clock move times per stone count and kind (seconds),
and the largest thread CPU time, which a loaded machine inflates less.

    python benchmarks/bench_connect4_perfect_bot.py [--stones 12 13 14 15 16] [--per 8]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from zoo.board_games.connect4.envs import connect4_perfect  # noqa: E402
from zoo.board_games.connect4.envs.connect4_bot import rule_bot_action  # noqa: E402
from zoo.board_games.connect4.envs.connect4_position import position_from_board  # noqa: E402

KINDS = ("random", "rule", "perfect")


def game(rng: random.Random, kind: str, stones: int) -> tuple[np.ndarray, int, str] | None:
    """A running game of ``kind`` after ``stones`` moves: (board, player to move, moves)."""
    board = np.zeros((6, 7), dtype=np.int8)
    rng_state = np.array([rng.getrandbits(63)], dtype=np.uint64)
    player, moves = 1, ""
    for _ in range(stones):
        legal = [c for c in range(7) if board[0, c] == 0]
        if kind == "random" or rng.random() < 0.2 and not (kind == "perfect" and player == 1):
            col = rng.choice(legal)
        elif kind == "perfect" and player == 1:
            col = int(rng.choice(np.flatnonzero(connect4_perfect.perfect_moves(board, 1))))
        else:
            col = int(rule_bot_action(board.copy(), player, rng_state))
        row = int(np.flatnonzero(board[:, col] == 0)[-1])
        board[row, col] = player
        moves += str(col + 1)
        player = 3 - player
        try:
            position_from_board(board, player)
        except ValueError:
            return None  # won before ``stones``
    return board, player, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stones", type=int, nargs="+", default=[12, 13, 14, 15, 16])
    parser.add_argument("--per", type=int, default=8, help="positions per stone count and kind")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import bitbully

    rng = random.Random(args.seed)
    connect4_perfect.perfect_moves(np.zeros((6, 7), dtype=np.int8), 1)  # load, compile
    ours = connect4_perfect._solver()
    theirs = bitbully.BitBully("default")
    print(f"bitbully {bitbully.__version__} score_all_moves vs our perfect_moves, books on")
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(
        f"{'stones':>6} {'kind':>8} {'n':>3} {'mean':>7} {'median':>7} {'p90':>7} {'max':>7} {'cpu max':>7}"
        f"  {'bb mean':>7} {'bb max':>7}  slowest"
    )
    all_times, all_cpu = [], []
    for stones in args.stones:
        for kind in KINDS:
            t_ours, cpu, t_bb, worst = [], [], [], ("", 0.0)
            while len(t_ours) < args.per:
                g = game(rng, kind, stones)
                if g is None:
                    continue
                board, player, moves = g
                ours.reset()
                t, c = time.perf_counter(), time.thread_time()
                picks = connect4_perfect.perfect_moves(board, player)
                t_ours.append(time.perf_counter() - t)
                cpu.append(time.thread_time() - c)
                bb_board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
                theirs.reset_transposition_table()
                t = time.perf_counter()
                scores = theirs.score_all_moves(bb_board)
                t_bb.append(time.perf_counter() - t)
                best = max(scores.values())
                if any(scores[c] != best for c in np.flatnonzero(picks)):
                    raise SystemExit(f"{moves}: we pick {np.flatnonzero(picks)}, bitbully {scores}")
                if t_ours[-1] > worst[1]:
                    worst = (moves, t_ours[-1])
            a, b = np.array(t_ours), np.array(t_bb)
            all_times += t_ours
            all_cpu += cpu
            print(
                f"{stones:>6} {kind:>8} {len(a):>3} {a.mean():>7.3f} {np.median(a):>7.3f} "
                f"{np.quantile(a, 0.9):>7.3f} {a.max():>7.3f} {max(cpu):>7.3f}  {b.mean():>7.3f} "
                f"{b.max():>7.3f}"
                f"  {worst[0]} (load {os.getloadavg()[0]:.2f})",
                flush=True,
            )
    a = np.array(all_times)
    print(
        f"all {len(a)} positions: max {a.max():.3f}s, over 1 s: {(a > 1).sum()}, "
        f"over 0.5 s: {(a > 0.5).sum()} (seconds; load at end {os.getloadavg()[0]:.2f})"
    )


if __name__ == "__main__":
    main()
