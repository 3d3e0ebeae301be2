"""MuZero on Pendulum-v1 with 11 discretised actions: does the mean eval return pass -400 within 100,000 env steps?

Uses the zoo config and the CartPole benchmark's runner; prints env steps and wall-clock time
at the first evaluation reaching the target, per seed.

Run: ``python benchmarks/bench_muzero_pendulum.py --seeds 0``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_muzero_cartpole import cli  # noqa: E402


def main() -> None:
    cli(
        "zoo.classic_control.pendulum.config.pendulum_cont_disc_muzero_config",
        description=" ".join(__doc__.split("\n\n")[0].split()),
        seeds=[0],
        max_env_step=100_000,
        target=-400.0,
        max_minutes=60.0,
        lightzero_ssl="LightZero's pendulum_cont_disc_muzero_config: 2",
    )


if __name__ == "__main__":
    main()
