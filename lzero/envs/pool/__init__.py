"""envpool's interface over every registered env: ``make``, ``make_gym``, ``make_gymnasium``,
``make_dm``, ``make_spec``, ``list_all_envs``.

A task id is a board game of ``ENV_REGISTRY`` (stepped by the vectorised numba backend), any
other registered env (a ``BaseEnv``, adapted), or a gymnasium id. gymnasium's classic-control
ids (CartPole, MountainCar, MountainCarContinuous, Pendulum, Acrobot) run in numba kernels
that reproduce gymnasium's envs bit for bit, unless worker processes or gymnasium keyword
arguments are asked for (then, as any other gymnasium id, gymnasium's own envs are stepped)::

    pool = make("connect4", num_envs=1024, battle_mode="play_with_bot_mode")
    pool = make("CartPole-v1", num_envs=1024)                 # one numba call per step
    pool = make("LunarLander-v3", num_envs=8, batch_size=4)  # async, worker processes
    pool = make_gym("CartPole-v1", num_envs=8)  # envpool >= 0.7: (obs, info), 5-tuple steps

``make`` without ``env_type`` keeps the old gym API (``reset -> obs``, ``step -> obs, reward,
done, info``; ``env_type='gym_legacy'``), which our own collectors use; envpool's ``make``
has no default, and its ``'gym'`` is gymnasium's API, as ours.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import gymnasium
import numpy as np

from lzero import __version__
from lzero.envs.classic_control.stepper import TASKS as CLASSIC_TASKS
from lzero.envs.config import unknown_name_message
from lzero.envs.env_manager.base_env_manager import DEFAULT_CONTEXT
from lzero.envs.pool.adapters import BaseEnvAdapter, make_gymnasium_env
from lzero.envs.pool.api_types import GymnasiumEnvPool
from lzero.envs.pool.board_pool import BoardBackend, is_board_game, probe_vectorisable
from lzero.envs.pool.classic_backend import ClassicBackend
from lzero.envs.pool.env_pool import EnvPool
from lzero.envs.pool.gym_pool import InlineGymBackend, ProcGymBackend
from lzero.envs.pool.spec import ArraySpec, Config, EnvSpec, env_seeds
from lzero.envs.registry import ENV_REGISTRY
from lzero.envs.wrappers.legacy import LEGACY_GYM_IDS
from lzero.utils.nbrng import make_rng_state

try:  # dm_env's pool needs the dm-env package (the dm extra); make_dm says so without it
    from lzero.envs.pool.dm_api import DMEnvPool
except ImportError:
    DMEnvPool = None

#: 'gym' and 'gymnasium' are the same API, as in envpool >= 0.7; 'gym_legacy' is envpool's
#: 'gym' before 0.7 (and our ``make``'s default); 'dm' needs the dm-env package.
ENV_TYPES = ("gym_legacy", "gym", "gymnasium", "dm")


def list_all_envs() -> list[str]:
    """The task ids ``make`` knows: registered envs, then gymnasium's registry (some of
    those need packages not installed here, MuJoCo's for instance; envpool's Box2D ``-v2``
    ids are taken too, as their ``-v3``)."""
    return sorted(ENV_REGISTRY.names()) + sorted(gymnasium.registry)


def _positive(name: str, value: Any, *, allow_none: bool = False, allow_zero: bool = False) -> None:
    if value is None and allow_none:
        return
    lowest = 0 if allow_zero else 1
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lowest:
        kind = "a non-negative int" if allow_zero else "a positive int"
        raise ValueError(
            f"{name}: expected {kind}{' or None' if allow_none else ''}, got {value!r}"
        )


def _resolve(task_id: str, env_kwargs: dict, max_episode_steps):
    """``(kind, factory_or_class, limit)`` for a task id; kind 'board', 'registry' or 'gymnasium'."""
    if task_id in ENV_REGISTRY:
        env_cls = ENV_REGISTRY.get(task_id)
        if is_board_game(env_cls):
            return "board", env_cls, max_episode_steps
        return (
            "registry",
            functools.partial(BaseEnvAdapter.build, env_cls, dict(env_kwargs)),
            max_episode_steps,
        )
    if task_id in gymnasium.registry:
        limit = max_episode_steps or gymnasium.spec(task_id).max_episode_steps
        return "gymnasium", functools.partial(make_gymnasium_env, task_id, dict(env_kwargs)), limit
    listing = "lzero.envs.list_all_envs() lists them all."
    raise KeyError(unknown_name_message("task id", task_id, list_all_envs(), listing=listing))


def make(
    task_id: str,
    env_type: str = "gym_legacy",
    num_envs: int = 1,
    batch_size: int | None = None,
    num_threads: int | None = None,
    seed: int = 42,
    max_episode_steps: int | None = None,
    **env_kwargs: Any,
) -> EnvPool:
    """Makes a pool of ``num_envs`` envs of ``task_id``, as ``envpool.make`` does.

    Args:
        task_id: a name from :func:`list_all_envs`.
        env_type: 'gym' or 'gymnasium' (``reset -> (obs, info)``, ``step -> obs, reward,
            terminated, truncated, info``, a ``gymnasium.vector.VectorEnv``), 'dm' (dm_env
            ``TimeStep``s; needs dm-env) or 'gym_legacy' (``reset -> obs``, ``step -> obs,
            reward, done, info``: envpool's 'gym' before 0.7).
        num_envs: envs in the pool.
        batch_size: envs per ``recv``; None, 0 (envpool's default) or ``num_envs`` is sync
            mode.
        num_threads: gym tasks only: worker processes (0: step in this process). None picks
            this process in sync mode, else one worker per core (at most ``num_envs``).
            Board games always run in one numba call in this process, and so do the
            classic-control ids with None or 0 (1 or more: gymnasium's own envs in that
            many worker processes).
        seed: env ``i`` is seeded with ``seed + i``; or a sequence of ``num_envs`` seeds,
            one per env.
        max_episode_steps: truncate episodes after this many steps (None: the task's own).
        **env_kwargs: envpool's ``max_num_players``, ``thread_affinity_offset``,
            ``gym_reset_return_info`` and ``reward_threshold`` (see :func:`_envpool_options`),
            then the env's config (board games: ``battle_mode``, ``bot_action_type``...;
            gymnasium ids: keyword arguments of ``gymnasium.make``).

    Raises:
        KeyError: unknown task id (names the closest).
        ValueError: a size, seed or ``env_type`` out of range, or one of envpool's options
            at a value this pool cannot honour.
        ConfigError: an env config key the env does not have.
        ImportError: ``env_type='dm'`` without the dm-env package.
    """
    spec, backend_factory = _spec_and_backend(
        task_id, env_type, num_envs, batch_size, num_threads, seed, max_episode_steps, env_kwargs
    )
    if env_type == "dm":
        from lzero.envs.pool.dm_api import DMEnvPool as pool_cls
    else:
        pool_cls = GymnasiumEnvPool if env_type in ("gym", "gymnasium") else EnvPool
    return pool_cls(backend_factory(), spec)


def make_gym(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type='gym', **kwargs)``: gymnasium's API, as envpool >= 0.7."""
    return make(task_id, env_type="gym", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> DMEnvPool:
    """``make(task_id, env_type='dm', **kwargs)``, as ``envpool.make_dm`` (needs dm-env)."""
    return make(task_id, env_type="dm", **kwargs)


def make_gymnasium(task_id: str, **kwargs: Any) -> GymnasiumEnvPool:
    """``make(task_id, env_type='gymnasium', **kwargs)``, as ``envpool.make_gymnasium``."""
    return make(task_id, env_type="gymnasium", **kwargs)


def make_spec(
    task_id: str,
    env_type: str = "gym_legacy",
    num_envs: int = 1,
    batch_size: int | None = None,
    num_threads: int | None = None,
    seed: int = 42,
    max_episode_steps: int | None = None,
    **env_kwargs: Any,
) -> EnvSpec:
    """The :class:`EnvSpec` of ``make`` with the same arguments, without making the pool.

    One env is built to read its spaces (and checks the env config).
    """
    return _spec_and_backend(
        task_id, env_type, num_envs, batch_size, num_threads, seed, max_episode_steps, env_kwargs
    )[0]


#: envpool's general ``make`` arguments besides ours, with their defaults (its
#: ``spec.config``): taken at these values, or as described in :func:`_envpool_options`.
#: ``gym_reset_return_info``'s default is the pool's API: False for 'gym_legacy', else True.
ENVPOOL_OPTIONS = dict(
    max_num_players=1, thread_affinity_offset=-1, gym_reset_return_info=None, reward_threshold=None,
    render_env_id=0,
)  # fmt: skip
#: envpool's render size and camera: taken only at None (and the camera at 0): frames come at
#: the task's own size, from its one view.
RENDER_SIZE_OPTIONS = ("render_width", "render_height", "render_camera_id")


def _envpool_options(env_kwargs: dict, env_type: str) -> dict:
    """Takes envpool's general ``make`` arguments out of ``env_kwargs`` and checks them.

    ``thread_affinity_offset`` pins envpool's threads to cores; here there is no thread pool
    (numba calls in this process, or worker processes), so any int is taken and does nothing.
    ``reward_threshold`` sets ``spec.reward_threshold``. ``max_num_players`` must be 1 (no task
    here steps several players' actions at once). ``gym_reset_return_info`` says whether
    ``reset`` returns ``(obs, info)``: True for 'gym', 'gymnasium' and 'dm' (envpool 1.2's
    default, where False is refused), False for 'gym_legacy' (``reset -> obs``).
    """
    options = {key: env_kwargs.pop(key, default) for key, default in ENVPOOL_OPTIONS.items()}
    mode = env_kwargs.get("render_mode")
    if mode not in (None, "rgb_array", "human"):
        raise ValueError(f"render_mode: expected None, 'rgb_array' or 'human', got {mode!r}")
    for key in RENDER_SIZE_OPTIONS:
        value = env_kwargs.pop(key, None)
        if value is not None and not (key == "render_camera_id" and value == 0):
            raise ValueError(
                f"{key}: expected None (frames come at the task's own size and camera, as "
                f"gymnasium renders them; resize them yourself), got {value!r}"
            )
    with_info = env_type != "gym_legacy"  # reset -> (obs, info)
    if options["gym_reset_return_info"] is None:
        options["gym_reset_return_info"] = with_info
    if options["gym_reset_return_info"] is not with_info:
        why = (
            "reset returns (obs, info), as in envpool 1.2, which refuses False; "
            "env_type='gym_legacy' returns obs alone"
            if with_info
            else "reset returns obs; env_type='gym' or 'gymnasium' returns (obs, info)"
        )
        raise ValueError(
            f"gym_reset_return_info: expected {with_info} for env_type={env_type!r} ({why}), "
            f"got {options['gym_reset_return_info']!r}"
        )
    offset = options["thread_affinity_offset"]
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)):
        raise ValueError(f"thread_affinity_offset: expected an int, got {offset!r}")
    if options["max_num_players"] != 1:
        raise ValueError(
            f"max_num_players: expected 1 (every task here takes one action per env and "
            f"step), got {options['max_num_players']!r}"
        )
    threshold = options["reward_threshold"]
    if threshold is not None and (
        isinstance(threshold, bool) or not isinstance(threshold, (int, float, np.number))
    ):
        raise ValueError(f"reward_threshold: expected a number or None, got {threshold!r}")
    return options


def _spec_and_backend(
    task_id, env_type, num_envs, batch_size, num_threads, seed, max_episode_steps, env_kwargs
):
    """Checks ``make``'s arguments; returns the spec and a factory of the pool's backend."""
    env_kwargs = dict(env_kwargs)
    if env_type not in ENV_TYPES:
        raise ValueError(f"env_type: expected one of {list(ENV_TYPES)}, got {env_type!r}")
    options = _envpool_options(env_kwargs, env_type)
    _positive("num_envs", num_envs)
    rid = options["render_env_id"]
    if isinstance(rid, bool) or not isinstance(rid, (int, np.integer)) or not 0 <= rid < num_envs:
        raise ValueError(f"render_env_id: expected an env id in [0, {num_envs}), got {rid!r}")
    _positive("batch_size", batch_size, allow_none=True, allow_zero=True)
    _positive("num_threads", num_threads, allow_none=True, allow_zero=True)
    # Python ints: a NumPy integer would reach gymnasium's seeding, which wants an int.
    seeds = env_seeds(seed, num_envs)
    seed = int(seed) if isinstance(seed, (int, np.integer)) else tuple(seeds)
    _positive("max_episode_steps", max_episode_steps, allow_none=True)
    batch_size = num_envs if batch_size is None or batch_size == 0 else int(batch_size)
    if batch_size > num_envs:
        raise ValueError(f"batch_size: expected at most num_envs={num_envs}, got {batch_size}")
    if task_id not in ENV_REGISTRY and task_id not in gymnasium.registry:
        # envpool's Box2D v2 ids (LunarLander-v2, ...): gymnasium 1.x has only their v3.
        task_id = LEGACY_GYM_IDS.get(task_id, task_id)
    kind, target, limit = _resolve(task_id, env_kwargs, max_episode_steps)
    if kind == "gymnasium" and task_id in CLASSIC_TASKS and not env_kwargs and not num_threads:
        threads, probe = 0, target()  # the spaces are gymnasium's own

        def factory():
            return ClassicBackend(task_id, num_envs, seeds, limit or 0, probe.action_space)

    elif kind == "board":
        threads = 0
        probe = probe_vectorisable(target, env_kwargs)  # as make's backend will

        def factory():
            backend = BoardBackend(target, num_envs, seeds[0], limit, env_kwargs)
            if seeds != list(range(seeds[0], seeds[0] + num_envs)):  # a seed sequence
                # BoardBackend seeds env i from seed + i; its per-env generator seeds are
                # replaced here, before any reset.
                backend.seed_states[:, 0] = [make_rng_state(s)[0] for s in seeds]
            return backend
    else:
        if num_threads is None:
            num_threads = 0 if batch_size == num_envs else min(num_envs, os.cpu_count() or 1)
        threads = min(num_threads, num_envs)
        probe = target()
        example, _ = probe.reset(seed=seeds[0])
        probe.close()
        args = (target, num_envs, seeds, limit or 0, example, probe.action_space)

        def factory():
            if threads == 0:
                return InlineGymBackend(*args)
            return ProcGymBackend(*args, num_workers=threads, context=DEFAULT_CONTEXT)

    if env_type == "dm":
        import lzero.envs.pool.dm_api  # noqa: F401  (raises the ImportError without dm-env)
    reward_threshold = options["reward_threshold"]
    if reward_threshold is None and kind == "gymnasium":
        reward_threshold = gymnasium.spec(task_id).reward_threshold
    options["reward_threshold"] = reward_threshold
    config = Config(
        task_id=task_id,
        env_type=env_type,
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=threads,
        seed=seed,
        max_episode_steps=limit,
        **options,
        **env_kwargs,
    )
    spec = EnvSpec(
        task_id,
        env_type,
        num_envs,
        batch_size,
        threads,
        seed,
        limit,
        probe.observation_space,
        probe.action_space,
        config,
        reward_threshold,
    )
    return spec, factory


__all__ = [
    # envpool's public order (its typing test reads it as a subsequence).
    "EnvSpec",
    "EnvPool",
    *(["DMEnvPool"] if DMEnvPool is not None else []),
    "GymnasiumEnvPool",
    "ArraySpec",
    "__version__",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
]
