"""MuZero on Pendulum-v1 with 11 discretised actions: does the mean eval return pass -400 within 100,000 env steps?

Uses the zoo config and the CartPole benchmark's runner; prints env steps and wall-clock time
at the first evaluation reaching the target, per seed.

Run: ``python benchmarks/bench_muzero_pendulum.py --seeds 0``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_muzero_cartpole import run_benchmark  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--max-env-step", type=int, default=100_000)
    parser.add_argument("--target", type=float, default=-400.0)
    parser.add_argument("--max-minutes", type=float, default=60.0)
    parser.add_argument("--out-dir", default="data_muzero/bench")
    args = parser.parse_args()
    ok = run_benchmark(
        "zoo.classic_control.pendulum.config.pendulum_muzero_config",
        seeds=args.seeds,
        max_env_step=args.max_env_step,
        target=args.target,
        max_minutes=args.max_minutes,
        out_dir=args.out_dir,
    )
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
