"""Self-play speed with and without the evaluation cache (``policy.nn_cache_size``), same run.

Builds the policy of a zoo AlphaZero config (with a checkpoint's weights if given: a trained
network concentrates its search, which changes how often positions come back), then plays the
same self-play collect twice from the same seed, cache off and cache on, and prints positions
per second, the share of time in the network's forward pass, the cache's hit rate and the
ratio. The collects run one after the other in this process, with the same torch threads,
off and on alternating ``--repeats`` times; the median ratio is printed.

Run: ``python benchmarks/bench_eval_cache.py --ckpt PATH`` (9x9 Gomoku by default). Needs
torch (the ``train`` extra).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from bench_args import positive_int, require, script_parser

CONFIG = "zoo.board_games.gomoku.config.gomoku_9x9_alphazero_sp_mode_config"


def load_config(parser: argparse.ArgumentParser, config: str):
    """The compiled AlphaZero config of the module ``config`` (``--config``); a module that is
    not one ends the script at ``parser.error``."""
    from lzero.cli_train import load_config_module
    from lzero.errors import LZeroError
    from lzero.policy.alphazero_config import compile_alphazero_config

    try:
        module = load_config_module(config)
        return compile_alphazero_config([module.main_config, module.create_config])
    except LZeroError as err:
        parser.error(f"argument --config: {err}")


def read_ckpt(parser: argparse.ArgumentParser, cfg, path: str, config: str) -> dict:
    """The AlphaZero checkpoint at ``path`` (``--ckpt``), checked to be of the game of
    ``cfg`` (the config module ``config``) on its board; anything else ends the script at
    ``parser.error``, with ``read_checkpoint``'s message or one as ``Agent.check_game``'s."""
    from lzero.agent import read_checkpoint
    from lzero.envs.registry import create_env
    from lzero.errors import ConfigError

    try:
        state = read_checkpoint(path)
    except ConfigError as err:
        parser.error(f"argument --ckpt: {err}")
    env = create_env(cfg.create, cfg.env)
    rules = env.rules
    env.close()
    g = state["game"]
    if (g["name"], g["height"], g["width"]) != (rules.name, rules.height, rules.width):
        parser.error(
            f"argument --ckpt: expected a checkpoint of {rules.name} on a "
            f"{rules.height}x{rules.width} board (the game of {config}), got one of "
            f"{g['name']} on a {g['height']}x{g['width']} board"
        )
    return state


def run(cfg, state, size: int, games: int, seed: int, **policy_keys) -> dict:
    """One self-play collect of ``games`` games with ``nn_cache_size`` ``size`` (and any other
    ``policy_keys`` set): positions, seconds, positions/s, forward share and cache hit rate."""
    import torch
    from easydict import EasyDict

    from lzero.envs.registry import create_env
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.board_game import BoardGame
    from lzero.worker.alphazero_collector import AlphaZeroCollector

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
    parser = script_parser(__doc__)
    parser.add_argument("--config", default=CONFIG, help="a zoo AlphaZero config module")
    parser.add_argument(
        "--ckpt",
        default=None,
        help="an AlphaZero checkpoint of the config's game (its policy "
        "config and weights are used; default: untrained weights)",
    )
    parser.add_argument("--games", type=positive_int, default=64, help="games finished per collect")
    parser.add_argument("--size", type=positive_int, default=1 << 16, help="nn_cache_size when on")
    parser.add_argument("--seed", type=int, default=0, help="seed of the policy and games")
    parser.add_argument("--repeats", type=positive_int, default=3, help="off/on pairs")
    parser.add_argument("--torch-threads", type=positive_int, default=1, help="torch threads")
    args = parser.parse_args()
    torch = require("torch", "bench_eval_cache.py")
    from easydict import EasyDict

    cfg = load_config(parser, args.config)
    state = None if args.ckpt is None else read_ckpt(parser, cfg, args.ckpt, args.config)
    torch.set_num_threads(args.torch_threads)
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
