"""Connect4 solver speed against bitbully (C++) on Pons' six kinds of positions, in one run.

Positions come from seeded random games, labelled by bitbully (with its opening book) and
sorted into Pons' categories by stones played (1 <= beginning < 14 <= middle < 28 <= end;
the empty board, hours without a book, is left out) and
moves left to the end of the game under perfect play (easy < 14 <= medium < 28 <= hard).
Each position is solved from an empty transposition table by both solvers without opening
books, timed from a position already built from its move string (bitbully's
``Board.from_moves``, our ``play_sequence``), the table emptied outside the clock. Emptying
a table of tens of MiB evicts the caller's own code and data from the CPU caches, which
costs a call from Python about 30 us to fetch again (a one-node solve: 2 us, 33 us right
after any 40 MiB memset) and a C++ loop almost nothing; so after emptying its table each
solver first answers a position it decides without a table lookup (the mover completes four
at once), and only the next call is timed (Pons' published means per position, C++: 4.6 us,
37 us, 3.2 ms, 255 us, 97 ms, 5.5 s). Each solver's time for a position is the best of
``--repeats`` such solves in a row (3 by default; one once a solve takes over 10 ms): on
microsecond positions the first solve after another solver's turn pays for the caches that
solver filled (end-game easy means measured when this was decided: ours 6.6 us timed once,
5.1 us as the best of 3; Pons' 2.6 and 1.6 us). The solvers take turns category by category.

    python benchmarks/bench_connect4_solver.py [--per-category 20] [--hard 3] [--seed 0]
        [--repeats 3] [--rounds 3] [--pons-src DIR]

``--pons-src`` adds Pons' own C++ solver (a checkout of github.com/PascalPons/connect4,
AGPL, not shipped here) to the same run: a small driver compiled with his Makefile's flags
plus ``-march=native`` (``g++ -O3 -DNDEBUG``; numba compiles ours for this CPU too) plays
each move string, empties his table, and times ``Solver::solve`` with
``std::chrono::steady_clock`` inside C++, so no process or Python overhead is counted
against him. He loads no opening book, like the other two.

Ours is timed twice, so that each peer meets it timed its own way: through its public
Python call (``Connect4Solver.solve_position``, about 0.7 us of call overhead) against
bitbully's Python call, and inside compiled code (``clock_gettime(CLOCK_MONOTONIC)``, the
clock ``steady_clock`` reads, called from numba around the search) against Pons' in-C++
timing. On end-game easy positions, about a microsecond each, only the second comparison
is like for like. bitbully has two searches, ``null_window`` and ``mtdf`` (MTD(f) was 12-16%
faster on medium positions here, 1.2-3.6x slower on easy ones): per position, the faster
counts.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from functools import partial

import numpy as np
from numba import njit

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bench_args import non_negative_int, positive_int, require, script_parser  # noqa: E402

from zoo.board_games.connect4.envs.connect4_position import play_sequence  # noqa: E402
from zoo.board_games.connect4.envs.connect4_search import solve_bits  # noqa: E402
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver  # noqa: E402
from zoo.board_games.connect4.eval.connect4_positions import KINDS, moves_left  # noqa: E402

_clock_gettime = ctypes.CDLL(None).clock_gettime
_clock_gettime.argtypes = [ctypes.c_int, ctypes.c_void_p]
_clock_gettime.restype = ctypes.c_int
_CLOCK_MONOTONIC = 1


@njit
def _now_ns(buf):
    _clock_gettime(_CLOCK_MONOTONIC, buf.ctypes.data)
    return buf[0] * 1_000_000_000 + buf[1]


@njit
def _timed_solve(current, mask, keys, vals, moves, frames, codes, values, book_ply, buf):
    """(score, nanoseconds) of one solve, the clock read inside compiled code (as Pons'
    driver reads steady_clock inside C++)."""
    t = _now_ns(buf)
    score = solve_bits(current, mask, keys, vals, moves, frames, codes, values, book_ply)
    return score, _now_ns(buf) - t


CATEGORIES = KINDS  # (name, stones played range, moves left range)


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


PONS_DRIVER = r"""
#include "Solver.hpp"
#include <chrono>
#include <cstdlib>
#include <iostream>
using namespace GameSolver::Connect4;
int main(int argc, char **argv) {  // a move string a line in; "score seconds" a line out
  int repeats = argc > 1 ? std::atoi(argv[1]) : 1;  // seconds: the best of this many solves
  Solver solver;
  std::string line;
  while (std::getline(std::cin, line)) {
    Position P;
    if (P.play(line) != line.size()) { std::cout << "invalid" << std::endl; continue; }
    int score = 0;
    double best = 1e300;
    for (int r = 0; r < repeats; r++) {
      solver.reset();
      Position warm;  // the same warm-up as the other solvers: decided without the table
      warm.play("121212");
      solver.solve(warm);
      auto t = std::chrono::steady_clock::now();
      score = solver.solve(P);
      std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t;
      if (dt.count() < best) best = dt.count();
      if (dt.count() > 0.01) break;  // caches no longer matter
    }
    std::cout << score << " " << best << std::endl;
  }
}
"""


#: The files of a PascalPons/connect4 checkout the driver is built from.
PONS_FILES = ("Solver.cpp", "Solver.hpp")


def pons_src_problem(src: str) -> str | None:
    """Why ``--pons-src`` cannot be built (None if it can): a missing file, or no g++."""
    missing = [f for f in PONS_FILES if not os.path.isfile(os.path.join(src, f))]
    if missing:
        return (
            f"expected a checkout of github.com/PascalPons/connect4 (a folder holding "
            f"{', '.join(PONS_FILES)}), got {src!r}, "
            + ("which is not a folder" if not os.path.isdir(src) else f"without {missing[0]}")
        )
    if shutil.which("g++") is None:
        return "building Pons' solver needs g++, which is not on PATH"
    return None


class PonsSolver:
    """Pons' C++ solver in a child process, fed a category's positions at once (each timed
    inside C++). Built in a temporary folder, removed by :meth:`close` (or at once if the
    build fails)."""

    def __init__(self, src: str, repeats: int) -> None:
        self._dir = tempfile.mkdtemp(prefix="pons_")
        self._proc = None
        driver = os.path.join(self._dir, "driver.cpp")
        with open(driver, "w") as f:
            f.write(PONS_DRIVER)
        exe = os.path.join(self._dir, "pons")
        cmd = ["g++", "--std=c++11", "-O3", "-DNDEBUG", "-march=native", f"-I{src}", driver,
               os.path.join(src, "Solver.cpp"), "-o", exe]  # fmt: skip
        try:
            subprocess.run(cmd, check=True)
        except subprocess.CalledProcessError as err:
            self.close()
            raise SystemExit(
                f"--pons-src {src}: building Pons' solver failed (g++ exited with "
                f"{err.returncode}, its errors above); expected a PascalPons/connect4 checkout "
                "that g++ -std=c++11 compiles"
            ) from None
        self._proc = subprocess.Popen(
            [exe, str(repeats)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def solve_many(self, lines: list[str]) -> list[tuple[int, float]]:
        """(score, seconds) of each move string, solved one after another in his process."""
        self._proc.stdin.write("".join(m + "\n" for m in lines))
        self._proc.stdin.flush()
        out = []
        for _ in lines:
            score, seconds = self._proc.stdout.readline().split()
            out.append((int(score), float(seconds)))
        return out

    def close(self) -> None:
        """Ends the child process and removes the build folder."""
        if self._proc is not None:
            with contextlib.suppress(OSError):  # a driver that died: nothing left to end
                self._proc.stdin.close()
            self._proc.wait()
            self._proc = None
        shutil.rmtree(self._dir, ignore_errors=True)


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--per-category", type=non_negative_int, default=20, help="positions of each category"
    )
    parser.add_argument(
        "--hard", type=non_negative_int, default=3, help="positions of 'beginning hard'"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random games")
    parser.add_argument(
        "--pons-src", default=None, help="a PascalPons/connect4 checkout: adds his C++ solver"
    )
    parser.add_argument(
        "--repeats", type=positive_int, default=3, help="each solver's time: the best of this many"
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=3, help="passes over each category, solvers in turn"
    )
    args = parser.parse_args()
    if args.pons_src is not None and (problem := pons_src_problem(args.pons_src)):
        parser.error(f"argument --pons-src: {problem}")
    bitbully = require("bitbully", "bench_connect4_solver.py")
    # Built first, so that a checkout that does not compile stops the run before any work.
    pons = PonsSolver(args.pons_src, args.repeats) if args.pons_src else None
    try:
        run(args, bitbully, pons)
    finally:
        if pons is not None:
            pons.close()


def run(args: argparse.Namespace, bitbully, pons: PonsSolver | None) -> None:
    """The benchmark: label the positions, then time every solver category by category."""
    per = {name: args.per_category for name, _, _ in CATEGORIES}
    per["beginning hard"] = args.hard
    sets = positions(bitbully, per, args.seed)
    ours = Connect4Solver()
    theirs = bitbully.BitBully(None)
    # Decided without the table: the mover completes four in column 1 (see the module doc).
    warm_ours, warm_bb = play_sequence("121212"), bitbully.Board.from_moves([0, 1] * 3)
    ours.solve_position(*warm_ours)  # compile outside the clock (solving "4" took 100 s)
    clock = np.zeros(2, dtype=np.int64)
    tables = ours._tables()
    _timed_solve(*warm_ours, *tables, clock)
    # His table is allocated and emptied (its pages mapped) when his driver starts (in main).
    print(f"bitbully {bitbully.__version__} (no book) vs ours (numba, table {ours.table_size})")
    print(
        f"settings: seed {args.seed}, {args.per_category} positions per category "
        f"({args.hard} 'beginning hard'), each solver's best of {args.repeats} repeats over "
        f"{args.rounds} rounds, mean time per position; 'time ratio' = ours / theirs (below 1: "
        f"ours faster)"
        + (
            f"; Pons' solver from {args.pons_src} (g++ -O3 -march=native, his table size)"
            if pons
            else "; Pons' C++ solver not run (--pons-src DIR, a PascalPons/connect4 checkout, "
            "adds it): his column is his published means only"
        )
    )
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    head = f"{'category':>17} {'n':>3} {'ours call':>10} {'bitbully':>10} {'t ratio':>7}"
    head += f" {'ours in':>10}"
    if pons is not None:
        head += f" {'Pons C++':>10} {'t ratio':>7}"
    print(head + "  Pons published")
    published = dict(
        zip([c[0] for c in CATEGORIES], ["4.6us", "37us", "3.2ms", "255us", "97ms", "5.5s"])
    )
    for name, _, _ in CATEGORIES:
        # Each solver runs through the whole category before the next takes over (taking
        # turns position by position slowed Pons' child process, woken on either core, more
        # than ours), for --rounds rounds: a solver's mean over the same 20 end-game positions
        # moved between 1.5 and 3.2 us from one run to the next on this shared machine.
        built = [(moves, score, play_sequence(moves)) for moves, score in sets[name]]
        k = len(built)
        # Per position and solver, the best time over all rounds and repeats.
        b_ours, b_in, b_bb, b_pons = ([float("inf")] * k for _ in range(4))
        for _ in range(args.rounds):
            for i, (moves, score, (current, mask)) in enumerate(built):
                # Every solver starts from a position already built from the move string,
                # outside the clock (bitbully's Board.from_moves, our play_sequence), with an
                # empty table.
                b_ours[i] = _best_of(
                    b_ours[i], args.repeats, ours.reset,
                    partial(ours.solve_position, *warm_ours),
                    partial(_perf, ours.solve_position, current, mask), score, f"{moves}: ours",
                )  # fmt: skip
            for i, (moves, score, (current, mask)) in enumerate(built):
                b_in[i] = _best_of(
                    b_in[i], args.repeats, ours.reset,
                    partial(_timed_solve, *warm_ours, *tables, clock),
                    partial(_in_numba, current, mask, tables, clock), score, f"{moves}: ours",
                )  # fmt: skip
            for i, (moves, score, _) in enumerate(built):
                board = bitbully.Board.from_moves([int(c) - 1 for c in moves])
                for search in (theirs.null_window, theirs.mtdf):  # its faster one counts
                    b_bb[i] = _best_of(
                        b_bb[i], args.repeats, theirs.reset_transposition_table,
                        partial(search, warm_bb),
                        partial(_perf, search, board), score, f"{moves}: bitbully",
                    )  # fmt: skip
            if pons is not None:
                todo = [i for i in range(k) if _again(b_pons[i])]
                done = pons.solve_many([built[i][0] for i in todo])
                for i, (his, seconds) in zip(todo, done):
                    b_pons[i] = min(b_pons[i], seconds)
                    if his != built[i][1]:
                        raise SystemExit(f"{built[i][0]}: Pons {his}, label {built[i][1]}")
        if not built:  # --hard 0: no time to divide, no ratio to print
            print(f"{name:>17} {0:>3}  (no positions)  {published[name]}")
            continue
        t_ours, t_in, t_bb = sum(b_ours), sum(b_in), sum(b_bb)
        t_pons = sum(b_pons) if pons is not None else 0.0
        row = (
            f"{name:>17} {len(sets[name]):>3} {_fmt(t_ours / k):>10} {_fmt(t_bb / k):>10} "
            f"{t_ours / max(t_bb, 1e-12):>7.2f} {_fmt(t_in / k):>10}"
        )
        if pons is not None:
            row += f" {_fmt(t_pons / k):>10} {t_in / max(t_pons, 1e-12):>7.2f}"
        print(f"{row}  {published[name]}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def _perf(solve, *position) -> tuple[int, float]:
    """(score, seconds) of one call, timed from Python."""
    t = time.perf_counter()
    score = solve(*position)
    return score, time.perf_counter() - t


def _in_numba(current, mask, tables, clock) -> tuple[int, float]:
    """(score, seconds) of one solve, timed inside compiled code."""
    score, ns = _timed_solve(current, mask, *tables, clock)
    return score, ns * 1e-9


def _best_of(best, repeats, reset, warm, timed, expected, what) -> float:
    """``best`` lowered by up to ``repeats`` timed solves of one position, each from an empty
    table (``reset``) after the warm-up solve (``warm``); raises if a solve is wrong."""
    for _ in range(repeats if _again(best) else 0):
        reset()
        warm()
        got, seconds = timed()
        if got != expected:
            raise SystemExit(f"{what} {got}, label {expected}")
        best = min(best, seconds)
        if best > 0.01:
            break  # caches no longer matter
    return best


def _again(best: float) -> bool:
    """Whether a position needs more solves: none yet, or its best under 10 ms (over that,
    caches no longer matter)."""
    return best == float("inf") or best <= 0.01


def _fmt(s: float) -> str:
    return f"{s * 1e6:.1f}us" if s < 1e-3 else f"{s * 1e3:.2f}ms" if s < 1 else f"{s:.2f}s"


if __name__ == "__main__":
    main()
