"""``check_env``: checks that an env implementation keeps the BaseEnv contract.

Each rule raises one :class:`~lzero.errors.EnvCheckError` naming what is wrong, so a new env
can be debugged rule by rule. The rules:

1. ``observation_space``, ``action_space`` and ``reward_space`` exist.
2. Observations are NumPy arrays of dtype float32, int64, int8 or uint8 (or dicts of them,
   with every key of a Dict space, where ``to_play`` / ``current_player_index`` may be plain
   ints and a continuous env's ``action_mask`` may be None), and lie in ``observation_space``;
   an ``action_mask`` leaves a legal action while the episode goes on.
3. ``reward`` is a float32 array of shape `[1]` in ``reward_space``; ``done`` is a bool;
   ``info`` is a dict; ``reset`` and ``step`` raise nothing on the actions the checker draws.
4. At the end of an episode ``info['eval_episode_return']`` is a Python float.
5. A later step never mutates an observation already returned (no aliasing).
6. With a static seed, two episodes with the same actions are identical. The replay draws its
   random actions as the first episode did and drops them, so an env whose ``random_action``
   shares its dynamics' generator draws alike in both.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from lzero.envs.base_env import BaseEnvTimestep
from lzero.envs.utils import seed_env
from lzero.errors import EnvCheckError

OBS_DTYPES = (np.float32, np.int64, np.int8, np.uint8)
SCALAR_KEYS = ("to_play", "current_player_index")


def check_env(env: Any, *, seed: int = 0, max_steps: int = 2000) -> None:
    """Runs the contract checks on ``env``, raising at the first broken rule.

    Args:
        env: an env following the BaseEnv contract.
        seed: the static seed used for the reproducibility check.
        max_steps: the longest episode the check waits for.

    Raises:
        EnvCheckError: a rule is broken; the message says which and how.
    """
    for name in ("observation_space", "action_space", "reward_space"):
        if getattr(env, name, None) is None:
            raise EnvCheckError(f"{name}: expected a gymnasium space, got None")
    seed_env(env, seed, dynamic_seed=False)
    first = _run_episode(env, None, max_steps, np.random.default_rng(seed))
    seed_env(env, seed, dynamic_seed=False)
    # The replay draws its random actions again, only to drop them: ``random_action`` draws from
    # the env's own generator, which its dynamics may share, so both episodes draw alike.
    second = _run_episode(env, first["actions"], max_steps, np.random.default_rng(seed))
    for i in range(max(len(first["trace"]), len(second["trace"]))):
        if i >= min(len(first["trace"]), len(second["trace"])) or not _equal(
            first["trace"][i], second["trace"][i]
        ):
            raise EnvCheckError(
                f"static seed {seed}: two episodes with the same actions differ at step {i}"
            )
    env.close()


def random_legal_action(env: Any, obs: Any, rng: np.random.Generator, where: str = "") -> Any:
    """A random legal action: drawn from ``obs['action_mask']`` when the observation has one
    (the space alone would offer illegal moves), else ``env.random_action()``.

    Raises:
        EnvCheckError: the mask holds no legal action, though the episode goes on (the message
            starts with ``where``, the step that returned ``obs``).
    """
    mask = obs.get("action_mask") if isinstance(obs, dict) else None
    if mask is not None and isinstance(env.action_space, spaces.Discrete):
        legal = np.flatnonzero(np.asarray(mask).reshape(-1))
        if not legal.size:
            raise EnvCheckError(
                f"{where + ': ' if where else ''}obs['action_mask']: expected at least one legal "
                "action while the episode goes on (done False), got none"
            )
        return int(env.action_space.start + legal[rng.integers(legal.size)])
    return env.random_action()


def _call(where: str, env: Any, method: str, *args: Any) -> Any:
    """``env.<method>(*args)``; an exception it raises (but an ``EnvCheckError``) comes out as
    an ``EnvCheckError`` that starts with ``where`` and names the call, chained to it."""
    try:
        return getattr(env, method)(*args)
    except EnvCheckError:
        raise
    except Exception as e:
        call = f"env.{method}({', '.join(map(repr, args))})"
        raise EnvCheckError(f"{where}: {call} raised {type(e).__name__}: {e}") from e


def _run_episode(env: Any, actions: list | None, max_steps: int, rng) -> dict:
    obs = _call("reset", env, "reset")
    _check_obs(env, obs, "reset")
    kept = [(obs, _copy(obs))]
    trace, played = [obs], []
    for t in range(max_steps):
        if actions is not None and t == len(actions):
            break  # replaying: the first episode ended here, this one did not
        action = random_legal_action(env, obs, rng, "reset" if t == 0 else f"step {t - 1}")
        if actions is not None:
            action = actions[t]
        played.append(action)
        timestep = _call(f"step {t}", env, "step", action)
        if not isinstance(timestep, tuple) or len(timestep) != 4:
            raise EnvCheckError(f"step: expected a BaseEnvTimestep, got {type(timestep).__name__}")
        obs, reward, done, info = BaseEnvTimestep(*timestep)
        where = f"step {t}"
        _check_obs(env, obs, where)
        _check_reward(env, reward, where)
        if not isinstance(done, bool):
            raise EnvCheckError(
                f"{where}: expected done to be a bool, got {type(done).__module__}.{type(done).__name__}"
            )
        _check_unchanged(kept, where, len(kept) - 1)  # a buffer reused: seen at once
        kept.append((obs, _copy(obs)))
        trace.append((obs, reward, done))
        if not isinstance(info, dict):
            raise EnvCheckError(f"{where}: expected info to be a dict, got {type(info).__name__}")
        if done:
            _check_unchanged(kept, where)  # every one, once: each step had made it quadratic
            ret = info.get("eval_episode_return")
            if not isinstance(ret, float):
                raise EnvCheckError(
                    f"{where}: expected info['eval_episode_return'] to be a Python float at "
                    f"the end of the episode, got {type(ret).__name__}"
                )
            return {"actions": played, "trace": trace}
    if actions is not None:
        _check_unchanged(kept, f"step {len(played) - 1}")
        return {"actions": played, "trace": trace}
    raise EnvCheckError(f"the episode did not end within max_steps={max_steps}")


def _check_unchanged(kept: list, where: str, first: int = 0) -> None:
    """Raises unless each observation of ``kept[first:]`` (``(returned, copy)``, in the
    order returned: reset's first) still equals its copy."""
    for i in range(first, len(kept)):
        returned, copy = kept[i]
        if not _equal(returned, copy):
            raise EnvCheckError(
                f"{where}: the observation returned at {'reset' if i == 0 else f'step {i - 1}'}"
                " was changed afterwards (observations must not alias env state)"
            )


def _check_obs(env: Any, obs: Any, where: str) -> None:
    space = env.observation_space
    if isinstance(obs, dict):
        if not isinstance(space, spaces.Dict):
            raise EnvCheckError(f"{where}: dict observation but observation_space is {space}")
        missing = [key for key in space.spaces if key not in obs]
        if missing:
            raise EnvCheckError(
                f"{where}: expected the keys of observation_space {sorted(space.spaces)}, got an "
                f"observation without {missing}"
            )
        for key, value in obs.items():
            if value is None and key == "action_mask":
                continue
            if key in SCALAR_KEYS and isinstance(value, (int, np.integer)):
                part = space.spaces.get(key)
                if part is not None and not part.contains(np.int64(value)):
                    raise EnvCheckError(
                        f"{where}: obs[{key!r}] = {value} lies outside its space {part}"
                    )
                continue
            _check_array(value, space.spaces.get(key), f"{where}: obs[{key!r}]")
    elif isinstance(obs, tuple) and isinstance(space, spaces.Tuple):
        # a Tuple space's observations stay tuples, each part an array (DingEnvWrapper's)
        if len(obs) != len(space.spaces):
            raise EnvCheckError(
                f"{where}: expected a tuple of {len(space.spaces)} parts (the observation "
                f"space {space}), got {len(obs)}"
            )
        for i, (value, part) in enumerate(zip(obs, space.spaces)):
            _check_array(value, part, f"{where}: obs[{i}]")
    else:
        _check_array(obs, space, f"{where}: obs")


def _check_array(value: Any, space: Any, where: str) -> None:
    if not isinstance(value, np.ndarray):
        raise EnvCheckError(f"{where}: expected a NumPy array, got {type(value).__name__}")
    if value.dtype not in OBS_DTYPES:
        allowed = [np.dtype(d).name for d in OBS_DTYPES]
        raise EnvCheckError(f"{where}: expected dtype in {allowed}, got {value.dtype}")
    if space is None:
        raise EnvCheckError(f"{where}: the observation space has no entry for it")
    if space.shape is not None and tuple(space.shape) != value.shape:
        raise EnvCheckError(f"{where}: expected shape {tuple(space.shape)}, got {value.shape}")
    if not space.contains(value):
        raise EnvCheckError(f"{where}: value lies outside the observation space {space}")


def _check_reward(env: Any, reward: Any, where: str) -> None:
    if not isinstance(reward, np.ndarray) or reward.dtype != np.float32 or reward.shape != (1,):
        got = (
            f"{reward.dtype} array of shape {reward.shape}"
            if isinstance(reward, np.ndarray)
            else type(reward).__name__
        )
        raise EnvCheckError(f"{where}: expected reward as a float32 array of shape (1,), got {got}")
    if not env.reward_space.contains(reward):
        raise EnvCheckError(
            f"{where}: reward {reward} lies outside reward_space {env.reward_space}"
        )


def _copy(obs: Any) -> Any:
    if isinstance(obs, dict):
        return {k: _copy(v) for k, v in obs.items()}
    return obs.copy() if isinstance(obs, np.ndarray) else obs


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.shape == b.shape
            and a.dtype == b.dtype
            and np.array_equal(a, b)
        )
    return a == b
