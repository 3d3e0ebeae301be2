"""Move time of the perfect Connect4 bot against bitbully's best move, in one run.

Positions with a given number of stones come from seeded games of three kinds: random moves,
the rule bot against itself (one move in five at random, so that games differ), and the
perfect bot (first player) against that rule bot. Each position is timed from an empty
transposition table (the worst case: the bot keeps its table between moves), all with their
opening books, for:

* ours: the bot's ``perfect_moves``: one solve of the position, then a null-window probe per
  column in move order until one keeps the position's score;
* bitbully ``best_move``: its ``score_all_moves``, an exact score for every column: more work
  than ours, so this row compares the two libraries' best-move APIs, not their solvers;
* bitbully, our algorithm: the same work as ours through bitbully's own searches (``mtdf``
  for the position's score, then ``negamax`` with a null window on each child in our move
  order): the like-for-like row.

Every column each side may play is checked to have bitbully's best score. Times are thread
CPU time (bitbully's C++ runs in this thread, so it counts all the work; a loaded machine
inflates it less than the wall clock, which is printed for ours too), in seconds.

    python benchmarks/bench_connect4_perfect_bot.py [--stones 12 13 14 15 16] [--per 8]
"""

from __future__ import annotations

import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench_args import int_in, positive_int, require, script_parser  # noqa: E402

from zoo.board_games.connect4.envs import connect4_perfect  # noqa: E402
from zoo.board_games.connect4.envs.connect4_book import INSTALL_HINT, book_available  # noqa: E402
from zoo.board_games.connect4.envs.connect4_bot import rule_bot_action  # noqa: E402
from zoo.board_games.connect4.envs.connect4_position import position_from_board  # noqa: E402

KINDS = ("random", "rule", "perfect")
#: Seeded games played per position asked for before a stone count and kind is given up:
#: random games are unfinished after 40 stones about once in 200; of 1,000 games of the
#: perfect bot (moving first, seed 0), 32 were after 38 stones and none after 39.
GAMES_PER_POSITION = 1000
MOVE_ORDER = (3, 2, 4, 1, 5, 0, 6)  # centre first, as Pons' solver and ours order moves


def bitbully_first_optimal(theirs, board) -> int:
    """Our bot's algorithm through bitbully's searches: the position's score by MTD(f), then
    the first column in move order whose child, searched with a null window, keeps it."""
    score = theirs.mtdf(board)
    for col in MOVE_ORDER:
        if not board.is_legal_move(col):
            continue
        if board.can_win_next(col):
            return col  # a win now is the best any move can do
        child = board.play_on_copy(col)
        if theirs.negamax(child, -score, -score + 1) <= -score:  # child <= -score: keeps it
            return col
    raise AssertionError(f"no column keeps the score {score}")


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


