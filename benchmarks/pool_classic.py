"""Classic-control contenders of ``bench_pool.py``: our numba pool, gymnasium's vector envs,
envpool, and one zoo env over the kernel or over gymnasium's env."""

from __future__ import annotations

import time
from functools import partial

import gymnasium
import numpy as np
from pool_timing import faster, measure, ratio

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


def async_runner(pool, acts: np.ndarray):
    """``run(deadline)`` of an async pool (ours or envpool, the same loop for both):
    ``async_reset``, then ``recv`` a batch and ``send`` its actions until the deadline."""
    pool.async_reset()

    def run(deadline):
        steps, t = 0, 0
        while time.perf_counter() < deadline:
            *_, info = pool.recv()
            ids = info["env_id"]
            pool.send(acts[t % 64, : ids.shape[0]], ids)
            steps, t = steps + ids.shape[0], t + 1
        return steps

    return run


def classic_ours(task_id: str, n: int, *, batch_size=None, num_threads=None):
    from lzero.envs import make

    pool = make(task_id, num_envs=n, batch_size=batch_size, num_threads=num_threads)
    acts = action_arrays(task_id, n)
    if pool.is_async:
        return async_runner(pool, acts), pool.close
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


def classic_envpool(task_id: str, n: int, num_threads: int, batch_size: int | None = None):
    """envpool sync (``batch_size`` None: all ``n``), or async with ``batch_size`` < n: its
    documented fast path, ``async_reset`` then ``recv``/``send`` of a batch at a time."""
    import envpool

    batch = n if batch_size is None else batch_size
    env = envpool.make(
        task_id, env_type="gymnasium", num_envs=n, batch_size=batch, num_threads=num_threads
    )
    acts = action_arrays(task_id, n)
    if batch < n:
        return async_runner(env, acts), env.close
    env.reset()
    return actions_runner(env.step, acts), env.close


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


def bench_classic(args) -> None:
    s, r = args.seconds, args.repeats
    for task_id in args.ids:
        for n in args.sizes:
            print(f"{task_id}, {n} envs (random actions, pre-generated)")
            contenders = {"ours (numba pool)": partial(classic_ours, task_id, n)}
            if gymnasium.spec(task_id).vector_entry_point is not None:  # its fastest
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
                if n >= 2:  # with one env, a batch of one is the sync mode above
                    contenders[f"envpool async (batch {n // 2}, num_threads=2)"] = partial(
                        classic_envpool, task_id, n, 2, n // 2
                    )
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
            envpool_rows = [v for k, v in rates.items() if k.startswith("envpool")]
            envpool_best = faster(*envpool_rows) if envpool_rows else None
            ratio(
                "ours / envpool (its fastest row: sync 1 or 2 threads, async)", ours, envpool_best
            )
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
