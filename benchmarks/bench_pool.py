"""Env steps per second of our pool against gymnasium's vector envs, envpool and pgx, in one run.

Classic control (``CartPole-v1``, ``MountainCar-v0``, ``MountainCarContinuous-v0``,
``Pendulum-v1``, ``Acrobot-v1``; random actions): our pool (numba kernels, one call per step)
against gymnasium's own vectorised env where gymnasium has one (``make_vec(...,
vectorization_mode="vector_entry_point")``: CartPole's NumPy ``CartPoleVectorEnv``; its
``phys2d`` JAX envs need flax and are tried), gymnasium's ``SyncVectorEnv``, and envpool with
``num_threads`` pinned to 1 and to 2 (both printed; the ratio is against the faster). Every
contender steps the same pre-generated action arrays (`[64, N]`, cycled), so no side pays for
sampling. CartPole also gets our worker-process pool (``num_threads=2``, gymnasium's envs in
workers) and, up to 64 envs, gymnasium's ``AsyncVectorEnv`` (one process per env). One zoo
env (LightZero's wrappers) over the numba kernel against the same env over gymnasium's.

Board games (self-play, random legal moves, observations included): the vectorised numba
pool against a Python loop over our single env, and against pgx (``tic_tac_toe``,
``connect_four``) where installed. pgx is measured at its best: one fused jitted function per
step (keys split, a random legal action sampled, ``auto_reset(step, init)`` vmapped, the state
buffers donated), dispatched without blocking; every window is timed until its last step has
finished. Our pool picks a random legal action per env each step (a numba sampler),
produces every observation and auto-resets.

Each figure is the best (and the median) of ``--repeats`` windows of ``--seconds`` each, the
contenders taking turns window by window, so that other load on a shared machine hurts every
contender alike; ratios use the best, the median ratio is printed beside. The load average
is printed with every block.

Usage: python benchmarks/bench_pool.py [--seconds 0.3] [--repeats 5] [--sizes 256 1024]
    [--ids CartPole-v1 ...] [--board-sizes 64 256] [--board-envs 1024]
    [--games tictactoe connect4 gomoku] [--skip classic single boards pgx envpool]
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


# ---------------------------------------------------------------------------------- classic
CLASSIC_IDS = [
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
]
CONTINUOUS = {"MountainCarContinuous-v0": 1.0, "Pendulum-v1": 2.0}  # id -> max |action|


def action_arrays(task_id: str, n: int) -> np.ndarray:
    """The actions every contender steps: `[64, n]` int64, or `[64, n, 1]` float32."""
    rng = np.random.default_rng(0)
    if task_id in CONTINUOUS:
        high = CONTINUOUS[task_id]
        return rng.uniform(-high, high, (64, n, 1)).astype(np.float32)
    return rng.integers(0, 2 if "CartPole" in task_id else 3, (64, n))


def actions_runner(step, acts: np.ndarray, finish=None):
    """``run(deadline)`` calling ``step(acts[t % 64])`` until the deadline (then ``finish``)."""
    n = acts.shape[1]

    def run(deadline):
        steps, t = 0, 0
        while time.perf_counter() < deadline:
            step(acts[t % 64])
            steps, t = steps + n, t + 1
        if finish is not None:
            finish()
        return steps

    return run


def classic_ours(task_id: str, n: int, *, batch_size=None, num_threads=None):
    from lzero.envs import make

    pool = make(task_id, num_envs=n, batch_size=batch_size, num_threads=num_threads)
    acts = action_arrays(task_id, n)
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
    return actions_runner(pool.step, acts), pool.close


def classic_gymnasium(task_id: str, n: int, kind: str):
    import gymnasium

    if kind in ("vector", "phys2d"):
        gid = (
            task_id
            if kind == "vector"
            else {"CartPole-v1": "phys2d/CartPole-v1", "Pendulum-v1": "phys2d/Pendulum-v0"}[task_id]
        )
        try:
            env = gymnasium.make_vec(gid, num_envs=n, vectorization_mode="vector_entry_point")
        except ModuleNotFoundError as err:  # phys2d needs flax
            raise ImportError(str(err), name=err.name) from err
    else:
        cls = gymnasium.vector.SyncVectorEnv if kind == "sync" else gymnasium.vector.AsyncVectorEnv
        env = cls([lambda: gymnasium.make(task_id) for _ in range(n)])
    obs, _ = env.reset(seed=0)
    finish = getattr(obs, "block_until_ready", None)  # JAX arrays: wait for the last step
    return actions_runner(env.step, action_arrays(task_id, n), finish), env.close


def classic_envpool(task_id: str, n: int, num_threads: int):
    import envpool

    env = envpool.make(
        task_id, env_type="gymnasium", num_envs=n, batch_size=n, num_threads=num_threads
    )
    env.reset()
    return actions_runner(env.step, action_arrays(task_id, n)), env.close


ZOO_ENVS = {  # gymnasium id -> (zoo type, its module)
    "CartPole-v0": ("cartpole_lightzero", "zoo.classic_control.cartpole.envs.cartpole_lightzero_env"),
    "MountainCar-v0": ("mountain_car_lightzero", "zoo.classic_control.mountain_car.envs.mtcar_lightzero_env"),
    "Pendulum-v1": ("pendulum_lightzero", "zoo.classic_control.pendulum.envs.pendulum_lightzero_env"),
    "Acrobot-v1": ("acrobot_lightzero", "zoo.classic_control.acrobot.envs.acrobot_lightzero_env"),
}  # fmt: skip


def zoo_single(task_id: str, classic_kernels: bool):
    """One zoo env (LightZero's wrappers, ``BaseEnv`` steps) over the kernel or gymnasium's env."""
    from lzero.envs import create_env

    name, module = ZOO_ENVS[task_id]
    env = create_env(dict(type=name, import_names=[module]), {"classic_kernels": classic_kernels})
    env.seed(0)
    env.reset()
    acts = action_arrays(task_id, 1)[:, 0]

    def run(deadline):
        steps = 0
        while time.perf_counter() < deadline:
            for a in acts:
                if env.step(a).done:
                    env.reset()
            steps += acts.shape[0]
        return steps

    return run, env.close


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
    """Steps per second of each contender, interleaving their windows round by round.

    Args:
        contenders: ``label -> factory``; a factory returns ``(run, close)`` where
            ``run(deadline) -> steps`` steps until the deadline.

    Returns:
        ``label -> (best, median)`` steps/s over ``repeats`` windows (None for a contender
        whose library is not installed).
    """
    runs, rates = {}, {}
    for label, factory in contenders.items():
        try:
            runs[label] = factory()
        except ImportError as err:
            print(f"  {label:<40} skipped ({err.name} not installed)")
            rates[label] = None
            continue
        runs[label][0](time.perf_counter() + min(0.2, seconds))  # warm-up: jit, first resets
        rates[label] = []
    try:
        for _ in range(repeats):
            for label, (run, _) in runs.items():
                # Timed until run returns: pgx's asynchronous dispatch finishes its queued
                # steps (its block) inside the window it is credited for.
                start = time.perf_counter()
                steps = run(start + seconds)
                rates[label].append(steps / (time.perf_counter() - start))
    finally:
        for _, close in runs.values():
            close()
    for label in runs:
        rates[label] = (max(rates[label]), float(np.median(rates[label])))
        best, med = rates[label]
        print(f"  {label:<40} {best:>14,.0f} steps/s (median {med:>13,.0f})", flush=True)
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return rates


def ratio(label: str, ours, peer) -> float | None:
    """Prints and returns ``ours / peer`` (best over best; the medians' ratio beside)."""
    if not (ours and peer):
        return None
    print(f"  -> {label}: {ours[0] / peer[0]:.2f}x (medians {ours[1] / peer[1]:.2f}x)")
    return ours[0] / peer[0]


def faster(*rates):
    """The better of some contenders' ``(best, median)`` (by best), or None."""
    rates = [r for r in rates if r]
    return max(rates, key=lambda r: r[0]) if rates else None


def settings_line(args) -> str:
    import gymnasium
    import numba

    versions = [
        f"numpy {np.__version__}",
        f"numba {numba.__version__}",
        f"gymnasium {gymnasium.__version__}",
    ]
    for mod in ("envpool", "jax", "pgx"):
        try:
            versions.append(f"{mod} {__import__(mod).__version__}")
        except ImportError:
            versions.append(f"{mod} not installed")
    return (
        f"settings: {args.repeats} windows of {args.seconds} s per contender, interleaved; "
        f"{os.cpu_count()} cores; " + ", ".join(versions)
    )


def bench_classic(args) -> None:
    s, r = args.seconds, args.repeats
    for task_id in args.ids:
        for n in args.sizes:
            print(f"{task_id}, {n} envs (random actions, pre-generated)")
            contenders = {"ours (numba pool)": partial(classic_ours, task_id, n)}
            if task_id == "CartPole-v1":
                contenders["gymnasium make_vec vector_entry_point"] = partial(
                    classic_gymnasium, task_id, n, "vector"
                )
            if task_id in ("CartPole-v1", "Pendulum-v1"):
                contenders["gymnasium make_vec phys2d (jax)"] = partial(
                    classic_gymnasium, task_id, n, "phys2d"
                )
            contenders["gymnasium SyncVectorEnv"] = partial(classic_gymnasium, task_id, n, "sync")
            if "envpool" not in args.skip:
                for k in (1, 2):
                    contenders[f"envpool num_threads={k}"] = partial(classic_envpool, task_id, n, k)
            if task_id == "CartPole-v1" and n <= 256:
                half = max(1, n // 2)
                contenders["ours workers sync (num_threads=2)"] = partial(
                    classic_ours, task_id, n, num_threads=2
                )
                contenders[f"ours workers async (batch {half})"] = partial(
                    classic_ours, task_id, n, batch_size=half, num_threads=2
                )
                if n <= 64:
                    contenders["gymnasium AsyncVectorEnv"] = partial(
                        classic_gymnasium, task_id, n, "async"
                    )
            rates = measure(contenders, s, r)
            ours = rates["ours (numba pool)"]
            ratio(
                "ours / gymnasium vector env",
                ours,
                rates.get("gymnasium make_vec vector_entry_point"),
            )
            ratio(
                "ours / gymnasium phys2d (jax)", ours, rates.get("gymnasium make_vec phys2d (jax)")
            )
            ratio("ours / SyncVectorEnv", ours, rates["gymnasium SyncVectorEnv"])
            envpool_best = faster(
                rates.get("envpool num_threads=1"), rates.get("envpool num_threads=2")
            )
            ratio("ours / envpool (its faster num_threads)", ours, envpool_best)
            if "gymnasium AsyncVectorEnv" in rates:
                ratio(
                    "ours workers sync / AsyncVectorEnv",
                    rates["ours workers sync (num_threads=2)"],
                    rates["gymnasium AsyncVectorEnv"],
                )


def bench_single(args) -> None:
    for task_id in ZOO_ENVS:
        print(f"{task_id}: one zoo env (LightZero wrappers, random actions)")
        rates = measure(
            {
                "numba kernel inside": partial(zoo_single, task_id, True),
                "gymnasium's env inside": partial(zoo_single, task_id, False),
            },
            args.seconds,
            args.repeats,
        )
        ratio(
            "kernel / gymnasium's env",
            rates["numba kernel inside"],
            rates["gymnasium's env inside"],
        )


def bench_boards(args) -> None:
    s, r = args.seconds, args.repeats
    for game in args.games:
        sizes = args.board_sizes + ([args.board_envs] if game == "connect4" else [])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024])
    parser.add_argument(
        "--ids", nargs="+", default=CLASSIC_IDS, choices=CLASSIC_IDS + ["CartPole-v0"]
    )
    parser.add_argument("--board-sizes", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--board-envs", type=int, default=1024, help="extra Connect4 size vs pgx")
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["classic", "single", "boards", "pgx", "envpool"]
    )
    parser.add_argument("--games", nargs="+", default=["tictactoe", "connect4", "gomoku"])
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
