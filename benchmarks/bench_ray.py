"""Ray against the single-machine paths, in the same run.

1. Env steps per second at 8 envs, CartPole and Connect4: ``RayEnvManager`` (``--actors``
   actors, 8 envs split among them) against ``SubprocessEnvManager`` (one worker process per
   env, shared memory: its fastest setting). Rounds alternate between the two so that a change
   of load hits both; the median round is printed with the load average.
2. AlphaZero self-play positions per second on Connect4 (8 games at once): the in-process
   collector against ``RayAlphaZeroCollector`` with 1 and 2 actors (same search and model,
   ``--threads`` torch threads each), each timed over whole collect phases after a warm-up
   phase. The Ray collector starts each actor's next phase as soon as
   one is in, so its rate is the actors' steady rate.
3. The same for MuZero self-play on Connect4 (8 envs): ``MuZeroCollector`` in process against
   ``RayMuZeroCollector`` (``self_play_actors=True``) with 1 and 2 actors.

Ray starts its workers at niceness 15: run this on an otherwise idle machine, or the actors
get only what other work leaves. Parts 2 and 3 need torch (the ``train`` extra); without it
they are skipped, saying so.

Usage: python benchmarks/bench_ray.py [--steps 300] [--rounds 3] [--actors 2] [--phases 3]
    [--simulations 25] [--threads 1]
"""

from __future__ import annotations

import copy
import importlib.util
import os
import statistics
import time

import numpy as np
from bench_args import install_command, int_in, positive_int, require, script_parser


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def env_factories(name: str, n: int) -> list:
    if name == "CartPole":
        from lzero.envs.get_wrapped_env import get_wrappered_env

        cfg = dict(env_id="CartPole-v1", continuous=False, manually_discretization=False,
                   each_dim_disc_size=4, is_train=True)  # fmt: skip
        return [get_wrappered_env(cfg, "CartPole-v1")] * n
    from lzero.envs.registry import create_env

    spec = dict(type="connect4", import_names=["zoo.board_games.connect4.envs.connect4_env"])
    return [lambda: create_env(spec, dict(battle_mode="self_play_mode"))] * n


def steps_per_second(manager, steps: int, rng) -> float:
    """Steps ``steps`` rounds of random legal actions on every ready env."""
    start, total = time.perf_counter(), 0
    for _ in range(steps):
        actions = {}
        for i, obs in manager.ready_obs.items():
            legal = np.flatnonzero(obs["action_mask"])
            actions[i] = int(rng.choice(legal))
        total += len(manager.step(actions))
    return total / (time.perf_counter() - start)


def bench_env_managers(args) -> None:
    from lzero.envs.env_manager import RayEnvManager, SubprocessEnvManager

    for name in ("CartPole", "Connect4"):
        fns = env_factories(name, 8)
        managers = {
            f"RayEnvManager({args.actors} actors)": RayEnvManager(fns, dict(actor_num=args.actors)),
            "SubprocessEnvManager(8 workers)": SubprocessEnvManager(fns),
        }
        rates = {k: [] for k in managers}
        for m in managers.values():
            m.seed(0)
            m.launch()
            steps_per_second(m, 20, np.random.default_rng(0))  # warm-up
        for r in range(args.rounds):
            for key, m in managers.items():
                rates[key].append(steps_per_second(m, args.steps, np.random.default_rng(r)))
        for m in managers.values():
            m.close()
        med = {k: statistics.median(v) for k, v in rates.items()}
        ray_key, sub_key = list(med)
        print(f"{name}, 8 envs, {args.rounds} rounds of {args.steps} steps ({load()}):")
        for k, v in med.items():
            print(f"  {k:34s} {v:10.0f} env steps/s  (rounds: {[round(x) for x in rates[k]]})")
        print(f"  ratio Ray / Subprocess: {med[ray_key] / med[sub_key]:.2f}")


