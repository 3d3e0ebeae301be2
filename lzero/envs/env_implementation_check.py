"""DI-engine's env checks under their names (``ding.envs.env.env_implementation_check``):
``check_all``, ``check_space_dtype``, ``check_array_space``, ``check_reset``, ``check_step``,
``check_different_memory``, ``check_obs_deepcopy``, ``demonstrate_correct_procedure``.

They raise :class:`~lzero.errors.EnvCheckError` (an ``AssertionError``, as DI-engine's
asserts) with "expected X, got Y", and print nothing. Where ours differ: steps take a random
*legal* action each time (DI-engine repeats one, which a board game refuses), loops stop after
``max_steps``, observation dicts may hold LightZero's int ``to_play`` and a continuous env's
``action_mask=None``, and lazy init means ``env._env`` is absent or None before ``reset``.
:func:`lzero.envs.check_env` checks the fuller contract (seeding, aliasing, reward dtype).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from lzero.envs.env_checker import SCALAR_KEYS, random_legal_action
from lzero.envs.utils import seed_env
from lzero.errors import EnvCheckError


def check_space_dtype(env: Any) -> None:
    """Float spaces are float32 and integer spaces int64 (obs, action and reward spaces)."""
    env.reset()
    for name, space in (("obs", env.observation_space), ("act", env.action_space)) + (
        ("rew", env.reward_space),
    ):
        dtype = getattr(space, "dtype", None)
        if dtype is None:
            continue
        for kind, want in (("f", np.float32), ("iu", np.int64)):
            if np.dtype(dtype).kind in kind and dtype != want:
                raise EnvCheckError(
                    f"{name} space: expected dtype {np.dtype(want).name}, got {np.dtype(dtype).name}"
                )


def check_array_space(data: Any, space: Any, name: str) -> None:
    """``data`` (an array, or a sequence or dict of them) lies in ``space`` (a space, or a
    list or dict of spaces), with the space's dtype and shape.

    Raises:
        EnvCheckError: a dtype, shape or value outside the space, naming ``name`` and where.
        TypeError: ``data`` is neither an array nor a sequence or dict of arrays.
    """
    if isinstance(data, np.ndarray):
        _check_one(data, space, name)
    elif isinstance(data, dict):
        for key, value in data.items():
            if (key == "action_mask" and value is None) or (
                key in SCALAR_KEYS and isinstance(value, (int, np.integer))
            ):
                continue
            try:
                sub = space[key]
            except (KeyError, TypeError):
                raise EnvCheckError(f"{name}[{key!r}]: expected a space for it, got none") from None
            check_array_space(value, sub, f"{name}[{key!r}]")
    elif isinstance(data, Sequence) and not isinstance(data, str):
        if len(data) != len(space):
            raise EnvCheckError(f"{name}: expected {len(space)} items, got {len(data)}")
        for i, value in enumerate(data):
            check_array_space(value, space[i], f"{name}[{i}]")
    else:
        raise TypeError(
            f"{name}: expected an np.ndarray or a sequence or dict of them, got {type(data).__name__}"
        )


def _check_one(data: np.ndarray, space: Any, name: str) -> None:
    if data.dtype != space.dtype:
        raise EnvCheckError(f"{name}: expected dtype {space.dtype}, got {data.dtype}")
    if data.shape != tuple(space.shape):
        raise EnvCheckError(f"{name}: expected shape {tuple(space.shape)}, got {data.shape}")
    if isinstance(space, spaces.Box):
        ok = bool((space.low <= data).all() and (data <= space.high).all())
        where = f"[{space.low}, {space.high}]"
    elif isinstance(space, spaces.Discrete):
        lo = int(space.start)
        ok, where = bool(lo <= data < lo + int(space.n)), f"[{lo}, {lo + int(space.n)})"
    elif isinstance(space, spaces.MultiDiscrete):
        ok, where = bool(((data >= 0) & (data < space.nvec)).all()), f"[0, {space.nvec})"
    elif isinstance(space, spaces.MultiBinary):
        ok, where = bool(np.isin(data, (0, 1)).all()), "{0, 1}"
    else:
        ok, where = space.contains(data), str(space)
    if not ok:
        raise EnvCheckError(f"{name}: expected values in {where}, got {data}")


def check_reset(env: Any) -> None:
    """``reset()``'s observation lies in ``observation_space``."""
    check_array_space(env.reset(), env.observation_space, "obs")


