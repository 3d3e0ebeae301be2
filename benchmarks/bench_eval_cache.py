"""Self-play speed with and without the evaluation cache (``policy.nn_cache_size``), same run.

Builds the policy of a zoo AlphaZero config (with a checkpoint's weights if given: a trained
network concentrates its search, which changes how often positions come back), then plays the
same self-play collect twice from the same seed, cache off and cache on, and prints positions
per second, the share of time in the network's forward pass, the cache's hit rate and the
ratio. The collects run one after the other in this process, with the same torch threads,
off and on alternating ``--repeats`` times; the median ratio is printed.

Run: ``python benchmarks/bench_eval_cache.py --ckpt PATH`` (9x9 Gomoku by default).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import torch
from easydict import EasyDict

from lzero.agent import read_checkpoint
from lzero.cli_train import load_config_module
from lzero.envs.registry import create_env
from lzero.policy.alphazero import AlphaZeroPolicy
from lzero.policy.alphazero_config import compile_alphazero_config
from lzero.policy.board_game import BoardGame
from lzero.worker.alphazero_collector import AlphaZeroCollector

CONFIG = "zoo.board_games.gomoku.config.gomoku_9x9_alphazero_sp_mode_config"


def run(cfg, state, size: int, games: int, seed: int, **policy_keys) -> dict:
    """One self-play collect of ``games`` games with ``nn_cache_size`` ``size`` (and any other
    ``policy_keys`` set): positions, seconds, positions/s, forward share and cache hit rate."""
    env = create_env(cfg.create, cfg.env)
    game = BoardGame.from_env(env)
    env.close()
    torch.manual_seed(seed)
    # a checkpoint plays with its own policy config (its network's shape, its search); keys
    # added since it was written take the config's values
    policy_cfg = EasyDict(dict(cfg.policy, **(state["policy_config"] if state else {})))
    policy_cfg.nn_cache_size = size
    policy_cfg.update(policy_keys)
    policy = AlphaZeroPolicy(policy_cfg, game, seed=seed)
    if state is not None:
        policy.load_state_dict(state)
    n = cfg.trainer.collector_env_num
    collector = AlphaZeroCollector(policy, cfg.create.env.type, cfg.env, n, seed)
    collector.collect(1)  # compiles the kernels and the frozen network
    policy.forward_seconds = 0.0
    cache = policy.nn_cache
    if cache is not None:
        cache.hits = cache.lookups = 0
    start = time.perf_counter()
    out = collector.collect(games)
    seconds = time.perf_counter() - start
    collector.close()
    return dict(
        steps=out["env_steps"],
        seconds=seconds,
        rate=out["env_steps"] / seconds,
        forward=policy.forward_seconds / seconds,
        hits=cache.hits / max(cache.lookups, 1) if cache is not None else 0.0,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--config", default=CONFIG)
    parser.add_argument(
        "--ckpt",
        default=None,
        help="an AlphaZero checkpoint of the config's game (its policy "
        "config and weights are used)",
    )
    parser.add_argument("--games", type=int, default=64, help="games finished per collect")
    parser.add_argument("--size", type=int, default=1 << 16, help="nn_cache_size when on")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="off/on pairs")
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.torch_threads)
    module = load_config_module(args.config)
    cfg = compile_alphazero_config([module.main_config, module.create_config])
    state = None
    if args.ckpt:
        state = read_checkpoint(args.ckpt)
    p = EasyDict(state["policy_config"]) if state is not None else cfg.policy
    print(
        f"settings: {args.config}, {cfg.trainer.collector_env_num} games at once, "
        f"{p.mcts.num_simulations} simulations, {args.games} games finished, seed {args.seed}, "
        f"weights {args.ckpt or 'untrained'}; torch threads {args.torch_threads}; "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}"
    )
    ratios = []
    for repeat in range(args.repeats):  # off and on alternate, so drifts in load hit both
        off = run(cfg, state, 0, args.games, args.seed)
        on = run(cfg, state, args.size, args.games, args.seed)
        for name, r in (("cache off", off), (f"cache {args.size}", on)):
            print(
                f"repeat {repeat}, {name}: {r['steps']} positions in {r['seconds']:.1f} s = "
                f"{r['rate']:.1f}/s, forward share {r['forward']:.2f} (outside it "
                f"{1e3 * r['seconds'] * (1 - r['forward']) / r['steps']:.2f} ms a position), "
                f"hit rate {r['hits']:.3f}"
            )
        ratios.append(on["rate"] / off["rate"])
    print(
        f"speed ratio on/off: median {np.median(ratios):.2f} "
        f"(each repeat: {', '.join(f'{r:.2f}' for r in ratios)})"
    )


if __name__ == "__main__":
    main()
