"""The network's passes in float32 and in bfloat16 (``policy.inference_dtype`` and
``policy.learn_dtype``), same run.

Part 1, the network alone: the frozen inference copy of a zoo AlphaZero config's network
(``--channels`` and ``--blocks`` override its tower) on random planes, float32 and bfloat16
alternating ``--repeats`` times per batch size; the median milliseconds a forward pass and
their ratio are printed. Then a training step (``AlphaZeroPolicy.learn``) on
``--learn-batch`` random positions and targets, float32 and bfloat16 autocast
(``learn_dtype``) alternating, both from the same initial weights: the medians, their ratio
and the largest gap between the two runs' losses. Part 2, with ``--ckpt``: the same
self-play collect (same seed, same games) with the checkpoint's weights in each dtype,
alternating, as ``bench_eval_cache.py`` plays it (``--envs`` games at once, the config's by
default): positions per second, the share of time outside the forward pass, and the ratio.
Cache hits and finished games make the search's batches smaller than the collect's game
count, which is why part 2's ratio is below part 1's at that batch size.

bfloat16 needs a CPU with native bfloat16 arithmetic (AVX-512 BF16 or AMX); elsewhere the
script says so and stops.

Run: ``python benchmarks/bench_inference_dtype.py [--ckpt PATH]`` (9x9 Gomoku by default).
Needs torch (the ``train`` extra).
"""

from __future__ import annotations

import copy
import os
import time
import warnings

import numpy as np
from bench_args import non_negative_int, positive_int, require, script_parser
from bench_eval_cache import CONFIG, load_config, read_ckpt, run


def forward_ms(net, x, calls: int) -> float:
    """Milliseconds a call of ``net`` on ``x`` (a tensor), over ``calls`` calls after 10
    warm-up calls."""
    import torch

    with torch.inference_mode():
        for _ in range(10):
            net(x)
        start = time.perf_counter()
        for _ in range(calls):
            net(x)
    return (time.perf_counter() - start) / calls * 1e3