def positions(rng: random.Random, stones: list[int], per: int) -> list:
    """``[((stones, kind), [(board, player, moves)])]``: ``per`` running games of each stone
    count and kind, in the order the timing loop takes them.

    Raises:
        SystemExit: fewer than ``per`` games of a kind lasted ``stones`` stones in
            ``GAMES_PER_POSITION * per`` tries; says how many did.
    """
    out = []
    for n in stones:
        for kind in KINDS:
            found, tries = [], 0
            while len(found) < per:
                if tries == GAMES_PER_POSITION * per:
                    raise SystemExit(
                        f"--stones {n}: only {len(found)} of the {per} positions asked for "
                        f"(--per) in {tries} seeded {kind} games; the others ended before "
                        f"{n} stones: ask for fewer stones or fewer positions"
                    )
                tries += 1
                g = game(rng, kind, n)
                if g is not None:
                    found.append(g)
            out.append(((n, kind), found))
    return out


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--stones",
        # Every count is asked of every kind, and after 41 stones the perfect bot (moving
        # first, and the first player wins Connect4) has won every game.
        type=int_in(0, 40, "the perfect bot, moving first, has won by the 41st stone"),
        nargs="+",
        default=[12, 13, 14, 15, 16],
        help="stone counts of the positions timed",
    )
    parser.add_argument(
        "--per", type=positive_int, default=8, help="positions per stone count and kind"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the games")
    args = parser.parse_args()
    bitbully = require("bitbully", "bench_connect4_perfect_bot.py")
    if not book_available():
        raise SystemExit(
            f"bench_connect4_perfect_bot.py needs the Connect4 opening book: {INSTALL_HINT}"
        )

    rng = random.Random(args.seed)
    empty = np.zeros((6, 7), dtype=np.int8)
    t = time.perf_counter()
    connect4_perfect.perfect_moves(empty, 1)  # the process's first move: book, kernels
    first = time.perf_counter() - t
    ours = connect4_perfect._solver()
    ours.reset()
    c = time.thread_time()
    connect4_perfect.perfect_moves(empty, 1)
    print(
        f"our first move of this process (loads the book and the compiled kernels): {first:.2f} s "
        f"wall; the empty board from an empty table: {time.thread_time() - c:.3f} s CPU"
    )
    sets = positions(rng, args.stones, args.per)  # all first: too few stops before timing
    theirs = bitbully.BitBully("default")
    print(
        f"bitbully {bitbully.__version__}: its best_move (score_all_moves) and our algorithm "
        f"through its searches, against our perfect_moves; books on; seed {args.seed}, "
        f"{args.per} positions per stone count and kind; thread CPU seconds (ours also wall)"
    )
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(
        f"{'stones':>6} {'kind':>8} {'n':>3} {'mean':>7} {'median':>7} {'p90':>7} {'max':>7} "
        f"{'wall max':>8}  {'bb-all mean':>11} {'max':>7}  {'bb-ours mean':>12} {'max':>7}  "
        "slowest (ours)"
    )
    all_times, all_cpu, all_bb, all_bb_ours = [], [], [], []
    for (stones, kind), games in sets:
        t_ours, cpu, t_bb, t_bb_ours, worst = [], [], [], [], ("", 0.0)
        for board, player, moves in games:
            ours.reset()
            t, c = time.perf_counter(), time.thread_time()
            picks = connect4_perfect.perfect_moves(board, player)
            t_ours.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            bb_board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
            theirs.reset_transposition_table()
            c = time.thread_time()
            scores = theirs.score_all_moves(bb_board)
            t_bb.append(time.thread_time() - c)
            theirs.reset_transposition_table()
            c = time.thread_time()
            col = bitbully_first_optimal(theirs, bb_board)
            t_bb_ours.append(time.thread_time() - c)
            best = max(scores.values())
            if any(scores[c] != best for c in [*np.flatnonzero(picks), col]):
                raise SystemExit(
                    f"{moves}: we pick {np.flatnonzero(picks)}, bitbully's way with our "
                    f"algorithm {col}, bitbully's scores {scores}"
                )
            if cpu[-1] > worst[1]:
                worst = (moves, cpu[-1])
        a, w = np.array(cpu), np.array(t_ours)
        b, bo = np.array(t_bb), np.array(t_bb_ours)
        all_times += t_ours
        all_cpu += cpu
        all_bb += t_bb
        all_bb_ours += t_bb_ours
        print(
            f"{stones:>6} {kind:>8} {len(a):>3} {a.mean():>7.3f} {np.median(a):>7.3f} "
            f"{np.quantile(a, 0.9):>7.3f} {a.max():>7.3f} {w.max():>8.3f}  "
            f"{b.mean():>11.3f} {b.max():>7.3f}  {bo.mean():>12.3f} {bo.max():>7.3f}"
            f"  {worst[0]} (load {os.getloadavg()[0]:.2f})",
            flush=True,
        )
    a, w = np.array(all_cpu), np.array(all_times)
    b, bo = np.array(all_bb), np.array(all_bb_ours)
    print(
        f"all {len(a)} positions, thread CPU seconds: ours mean {a.mean():.3f} max {a.max():.3f} "
        f"(wall max {w.max():.3f}); bitbully best_move mean {b.mean():.3f} max {b.max():.3f}; "
        f"bitbully with our algorithm mean {bo.mean():.3f} max {bo.max():.3f}; ratios of the "
        f"means, bitbully / ours: {b.mean() / a.mean():.2f}x (best_move), "
        f"{bo.mean() / a.mean():.2f}x (our algorithm); load at end {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
