"""Env steps per second of our pool against gymnasium's vector envs, envpool and pgx, in one run.

CartPole-v1 (random actions): our sync pool (in-process) and our worker pool (sync and
async, one worker per core) against ``SyncVectorEnv``, ``AsyncVectorEnv`` and envpool.
Board games (self-play, random legal moves, observations included): the vectorised numba
pool against a Python loop over our single env, and against pgx (``tic_tac_toe``,
``connect_four``) where installed. Each figure is the best of ``--repeats`` runs of
``--seconds`` each, the contenders taking turns round by round, so that other load on a
shared machine hurts every contender alike.

pgx is measured at its best: one fused jitted function per step (keys split, a random legal
action sampled, ``auto_reset(step, init)`` vmapped, the state buffers donated), dispatched
without blocking; every window is timed until its last step has finished. Our pool picks a
random legal action per env each step, produces every observation and auto-resets.

Usage: python benchmarks/bench_pool.py [--seconds 0.5] [--repeats 5] [--sizes 1 8 64 256]
    [--board-envs 1024] [--games tictactoe connect4 gomoku] [--skip cartpole ...]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from functools import partial

import numpy as np
from numba import njit

warnings.filterwarnings("ignore")


@njit(cache=True)
def random_legal(mask, out, state):
    """One uniformly random legal action per row of ``mask`` `[B, A]` (any action if none)."""
    x = state[0]  # in a register: ``out`` might alias ``state`` for all numba knows
    for i in range(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[i, a]
        x = x * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
        k = np.int64((x >> np.uint64(33)) % np.uint64(max(count, 1)))
        chosen = 0
        for a in range(mask.shape[1]):  # the k-th legal action, without branching on k
            chosen = a if mask[i, a] and k == 0 else chosen
            k -= mask[i, a]
        out[i] = chosen
    state[0] = x


# ---------------------------------------------------------------------------------- CartPole
def random_actions_runner(step, n: int):
    """``run(deadline)`` calling ``step(actions)`` with random CartPole actions for ``n`` envs."""
    acts = np.random.default_rng(0).integers(0, 2, (64, n))

    def run(deadline):
        steps, t = 0, 0
        while time.perf_counter() < deadline:
            step(acts[t % 64])
            steps, t = steps + n, t + 1
        return steps

    return run


def cartpole_ours(n: int, *, batch_size=None, num_threads=None):
    from lzero.envs import make

    pool = make("CartPole-v1", num_envs=n, batch_size=batch_size, num_threads=num_threads)
    rng = np.random.default_rng(0)
    acts = rng.integers(0, 2, (64, n))
    if pool.is_async:
        pool.async_reset()

        def run(deadline):
            steps, t = 0, 0
            while time.perf_counter() < deadline:
                *_, info = pool.recv()
                ids = info["env_id"]
                pool.send(acts[t % 64, : ids.shape[0]], ids)
                steps, t = steps + ids.shape[0], t + 1
            return steps

        return run, pool.close
    pool.reset()
    return random_actions_runner(pool.step, n), pool.close


def cartpole_gymnasium(n: int, kind: str):
    import gymnasium

    cls = gymnasium.vector.SyncVectorEnv if kind == "sync" else gymnasium.vector.AsyncVectorEnv
    env = cls([lambda: gymnasium.make("CartPole-v1") for _ in range(n)])
    env.reset(seed=0)
    return random_actions_runner(env.step, n), env.close


def cartpole_envpool(n: int):
    import envpool

    env = envpool.make("CartPole-v1", env_type="gym", num_envs=n, batch_size=n)
    env.reset()
    return random_actions_runner(env.step, n), env.close


# ---------------------------------------------------------------------------------- boards
def board_ours(game: str, n: int):
    from lzero.envs import make

    pool = make(game, num_envs=n, **({"board_size": 15} if game == "gomoku" else {}))
    obs = pool.reset()
    actions = np.zeros(n, np.int64)
    state = np.array([12345], np.uint64)
    mask = obs["action_mask"]

    def run(deadline):
        nonlocal mask
        steps = 0
        while time.perf_counter() < deadline:
            random_legal(mask, actions, state)
            obs = pool.step(actions)[0]
            mask = obs["action_mask"]
            steps += n
        return steps

    return run, pool.close


def board_python_loop(game: str, n: int):
    from lzero.envs import ENV_REGISTRY

    envs = [ENV_REGISTRY.build(game) for _ in range(min(n, 64))]  # per-step cost: n-independent
    for i, env in enumerate(envs):
        env.seed(i)
        env.reset()

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            for env in envs:
                if env.step(env.random_action()).done:
                    env.reset()
            steps += len(envs)
        return steps

    return run, lambda: None


def board_pgx(game: str, n: int):
    """pgx at its best: one fused jitted call per step (split keys, sample a random legal
    action, vmapped ``auto_reset(step, init)``), dispatched asynchronously; the caller blocks
    once at the end of each timed window (``measure`` times until ``run`` returns)."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make({"tictactoe": "tic_tac_toe", "connect4": "connect_four"}[game])
    step_all = jax.vmap(auto_reset(env.step, env.init))

    @partial(jax.jit, donate_argnums=(0,))
    def step(state, key):
        key, k_act, k_reset = jax.random.split(key, 3)
        logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
        action = jax.random.categorical(k_act, logits, axis=-1)
        return step_all(state, action, jax.random.split(k_reset, n)), key

    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), n))
    key = jax.random.PRNGKey(1)

    def run(deadline):
        nonlocal state, key
        steps = 0
        while time.perf_counter() < deadline:
            state, key = step(state, key)
            steps += n
        state.observation.block_until_ready()
        return steps

    return run, lambda: None