def learn_ms(cfg, channels: int, blocks: int, args) -> None:
    """Times ``AlphaZeroPolicy.learn`` in both ``learn_dtype`` values, alternating, each
    policy from the same initial weights on the same batch; prints the medians, their ratio,
    and the largest gap between the two runs' total losses. Each policy takes one untimed step
    first (its one-off setup), and the order alternates from one try to the next."""
    import torch
    from easydict import EasyDict

    from lzero.envs.registry import create_env
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.board_game import BoardGame

    env = create_env(cfg.create, cfg.env)
    game = BoardGame.from_env(env)
    env.close()
    m = cfg.policy.model
    rng = np.random.default_rng(args.seed)
    n, a = args.learn_batch, m.action_space_size
    planes = (rng.random((n, *m.observation_shape)) < 0.3).astype(np.float32)
    pi = rng.dirichlet(np.ones(a), n).astype(np.float32)
    z = rng.uniform(-1, 1, n).astype(np.float32)
    policies = {}
    for dtype in ("float32", "bfloat16"):
        pcfg = EasyDict(copy.deepcopy(cfg.policy))
        pcfg.model.update(num_channels=channels, num_res_blocks=blocks)
        pcfg.learn_dtype = dtype
        torch.manual_seed(args.seed)
        policies[dtype] = AlphaZeroPolicy(pcfg, game, seed=args.seed)
    times = {d: [] for d in policies}
    losses = {d: [] for d in policies}
    for dtype, policy in policies.items():  # untimed: the first step's one-off setup
        losses[dtype].append(policy.learn(planes, pi, z)["total_loss"])
    order = list(policies)
    for i in range(args.repeats):
        for dtype in order if i % 2 == 0 else order[::-1]:  # neither always goes first
            policy = policies[dtype]
            start = time.perf_counter()
            for _ in range(args.steps):
                losses[dtype].append(policy.learn(planes, pi, z)["total_loss"])
            times[dtype].append(1e3 * (time.perf_counter() - start) / args.steps)
    f32, bf16 = (float(np.median(times[d])) for d in policies)
    gap = max(abs(x - y) for x, y in zip(losses["float32"], losses["bfloat16"]))
    print(
        f"training step, {n} positions: float32 {f32:.1f} ms, bfloat16 autocast {bf16:.1f} ms "
        f"(medians), ratio {f32 / bf16:.2f}; total losses over {len(losses['float32'])} "
        f"steps from the same weights: {losses['float32'][0]:.4f} -> "
        f"{losses['float32'][-1]:.4f} (float32), largest gap {gap:.4f}"
    )


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--config", default=CONFIG, help="a zoo AlphaZero config module")
    parser.add_argument(
        "--channels", type=positive_int, default=None, help="tower width (default: the config's)"
    )
    parser.add_argument(
        "--blocks",
        type=non_negative_int,
        default=None,
        help="residual blocks (default: the config's)",
    )
    parser.add_argument(
        "--batches",
        type=positive_int,
        nargs="+",
        default=[16, 32, 64, 128],
        help="batch sizes of part 1's forward passes",
    )
    parser.add_argument(
        "--calls", type=positive_int, default=200, help="forward passes timed per try"
    )
    parser.add_argument(
        "--learn-batch", type=positive_int, default=256, help="positions a training step"
    )
    parser.add_argument(
        "--steps", type=positive_int, default=20, help="training steps timed per try"
    )
    parser.add_argument(
        "--envs",
        type=positive_int,
        default=None,
        help="games at once in part 2 (default: the config's)",
    )
    parser.add_argument(
        "--ckpt", default=None, help="an AlphaZero checkpoint of the config's game, for part 2"
    )
    parser.add_argument("--games", type=positive_int, default=64, help="games finished per collect")
    parser.add_argument("--seed", type=int, default=0, help="seed of the weights and games")
    parser.add_argument("--repeats", type=positive_int, default=3, help="float32/bfloat16 pairs")
    parser.add_argument("--torch-threads", type=positive_int, default=1, help="torch threads")
    args = parser.parse_args()
    torch = require("torch", "bench_inference_dtype.py")
    from lzero.model.alphazero_model import AlphaZeroModel
    from lzero.model.frozen import freeze, native_bfloat16
    from lzero.model.line_features import num_planes

    cfg = load_config(parser, args.config)
    state = None if args.ckpt is None else read_ckpt(parser, cfg, args.ckpt, args.config)
    if not native_bfloat16():
        raise SystemExit(
            "this CPU has no native bfloat16 (avx512_bf16 or amx_bf16): nothing to compare"
        )
    torch.set_num_threads(args.torch_threads)
    warnings.simplefilter("ignore", DeprecationWarning)  # torch.jit's
    m = cfg.policy.model
    channels = m.num_channels if args.channels is None else args.channels
    blocks = m.num_res_blocks if args.blocks is None else args.blocks
    c, h, w = m.observation_shape
    c += num_planes(m.line_directions) if m.line_features else 0
    print(
        f"settings: {args.config}, network {blocks} blocks x {channels} channels on "
        f"[{c}, {h}, {w}] planes; {args.calls} calls a try, {args.repeats} tries each; torch "
        f"{torch.__version__}, threads {args.torch_threads}; {os.cpu_count()} cores, load "
        f"{os.getloadavg()[0]:.2f}"
    )
    torch.manual_seed(args.seed)
    model = AlphaZeroModel(
        (m.observation_shape[0], h, w), m.action_space_size, blocks, channels,
        m.value_head_hidden_channels, m.policy_head_hidden_channels,
        line_features=m.line_features, line_directions=m.line_directions,
    )  # fmt: skip
    for batch in args.batches:
        x = torch.rand(batch, c, h, w)
        nets = {dtype: freeze(model, x, dtype) for dtype in (torch.float32, torch.bfloat16)}
        times = {dtype: [] for dtype in nets}
        for _ in range(args.repeats):  # alternating, so drifts in load hit both
            for dtype, net in nets.items():
                times[dtype].append(forward_ms(net, x, args.calls))
        f32, bf16 = (float(np.median(times[d])) for d in nets)
        print(
            f"batch {batch}: float32 {f32:.2f} ms, bfloat16 {bf16:.2f} ms a forward pass "
            f"(medians), ratio {f32 / bf16:.2f}"
        )
    learn_ms(cfg, channels, blocks, args)
    if state is None:
        return
    if args.envs is not None:
        cfg.trainer.collector_env_num = args.envs
    print(
        f"self-play: {cfg.trainer.collector_env_num} games at once, {args.games} finished a "
        f"collect, seed {args.seed}, {args.ckpt}"
    )
    ratios, size = [], cfg.policy.nn_cache_size
    for repeat in range(args.repeats):
        r = {d: run(cfg, state, size, args.games, args.seed, inference_dtype=d)
             for d in ("float32", "bfloat16")}  # fmt: skip
        for name, x in r.items():
            print(
                f"repeat {repeat}, {name}: {x['steps']} positions in {x['seconds']:.1f} s = "
                f"{x['rate']:.1f}/s, outside the forward pass {1 - x['forward']:.2f} of the time"
            )
        ratios.append(r["bfloat16"]["rate"] / r["float32"]["rate"])
    print(
        f"self-play speed ratio bfloat16/float32: median {np.median(ratios):.2f} "
        f"(each repeat: {', '.join(f'{x:.2f}' for x in ratios)})"
    )


if __name__ == "__main__":
    main()
