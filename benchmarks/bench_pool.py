"""Env steps per second of our pool against gymnasium's vector envs, envpool and pgx, in one run.

Classic control (``CartPole-v1``, ``MountainCar-v0``, ``MountainCarContinuous-v0``,
``Pendulum-v1``, ``Acrobot-v1``; random actions): our pool (numba kernels, one call per step)
against gymnasium's own vectorised env where gymnasium has one (``make_vec(...,
vectorization_mode="vector_entry_point")``: CartPole's NumPy ``CartPoleVectorEnv``; its
``phys2d`` JAX envs, flax in the ``bench`` extra), gymnasium's ``SyncVectorEnv``, and envpool in
sync mode with ``num_threads`` pinned to 1 and to 2 and in async mode (half the envs per
batch, 2 threads: its documented fast path), all printed, the ratio against the fastest. Every
contender steps the same pre-generated action arrays (`[64, N]`, cycled), so no side pays for
sampling. CartPole also gets our worker-process pool (``num_threads=2``, gymnasium's envs in
workers) and, up to 64 envs, gymnasium's ``AsyncVectorEnv`` (one process per env). One zoo
env (LightZero's wrappers) over the numba kernel against the same env over gymnasium's.

Board games (self-play, random legal moves, observations included): the vectorised numba
pool against a Python loop over our single env, and against pgx (``tic_tac_toe``,
``connect_four``) where installed. pgx is measured at its best: one fused jitted function per
step (keys split, a random legal action sampled, ``auto_reset(step, init)`` vmapped, the state
buffers donated), dispatched without blocking; every window is timed until its last step has
finished. pgx also runs 16 such steps per call in a ``jax.lax.scan`` (their observations
stacked, as a scanned rollout keeps them); the ratios are against the faster pgx row. Both sides sample alike: one uniform draw per env, then its k-th legal action (ours
in numba, pgx's in the jitted step). Our pool produces every observation and auto-resets;
it is timed dropping each step's observations (it then writes its own arrays again) and
keeping the last 50 steps' (new arrays each step, as a collector keeping its games pays).

Each figure is the best (and the median) of ``--repeats`` windows of ``--seconds`` each, the
contenders taking turns window by window, so that other load on a shared machine hurts every
contender alike; ratios use the best, the median ratio is printed beside. The load average
is printed with every block.

Usage: python benchmarks/bench_pool.py [--seconds 0.3] [--repeats 5] [--sizes 256 1024]
    [--ids CartPole-v1 ...] [--board-sizes 64 256] [--board-envs 1024]
    [--games tictactoe connect4 gomoku] [--skip classic single boards pgx envpool]
"""

from __future__ import annotations

import os
import time
import warnings
from functools import partial

import numpy as np
from bench_args import positive_float, positive_int, script_parser
from numba import njit
from pool_classic import CLASSIC_IDS, bench_classic, bench_single
from pool_timing import faster, measure, ratio, settings_line

warnings.filterwarnings("ignore")

#: Steps a scanned pgx rollout runs per jitted call (its observations all kept).
PGX_SCAN = 16
#: The board games of the pool; pgx has the first two.
BOARD_GAMES = ["tictactoe", "connect4", "gomoku"]


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


# ---------------------------------------------------------------------------------- boards
def board_ours(game: str, n: int, keep: int = 0):
    """Our pool; with ``keep`` the last ``keep`` steps' observations stay referenced, as a
    collector keeps its games, so the pool makes new arrays instead of writing its own."""
    from lzero.envs import make

    pool = make(game, num_envs=n, **({"board_size": 15} if game == "gomoku" else {}))
    obs = pool.reset()
    actions = np.zeros(n, np.int64)
    state = np.array([12345], np.uint64)
    mask = obs["action_mask"]

    kept: list = []

    def run(deadline):
        nonlocal mask
        steps = 0
        while time.perf_counter() < deadline:
            random_legal(mask, actions, state)
            obs = pool.step(actions)[0]
            mask = obs["action_mask"]
            if keep:
                kept.append(obs)
                if len(kept) > keep:
                    del kept[0]
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