def bench_self_play(args) -> None:
    import torch

    from lzero.envs.registry import create_env
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.alphazero_config import compile_alphazero_config
    from lzero.policy.board_game import BoardGame
    from lzero.worker.alphazero_collector import make_alphazero_collector
    from zoo.board_games.connect4.config import connect4_alphazero_sp_mode_config as sp

    threads = args.threads  # torch threads of the in-process collector and of each actor
    torch.set_num_threads(threads)

    def config(**manager):
        main = copy.deepcopy(sp.main_config)
        main.env.update(collector_env_num=8, manager=manager)
        main.policy.update(torch_num_threads=threads, mcts=dict(num_simulations=args.simulations))
        return compile_alphazero_config([main, copy.deepcopy(sp.create_config)])

    settings = {
        "in-process collector": config(),
        "Ray, 1 actor": config(type="ray", actor_num=1, num_cpus_per_actor=threads),
        "Ray, 2 actors": config(type="ray", actor_num=2, num_cpus_per_actor=threads),
    }
    print(f"\nAlphaZero self-play, Connect4, 8 games, {args.simulations} simulations a move, "
          f"model {dict(sp.main_config.policy.model)}, {threads} torch thread(s) each:")  # fmt: skip
    for label, cfg in settings.items():
        game = BoardGame.from_env(create_env(cfg.create, cfg.env))
        policy = AlphaZeroPolicy(cfg.policy, game, seed=0)
        collector = make_alphazero_collector(policy, cfg, 0)
        collector.collect(8)  # warm-up: actors started, kernels loaded
        start, positions = time.perf_counter(), 0
        for _ in range(args.phases):
            positions += len(collector.collect(8)["value"])
        rate = positions / (time.perf_counter() - start)
        collector.close()
        print(f"  {label:22s} {rate:8.0f} positions/s  ({args.phases} phases, {load()})")


def bench_muzero_self_play(args) -> None:
    import torch

    from lzero.entry.config import compile_config
    from lzero.entry.train_muzero_with_gym_env import make_collector
    from lzero.policy.muzero import MuZeroPolicy
    from zoo.board_games.connect4.config import connect4_muzero_sp_mode_config as sp

    threads = args.threads
    torch.set_num_threads(threads)

    def config(**manager):
        main = copy.deepcopy(sp.main_config)
        main.env.update(collector_env_num=8, manager=manager)
        main.policy.update(torch_num_threads=threads, num_simulations=args.simulations)
        return compile_config([main, copy.deepcopy(sp.create_config)])

    ray_keys = dict(type="ray", self_play_actors=True, num_cpus_per_actor=threads)
    settings = {
        "in-process collector": config(),
        "Ray, 1 actor": config(actor_num=1, **ray_keys),
        "Ray, 2 actors": config(actor_num=2, **ray_keys),
    }
    print(f"\nMuZero self-play, Connect4, 8 envs, {args.simulations} simulations a move, "
          f"{threads} torch thread(s) each:")  # fmt: skip
    for label, cfg in settings.items():
        torch.manual_seed(0)
        collector = make_collector(cfg, MuZeroPolicy(cfg.policy), 0)
        collector.collect(8)  # warm-up: actors started, kernels loaded
        start, steps = time.perf_counter(), 0
        for _ in range(args.phases):
            steps += collector.collect(8)[1]["env_steps"]
        rate = steps / (time.perf_counter() - start)
        collector.close()
        print(f"  {label:22s} {rate:8.0f} positions/s  ({args.phases} phases, {load()})")


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=300,
        help="part 1: manager steps a timed round (each steps every ready env)",
    )
    parser.add_argument(
        "--rounds",
        type=positive_int,
        default=3,
        help="part 1: timed rounds per manager, alternating (the median is printed)",
    )
    cpus = os.cpu_count() or 1  # the CPUs this script gives Ray, one an actor
    parser.add_argument(
        "--actors",
        type=int_in(1, min(8, cpus), f"8 envs, and one of this machine's {cpus} CPUs an actor"),
        default=2,
        help="part 1: actors of RayEnvManager (parts 2 and 3 always compare 1 and 2 actors)",
    )
    parser.add_argument(
        "--phases",
        type=positive_int,
        default=3,
        help="parts 2 and 3: timed collect phases (8 games each) per collector, after one "
        "warm-up phase",
    )
    parser.add_argument(
        "--simulations",
        type=positive_int,
        default=25,
        help="parts 2 and 3: MCTS simulations a move",
    )
    parser.add_argument(
        "--threads",
        type=positive_int,
        default=1,
        # on a loaded 2-core machine torch's 2-thread forward was 40x slower than 1 thread's
        help="parts 2 and 3: torch threads of the in-process collector and of each actor",
    )
    args = parser.parse_args()
    ray = require("ray", "bench_ray.py")
    self_play = importlib.util.find_spec("torch") is not None  # parts 2 and 3 need it

    print(f"ray {ray.__version__}, {os.cpu_count()} CPUs, {load()}")
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, logging_level="error")
    try:
        bench_env_managers(args)
        if not self_play:
            print(
                "\nparts 2 and 3 (self-play) skipped: they need torch, which is not installed: "
                + install_command("torch")
            )
            return
        bench_self_play(args)
        bench_muzero_self_play(args)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
