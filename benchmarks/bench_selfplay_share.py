"""Self-play speed at few simulations: positions a second and the share of wall time spent
outside the network's forward pass (search, env, Python), PUCT and Gumbel, in one run.

For each game and simulation budget, the zoo's AlphaZero self-play config (PUCT) and its
Gumbel AlphaZero one, with an untrained network, play ``--episodes`` games in the in-process
collector after a warm-up collect (compilation and caches outside the clock), on
``--torch-threads`` torch threads. The issue's bar: at most 0.25 outside the forward pass at
16 simulations, as at 50. Writes the figures as JSON.

Run: ``python benchmarks/bench_selfplay_share.py --game connect4 --simulations 16 50``.
"""

from __future__ import annotations

import copy
import importlib
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

from bench_args import cpu_model, positive_int, require, script_parser

CONFIGS = {
    "puct": "zoo.board_games.{game}.config.{game}_alphazero_sp_mode_config",
    "gumbel": "zoo.board_games.{game}.config.{game}_gumbel_alphazero_sp_mode_config",
}


def measure(game: str, search: str, sims: int, episodes: int, threads: int) -> dict:
    import torch

    from lzero.envs.registry import create_env
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.alphazero_config import compile_alphazero_config
    from lzero.policy.board_game import BoardGame
    from lzero.worker.alphazero_collector import make_alphazero_collector

    module = importlib.import_module(CONFIGS[search].format(game=game))
    main = copy.deepcopy(module.main_config)
    main.policy.mcts.num_simulations = sims
    main.policy.torch_num_threads = threads
    cfg = compile_alphazero_config([main, module.create_config])
    torch.set_num_threads(threads)
    env = create_env(cfg.create, cfg.env)
    policy = AlphaZeroPolicy(cfg.policy, BoardGame.from_env(env), seed=0)
    env.close()
    collector = make_alphazero_collector(policy, cfg, 0)
    try:
        collector.collect(max(1, episodes // 8))  # warm-up: compiled, traced, cached
        policy.forward_seconds = 0.0
        start = time.perf_counter()
        data = collector.collect(episodes)
        seconds = time.perf_counter() - start
    finally:
        collector.close()
    return {
        "game": game, "search": search, "simulations": sims, "env_steps": data["env_steps"],
        "seconds": round(seconds, 2), "positions_per_s": round(data["env_steps"] / seconds, 1),
        "outside_forward_share": round(1 - policy.forward_seconds / seconds, 3),
    }  # fmt: skip


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--game", choices=["tictactoe", "connect4", "gomoku"], default="connect4")
    parser.add_argument("--simulations", type=positive_int, nargs="+", default=[16, 50])
    parser.add_argument("--episodes", type=positive_int, default=256, help="games timed")
    parser.add_argument("--torch-threads", type=positive_int, default=1)
    parser.add_argument("--json", default=None, help="default benchmarks/results/...")
    args = parser.parse_args()
    require("torch", "bench_selfplay_share.py")
    print(
        f"settings: game {args.game}, simulations {args.simulations}, {args.episodes} games "
        f"timed, torch threads {args.torch_threads}; {os.cpu_count()} cores, {cpu_model()}, "
        f"load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    results = []
    for sims in args.simulations:
        for search in ("puct", "gumbel"):
            r = measure(args.game, search, sims, args.episodes, args.torch_threads)
            results.append(r)
            print(
                f"{search:>6} at {sims:>3} simulations: {r['positions_per_s']:.0f} positions/s, "
                f"outside the forward pass {r['outside_forward_share']:.3f}",
                flush=True,
            )
    path = Path(args.json or Path(__file__).parent / "results" / f"selfplay_share_{args.game}.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    sims = " ".join(map(str, args.simulations))
    record = {
        "figure": "self-play positions/s and share outside the forward pass", "results": results,
        "command": f"python benchmarks/bench_selfplay_share.py --game {args.game} "
        f"--simulations {sims} --episodes {args.episodes} --torch-threads {args.torch_threads}",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"), "cpu": cpu_model(),
        "cores": os.cpu_count(), "load": round(os.getloadavg()[0], 2),
    }  # fmt: skip
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"results: {path}")


if __name__ == "__main__":
    main()
