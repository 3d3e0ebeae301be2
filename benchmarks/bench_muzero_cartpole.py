"""Time-to-target of MuZero on CartPole-v0 with the zoo config, over several seeds.

For each seed: train with ``stop_value`` = the target until the mean eval return reaches it,
or ``--max-env-step`` or ``--max-minutes`` of wall time runs out, then print the env steps and wall-clock time at the first
evaluation that reached the target (read from the run's ``progress.csv``). The issue's bar
is 195 within 30,000 env steps and 20 minutes per seed on 2 CPU cores.

Run: ``python benchmarks/bench_muzero_cartpole.py --seeds 0 1 2``; ``--search gumbel`` trains
the Gumbel MuZero config (``cartpole_gumbel_muzero_config``) instead.
"""

from __future__ import annotations

import argparse
import copy
import csv
import importlib
import os
import shutil
import time
from pathlib import Path

from bench_args import non_negative_float, positive_float, positive_int, require

from lzero.cli import DefaultsHelp


def first_hit(csv_path: Path, target: float) -> dict | None:
    """Returns the first progress row whose mean eval return reaches ``target``."""
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if row["eval_return_mean"] and float(row["eval_return_mean"]) >= target:
                return row
    return None


def run_benchmark(
    config_module: str,
    *,
    seeds: list[int],
    max_env_step: int,
    target: float,
    max_minutes: float,
    out_dir: str,
    ssl_loss_weight: float = 0.0,
) -> bool:
    """Trains one run per seed and prints a line per seed; returns True if all met the bar."""
    require("torch", "MuZero training")
    from lzero.entry import train_muzero_with_gym_env

    mod = importlib.import_module(config_module)
    ok = True
    consistency = (
        f", EfficientZero's consistency loss at weight {ssl_loss_weight:g}"
        if ssl_loss_weight
        else ""
    )
    print(
        f"{config_module}{consistency}: target {target} within {max_env_step} env steps and "
        f"{max_minutes} min (cpus visible: {os.cpu_count()}, load avg at start "
        f"{os.getloadavg()[0]:.2f})"
    )
    for seed in seeds:
        main = copy.deepcopy(mod.main_config)
        name = Path(main.exp_name).name.rsplit("_seed", 1)[0] + ("_ssl" if ssl_loss_weight else "")
        main.exp_name = f"{out_dir}/{name}_seed{seed}"
        if Path(main.exp_name).exists():  # a run refuses a directory holding one: ours to replace
            print(f"replacing the previous benchmark run in {main.exp_name}", flush=True)
            shutil.rmtree(main.exp_name)
        main.env.stop_value = target
        if ssl_loss_weight:
            main.policy.model.self_supervised_learning_loss = True
            main.policy.ssl_loss_weight = ssl_loss_weight
        t0 = time.time()
        train_muzero_with_gym_env(
            [main, copy.deepcopy(mod.create_config)],
            seed=seed,
            max_env_step=max_env_step,
            max_time_s=60 * max_minutes,
        )
        total = time.time() - t0
        hit = first_hit(Path(main.exp_name) / "progress.csv", target)
        if hit is None:
            ok = False
            print(
                f"seed {seed}: did NOT reach {target} within {max_env_step} env steps and "
                f"{max_minutes} min ({total:.0f} s)"
            )
            continue
        steps, secs = int(hit["env_step"]), float(hit["wall_time"])
        met = steps <= max_env_step and secs <= 60 * max_minutes
        ok &= met
        print(
            f"seed {seed}: reached {float(hit['eval_return_mean']):.1f} at {steps} env steps, "
            f"{secs:.0f} s wall-clock ({total:.0f} s incl. setup) -> {'OK' if met else 'MISSED'}; "
            f"curve: {Path(main.exp_name) / 'learning_curve.png'}"
        )
    return ok


def cli(
    config: str,
    *,
    description: str,
    seeds: list[int],
    max_env_step: int,
    target: float,
    max_minutes: float,
    lightzero_ssl: str,
    gumbel_config: str | None = None,
) -> None:
    """Parses the benchmark's options (defaults as given), runs it and exits 0 if it passed.
    ``lightzero_ssl``: LightZero's own config of the task and its ``ssl_loss_weight``, for
    the help; ``gumbel_config``: the task's Gumbel MuZero config, for ``--search gumbel``."""
    parser = argparse.ArgumentParser(description=description, formatter_class=DefaultsHelp)
    parser.add_argument("--seeds", type=int, nargs="+", default=seeds, help="one training run each")
    parser.add_argument(
        "--max-env-step", type=positive_int, default=max_env_step, help="env steps per seed"
    )
    parser.add_argument("--target", type=float, default=target, help="mean eval return to reach")
    parser.add_argument(
        "--max-minutes", type=positive_float, default=max_minutes, help="wall time per seed"
    )
    parser.add_argument("--out-dir", default="data_muzero/bench", help="folder of the runs")
    parser.add_argument(
        "--ssl-loss-weight",
        type=non_negative_float,
        default=0.0,
        help=f"train with EfficientZero's consistency loss at this weight ({lightzero_ssl}); "
        "0: without it, as the zoo config",
    )
    if gumbel_config is not None:
        parser.add_argument(
            "--search", choices=["puct", "gumbel"], default="puct",
            help=f"the zoo's MuZero config (puct, {config}) or its Gumbel MuZero one "
            f"({gumbel_config})",
        )  # fmt: skip
    args = parser.parse_args()
    if getattr(args, "search", "puct") == "gumbel":
        config = gumbel_config
    print(f"settings: config {config}, seeds {args.seeds}, target {args.target}")
    ok = run_benchmark(
        config,
        seeds=args.seeds,
        max_env_step=args.max_env_step,
        target=args.target,
        max_minutes=args.max_minutes,
        out_dir=args.out_dir,
        ssl_loss_weight=args.ssl_loss_weight,
    )
    raise SystemExit(0 if ok else 1)


def main() -> None:
    cli(
        "zoo.classic_control.cartpole.config.cartpole_muzero_config",
        description=" ".join(__doc__.split("\n\n")[0].split()),
        seeds=[0, 1, 2],
        max_env_step=30_000,
        target=195.0,
        max_minutes=20.0,
        lightzero_ssl="LightZero's cartpole_muzero_config: 2",
        gumbel_config="zoo.classic_control.cartpole.config.cartpole_gumbel_muzero_config",
    )


if __name__ == "__main__":
    main()
