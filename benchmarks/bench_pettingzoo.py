"""PettingZoo's own ``performance_benchmark`` on our Connect4 AEC env against PettingZoo's
``connect_four_v3``, in one run: the same loop (PettingZoo's: ``env.last()``, a uniformly random
legal move by ``random.choice`` over the mask, ``env.step``), the same 5 s per round, rounds
interleaved, the best round of each kept. PettingZoo's env is timed at its fastest, the bare
``raw_env()`` (the ratio that counts), and as ``env()`` gives it, inside its three checking
wrappers (our adapter has none: it checks moves itself). The issue's bar: ours at least 10x
PettingZoo's.

Run: ``python benchmarks/bench_pettingzoo.py [--rounds 3]`` (needs the ``bench`` or
``pettingzoo`` extra).
"""

from __future__ import annotations

import contextlib
import io
import os
import re

from bench_args import positive_int, require, script_parser
from bench_versions import versions_line


def turns_per_second(make) -> float:
    from pettingzoo.test import performance_benchmark

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(make())
    return float(re.search(r"([\d.e+]+) turns per second", out.getvalue()).group(1))


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--rounds", type=positive_int, default=3, help="rounds of 5 s per env (the best counts)"
    )
    args = parser.parse_args()
    require("pettingzoo", "bench_pettingzoo.py")
    from pettingzoo.classic import connect_four_v3

    from lzero.envs.pettingzoo import env as lzero_env

    contenders = {
        "ours (lzero.envs.pettingzoo, connect4)": lambda: lzero_env("connect4"),
        "PettingZoo connect_four_v3.raw_env": connect_four_v3.raw_env,
        "PettingZoo connect_four_v3.env (wrapped)": connect_four_v3.env,
    }
    best = dict.fromkeys(contenders, 0.0)
    print(versions_line(("numpy", "numba", "pettingzoo")))
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for r in range(args.rounds):
        for name, make in contenders.items():
            best[name] = max(best[name], turns_per_second(make))
        print(
            f"round {r + 1}: " + ", ".join(f"{n.split(' (')[0]} {v:,.0f}" for n, v in best.items())
        )
    ours, raw, wrapped = best.values()
    for name, value in best.items():
        print(f"{name:>42}: {value:>12,.0f} turns/s (best of {args.rounds} rounds of 5 s)")
    print(f"ratio ours/PettingZoo raw_env: {ours / raw:.2f}x (bar: 10x)")
    print(f"ratio ours/PettingZoo env() with its wrappers: {ours / wrapped:.2f}x")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