def board_pgx(game: str, n: int, scan: int = 0):
    """pgx at its best: one fused jitted call per step (split keys, sample a random legal
    action, vmapped ``auto_reset(step, init)``), dispatched asynchronously; the caller blocks
    once at the end of each timed window (``measure`` times until ``run`` returns). With
    ``scan`` k, one jitted call runs k such steps in a ``jax.lax.scan`` and returns their
    observations stacked `[k, n, ...]`, as a scanned rollout keeps them."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make({"tictactoe": "tic_tac_toe", "connect4": "connect_four"}[game])
    step_all = jax.vmap(auto_reset(env.step, env.init))

    @partial(jax.jit, donate_argnums=(0,))
    def step(state, key):
        key, k_act, k_reset = jax.random.split(key, 3)
        # Our sampler (random_legal): one uniform draw per env, the k-th legal action.
        mask = state.legal_action_mask.astype(jnp.int32)
        count = jnp.maximum(mask.sum(axis=-1), 1)
        k = jnp.floor(jax.random.uniform(k_act, (n,)) * count).astype(jnp.int32)
        action = jnp.argmax(jnp.cumsum(mask, axis=-1) > k[:, None], axis=-1)
        return step_all(state, action, jax.random.split(k_reset, n)), key

    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), n))
    key = jax.random.PRNGKey(1)
    if scan:

        @partial(jax.jit, donate_argnums=(0,))
        def rollout(state, key):
            def body(carry, _):
                state, key = step.__wrapped__(*carry)
                return (state, key), state.observation

            return jax.lax.scan(body, (state, key), None, length=scan)

        def run(deadline):
            nonlocal state, key
            steps, kept = 0, None
            while time.perf_counter() < deadline:
                (state, key), kept = rollout(state, key)
                steps += n * scan
            kept.block_until_ready()
            return steps

        return run, lambda: None

    def run(deadline):
        nonlocal state, key
        steps = 0
        while time.perf_counter() < deadline:
            state, key = step(state, key)
            steps += n
        state.observation.block_until_ready()
        return steps

    return run, lambda: None


def bench_boards(args) -> None:
    s, r = args.seconds, args.repeats
    for game in args.games:
        sizes = args.board_sizes + ([args.board_envs] if game == "connect4" else [])
        for n in sizes:
            print(f"{game}, {n} envs (self-play, random legal moves, observations included)")
            contenders = {
                "ours vectorised pool": partial(board_ours, game, n),
                "ours, observations kept": partial(board_ours, game, n, keep=50),
                "Python loop over our env": partial(board_python_loop, game, n),
            }
            if game != "gomoku" and "pgx" not in args.skip:
                contenders["pgx (jax, CPU)"] = partial(board_pgx, game, n)
                contenders[f"pgx, lax.scan of {PGX_SCAN} steps"] = partial(
                    board_pgx, game, n, PGX_SCAN
                )
            rates = measure(contenders, s, r)
            ours = rates["ours vectorised pool"]
            kept = rates["ours, observations kept"]
            pgx_best = faster(
                rates.get("pgx (jax, CPU)"), rates.get(f"pgx, lax.scan of {PGX_SCAN} steps")
            )
            ratio("pool / Python loop", ours, rates["Python loop over our env"])
            ratio("pool / pgx's faster row", ours, pgx_best)
            ratio("pool, observations kept / pgx's faster row", kept, pgx_best)


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--seconds", type=positive_float, default=0.3, help="length of each timed window"
    )
    parser.add_argument(
        "--repeats", type=positive_int, default=5, help="timed windows per contender"
    )
    parser.add_argument(
        "--sizes", type=positive_int, nargs="+", default=[256, 1024], help="classic-control envs"
    )
    parser.add_argument(
        "--ids",
        nargs="+",
        default=CLASSIC_IDS,
        choices=CLASSIC_IDS + ["CartPole-v0"],
        help="classic-control tasks",
    )
    parser.add_argument(
        "--board-sizes", type=positive_int, nargs="+", default=[64, 256], help="board-game envs"
    )
    parser.add_argument(
        "--board-envs", type=positive_int, default=1024, help="extra Connect4 size vs pgx"
    )
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=["classic", "single", "boards", "pgx", "envpool"],
        help="parts (classic, single, boards) or peers (pgx, envpool) left out",
    )
    parser.add_argument(
        "--games", nargs="+", default=BOARD_GAMES, choices=BOARD_GAMES, help="board games"
    )
    args = parser.parse_args()
    print(settings_line(args))
    print(f"(load average {os.getloadavg()[0]:.1f} at the start)")
    if "classic" not in args.skip:
        bench_classic(args)
    if "single" not in args.skip:
        bench_single(args)
    if "boards" not in args.skip:
        bench_boards(args)


if __name__ == "__main__":
    main()
