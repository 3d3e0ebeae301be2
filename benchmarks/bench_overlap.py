"""AlphaZero training throughput with and without ``overlap_learning``, in one run.

Trains the game's zoo self-play config for ``--minutes`` of wall time twice from the same seed:
as configured (learning after each collect, on the config's ``torch_num_threads``), and with
``overlap_learning`` (each collect's gradient steps in a learner thread beside the next
collect, one torch thread each), each after a short untimed warm-up run, and timed by the
training loop's own clock (``progress.csv``'s ``wall_time``). Evaluation is reduced to the minimum on both sides (2 games
against the rule bot, once at the start), so the time goes to self-play and learning. Prints
env steps and gradient steps per second of each, and the ratios; writes them as JSON.

Run: ``python benchmarks/bench_overlap.py --game connect4 --minutes 3``.
"""

from __future__ import annotations

import copy
import csv
import importlib
import json
import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

from bench_args import cpu_model, positive_float, require, script_parser

GAMES = {
    "tictactoe": "zoo.board_games.tictactoe.config.tictactoe_alphazero_sp_mode_config",
    "connect4": "zoo.board_games.connect4.config.connect4_alphazero_sp_mode_config",
    "gomoku": "zoo.board_games.gomoku.config.gomoku_9x9_alphazero_sp_mode_config",
}


def train(module: str, out: Path, seed: int, minutes: float, overlap: bool) -> dict:
    from lzero.entry import train_alphazero

    config = importlib.import_module(module)
    main, create = copy.deepcopy(config.main_config), copy.deepcopy(config.create_config)
    main.exp_name = str(out)
    main.env.n_evaluator_episode = 2
    main.policy.update(eval_bots=["rule"], eval_freq=10**9, save_ckpt_last_minutes=None)
    if overlap:
        main.policy.update(overlap_learning=True, torch_num_threads=1)
    shutil.rmtree(out, ignore_errors=True)
    policy = train_alphazero([main, create], seed=seed, max_time_s=60 * minutes)
    with open(out / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    # the loop's own clock: from the start of training (after building the run), to its stop
    env_step, seconds = int(rows[-1]["env_step"]), float(rows[-1]["wall_time"])
    return {
        "overlap_learning": overlap,
        "torch_num_threads": int(policy.cfg.torch_num_threads),
        "seconds": round(seconds, 1),
        "env_steps": env_step,
        "train_iter": policy.train_iter,
        "env_steps_per_s": round(env_step / seconds, 1),
        "train_iter_per_s": round(policy.train_iter / seconds, 2),
    }


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--game", choices=sorted(GAMES), default="connect4")
    parser.add_argument("--minutes", type=positive_float, default=3.0, help="per configuration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="data_bench_overlap", help="folder of the runs")
    parser.add_argument(
        "--json", default=None,
        help="results file (default benchmarks/results/overlap_<game>.json)",
    )  # fmt: skip
    args = parser.parse_args()
    require("torch", "bench_overlap.py")
    print(
        f"settings: game {args.game}, config {GAMES[args.game]}, {args.minutes} min each, "
        f"seed {args.seed}; {os.cpu_count()} cores, {cpu_model()}",
        flush=True,
    )
    for overlap in (False, True):  # compiled and cached first, outside the timed runs
        train(GAMES[args.game], Path(args.out) / f"warm_{overlap}", args.seed, 0.05, overlap)
    results = []
    for overlap in (False, True):
        r = train(GAMES[args.game], Path(args.out) / f"overlap_{overlap}", args.seed,
                  args.minutes, overlap)  # fmt: skip
        results.append(r)
        print(
            f"overlap_learning={overlap} (torch threads {r['torch_num_threads']}): "
            f"{r['env_steps']} env steps, {r['train_iter']} gradient steps in {r['seconds']} s: "
            f"{r['env_steps_per_s']} env steps/s, {r['train_iter_per_s']} steps/s",
            flush=True,
        )
    off, on = results
    ratios = {
        "env_steps_per_s": round(on["env_steps_per_s"] / off["env_steps_per_s"], 3),
        "train_iter_per_s": round(on["train_iter_per_s"] / off["train_iter_per_s"], 3),
    }
    print(f"overlap / sequential: env steps {ratios['env_steps_per_s']}x, "
          f"gradient steps {ratios['train_iter_per_s']}x")  # fmt: skip
    path = Path(args.json or Path(__file__).parent / "results" / f"overlap_{args.game}.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "figure": "AlphaZero training throughput, overlap_learning against sequential",
        "game": args.game, "config": GAMES[args.game], "minutes": args.minutes,
        "seed": args.seed, "results": results, "ratio": ratios,
        "command": f"python benchmarks/bench_overlap.py --game {args.game} --minutes {args.minutes}",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"), "cpu": cpu_model(),
        "cores": os.cpu_count(),
    }  # fmt: skip
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"results: {path}")


if __name__ == "__main__":
    main()