def _steps(env: Any, episodes: int, max_steps: int, on_step: Callable) -> None:
    rng = np.random.default_rng(0)
    obs, done_times = env.reset(), 0
    for t in range(max_steps):
        timestep = env.step(random_legal_action(env, obs, rng))
        new_obs, _, done, info = timestep
        on_step(t, obs, timestep)
        obs = new_obs
        if done:
            if "eval_episode_return" not in info:
                raise EnvCheckError(
                    f"step {t}: expected info['eval_episode_return'] at the end of an episode, "
                    f"got the keys {sorted(info)}"
                )
            done_times += 1
            if done_times == episodes:
                return
            obs = env.reset()
    raise EnvCheckError(
        f"expected {episodes} episodes within max_steps={max_steps}, got {done_times}"
    )


def check_step(env: Any, *, max_steps: int = 100_000) -> None:
    """Three episodes: every observation and reward in its space, and
    ``info['eval_episode_return']`` at each episode's end."""

    def check(t, _, timestep):
        check_array_space(timestep[0], env.observation_space, f"step {t}: obs")
        check_array_space(timestep[1], env.reward_space, f"step {t}: rew")

    _steps(env, 3, max_steps, check)


def check_different_memory(array1: Any, array2: Any, step_times: int) -> None:
    """Two successive observations share no array (the env returns fresh arrays).

    Raises:
        EnvCheckError: the same array object, or structures of different types or sizes.
        TypeError: neither arrays nor sequences or dicts of them.
    """
    where = f"step {step_times}"
    if type(array1) is not type(array2):
        raise EnvCheckError(
            f"{where}: expected observations of one type, got {type(array1).__name__} "
            f"and {type(array2).__name__}"
        )
    if isinstance(array1, np.ndarray):
        if array1 is array2 or np.shares_memory(array1, array2):
            raise EnvCheckError(f"{where}: expected a new array, got the last observation's memory")
    elif isinstance(array1, dict):
        if array1.keys() != array2.keys():
            raise EnvCheckError(
                f"{where}: expected the keys {sorted(array1)}, got {sorted(array2)}"
            )
        for key in array1:
            if isinstance(array1[key], np.ndarray) or not isinstance(
                array1[key], (int, type(None))
            ):
                check_different_memory(array1[key], array2[key], step_times)
    elif isinstance(array1, Sequence) and not isinstance(array1, str):
        if len(array1) != len(array2):
            raise EnvCheckError(f"{where}: expected {len(array1)} items, got {len(array2)}")
        for a, b in zip(array1, array2):
            check_different_memory(a, b, step_times)
    else:
        raise TypeError(
            f"{where}: expected np.ndarray or sequences or dicts of them, got {type(array1).__name__}"
        )


def check_obs_deepcopy(env: Any, *, max_steps: int = 100_000) -> None:
    """Over one episode, each observation is new memory, not the last one's."""
    _steps(env, 1, max_steps, lambda t, obs, ts: check_different_memory(obs, ts[0], t + 1))


def check_all(env: Any) -> None:
    """:func:`check_space_dtype`, :func:`check_reset`, :func:`check_step`, :func:`check_obs_deepcopy`."""
    check_space_dtype(env)
    check_reset(env)
    check_step(env)
    check_obs_deepcopy(env)


def demonstrate_correct_procedure(
    env_fn: Callable[[dict], Any], *, max_steps: int = 100_000
) -> None:
    """Builds ``env_fn({})`` and uses it as a collector does: lazy init until ``reset``, a seed
    set before it that later resets keep, three episodes of random legal actions."""
    env = env_fn({})
    if getattr(env, "_env", None) is not None:
        raise EnvCheckError("init: expected lazy init (no env._env before reset), got one")
    seed_env(env, 4)
    if getattr(env, "_seed", None) != 4:
        raise EnvCheckError(f"seed(4): expected env._seed == 4, got {getattr(env, '_seed', None)}")

    def keeps_seed(t, _, timestep):
        if timestep[2] and env._seed != 4:
            raise EnvCheckError(f"step {t}: expected env._seed to stay 4, got {env._seed}")

    _steps(env, 3, max_steps, keeps_seed)