def measure(contenders: dict, seconds: float, repeats: int) -> dict:
    """Best steps per second of each contender, interleaving their runs round by round.

    Args:
        contenders: ``label -> factory``; a factory returns ``(run, close)`` where
            ``run(deadline) -> steps`` steps until the deadline.

    Returns:
        ``label -> steps/s`` (None for a contender whose library is not installed).
    """
    runs, rates = {}, {}
    for label, factory in contenders.items():
        try:
            runs[label] = factory()
        except ImportError as err:
            print(f"  {label:<36} skipped ({err.name} not installed)")
            rates[label] = None
            continue
        runs[label][0](time.perf_counter() + min(0.2, seconds))  # warm-up: jit, first resets
        rates[label] = 0.0
    try:
        for _ in range(repeats):
            for label, (run, _) in runs.items():
                # Timed until run returns: pgx's asynchronous dispatch finishes its queued
                # steps (its block) inside the window it is credited for.
                start = time.perf_counter()
                steps = run(start + seconds)
                rates[label] = max(rates[label], steps / (time.perf_counter() - start))
    finally:
        for _, close in runs.values():
            close()
    for label in runs:
        print(f"  {label:<36} {rates[label]:>14,.0f} steps/s", flush=True)
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return rates


def ratio(label: str, ours: float | None, peer: float | None) -> None:
    if ours and peer:
        print(f"  -> {label}: {ours / peer:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 8, 64, 256])
    parser.add_argument("--board-envs", type=int, default=1024, help="extra Connect4 size vs pgx")
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["cartpole", "boards", "pgx", "envpool"]
    )
    parser.add_argument("--games", nargs="+", default=["tictactoe", "connect4", "gomoku"])
    args = parser.parse_args()
    s, r = args.seconds, args.repeats
    if "cartpole" not in args.skip:
        for n in args.sizes:
            print(f"CartPole-v1, {n} envs")
            half = max(1, n // 2)
            contenders = {
                "ours sync (in-process)": partial(cartpole_ours, n),
                "ours workers sync": partial(cartpole_ours, n, num_threads=2),
                f"ours workers async (batch {half})": partial(
                    cartpole_ours, n, batch_size=half, num_threads=2
                ),
                "gymnasium SyncVectorEnv": partial(cartpole_gymnasium, n, "sync"),
                "gymnasium AsyncVectorEnv": partial(cartpole_gymnasium, n, "async"),
            }
            if "envpool" not in args.skip:
                contenders["envpool"] = partial(cartpole_envpool, n)
            rates = measure(contenders, s, r)
            ours, procs = rates["ours sync (in-process)"], rates["ours workers sync"]
            aprocs = rates[f"ours workers async (batch {half})"]
            sync, asyn = rates["gymnasium SyncVectorEnv"], rates["gymnasium AsyncVectorEnv"]
            ratio("ours sync / SyncVectorEnv", ours, sync)
            ratio("ours workers sync / AsyncVectorEnv", procs, asyn)
            ratio("ours workers async / AsyncVectorEnv", aprocs, asyn)
            ratio("ours sync / envpool", ours, rates.get("envpool"))
    if "boards" not in args.skip:
        for game in args.games:
            sizes = args.sizes + ([args.board_envs] if game == "connect4" else [])
            for n in sizes:
                print(f"{game}, {n} envs (self-play, random legal moves, observations included)")
                contenders = {
                    "ours vectorised pool": partial(board_ours, game, n),
                    "Python loop over our env": partial(board_python_loop, game, n),
                }
                if game != "gomoku" and "pgx" not in args.skip:
                    contenders["pgx (jax, CPU)"] = partial(board_pgx, game, n)
                rates = measure(contenders, s, r)
                ours = rates["ours vectorised pool"]
                ratio("pool / Python loop", ours, rates["Python loop over our env"])
                ratio("pool / pgx", ours, rates.get("pgx (jax, CPU)"))


if __name__ == "__main__":
    main()
