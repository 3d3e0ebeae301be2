"""DI-engine's named wrapper presets and wrapper dicts for ``DingEnvWrapper``'s ``env_wrapper``.

``env_wrapper`` may be a preset name (``'default'``, ``'mujoco_default'``), or a list whose
items are wrapper factories ``env -> env`` or DI-engine's dicts ``{'type': ..., 'kwargs':
{...}}``. DI-engine's presets add an ``eval_episode_return`` wrapper, which ``DingEnvWrapper``
always does here, so both presets add nothing. The Atari, gym-hybrid and reward-in-obs presets
need DI-engine's own wrappers and are refused with a pointer to gymnasium's equivalents.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium.wrappers import ClipReward, FrameStackObservation, TimeLimit, TransformReward

from lzero.envs.config import is_int, is_number, unknown_name_message
from lzero.errors import ConfigError

Wrap = Callable[[gymnasium.Env], gymnasium.Env]

#: Presets and the wrapper dicts they stand for (DI-engine's ``get_default_wrappers``).
PRESETS: dict[str, list[dict]] = {
    "default": [{"type": "eval_episode_return"}],
    "mujoco_default": [{"type": "eval_episode_return"}],
}
_REFUSED = {
    "atari_default": "gymnasium.wrappers.AtariPreprocessing and FrameStackObservation",
    "gym_hybrid_default": "a wrapper of your own mapping the dict action to the env's",
    "reward_in_obs": "a gymnasium.ObservationWrapper of your own",
}


def _sign_reward(env: gymnasium.Env) -> gymnasium.Env:
    return TransformReward(env, lambda r: float(np.sign(r)))


def _positive_int(kind: str, key: str, value: Any) -> int:
    if not is_int(value) or value < 1:
        raise ConfigError(
            f"env_wrapper {kind!r}: expected {key} to be a positive int, got {value!r}"
        )
    return int(value)


def _time_limit(env: gymnasium.Env, max_limit: int) -> gymnasium.Env:
    return TimeLimit(env, _positive_int("time_limit", "max_limit", max_limit))


def _frame_stack(env: gymnasium.Env, n_frames: int = 4) -> gymnasium.Env:
    return FrameStackObservation(env, _positive_int("frame_stack", "n_frames", n_frames))


def _reward_clip(env: gymnasium.Env, low: float = -1.0, high: float = 1.0) -> gymnasium.Env:
    if not (is_number(low) and is_number(high) and low <= high):
        raise ConfigError(
            f"env_wrapper 'reward_clip': expected numbers low <= high, got low={low!r}, "
            f"high={high!r}"
        )
    return ClipReward(env, low, high)


#: Wrapper dict types: ``type -> factory(env, **kwargs)``. As DI-engine's
#: ``create_env_wrapper``, a listed dict wraps the collector's and the evaluator's envs alike;
#: only DI-engine's Atari preset (refused here) leaves ``clip_reward`` out for the evaluator.
WRAPPER_TYPES: dict[str, Callable[..., gymnasium.Env]] = {
    "eval_episode_return": lambda env: env,  # DingEnvWrapper sums the return itself
    "clip_reward": _sign_reward,  # DI-engine's: the reward's sign
    "reward_clip": _reward_clip,
    "frame_stack": _frame_stack,
    "time_limit": _time_limit,
}


def _check_caller(caller: str) -> None:
    if caller not in ("collector", "evaluator"):
        raise ConfigError(f"caller: expected 'collector' or 'evaluator', got {caller!r}")


def wrapper_from_dict(spec: dict, caller: str = "collector") -> Wrap:
    """The factory of one DI-engine wrapper dict ``{'type': ..., 'kwargs': {...}}``, the same
    for either ``caller``; its arguments are checked here.

    Raises:
        ConfigError: an unknown type (naming the closest), a malformed dict, or arguments the
            wrapper does not take (naming those it takes) or values it cannot use.
    """
    _check_caller(caller)
    kind = spec.get("type")
    if kind not in WRAPPER_TYPES:
        raise ConfigError(unknown_name_message("env_wrapper type", kind, list(WRAPPER_TYPES)))
    extra = set(spec) - {"type", "kwargs"}
    if extra:
        raise ConfigError(
            f"env_wrapper {kind!r}: expected the keys 'type' and 'kwargs', got {sorted(extra)}"
        )
    make = WRAPPER_TYPES[kind]
    kwargs = dict(spec.get("kwargs") or {})
    signature = inspect.signature(make)
    try:
        signature.bind(None, **kwargs)  # None for the env
    except TypeError as err:
        params = list(signature.parameters.values())[1:]  # after env
        takes = [p.name + ("" if p.default is p.empty else f"={p.default!r}") for p in params]
        raise ConfigError(
            f"env_wrapper {kind!r}: expected kwargs {takes or 'none'}, got {sorted(kwargs)} ({err})"
        ) from None
    _check_values(make, kwargs)
    return lambda env: make(env, **kwargs)


class _Probe(gymnasium.Env):
    """A stand-in env on which a wrapper's arguments are checked before any env is built."""

    observation_space = gymnasium.spaces.Box(0, 1, (1,))
    action_space = gymnasium.spaces.Discrete(1)


def _check_values(make: Callable[..., gymnasium.Env], kwargs: dict) -> None:
    make(_Probe(), **kwargs)  # raises ConfigError on a value the wrapper cannot use


def get_default_wrappers(
    env_wrapper_name: str, env_id: str | None = None, caller: str = "collector"
) -> list[dict]:
    """DI-engine's ``get_default_wrappers``: the wrapper dicts of a preset.

    Raises:
        ConfigError: an unknown preset (naming the closest), or one needing DI-engine's own
            wrappers (naming gymnasium's equivalent).
    """
    _check_caller(caller)
    if env_wrapper_name in _REFUSED:
        raise ConfigError(
            f"env_wrapper {env_wrapper_name!r}: expected a preset offered here "
            f"({sorted(PRESETS)}), got one that needs DI-engine's own wrappers; pass a list "
            f"with {_REFUSED[env_wrapper_name]} instead"
        )
    if env_wrapper_name not in PRESETS:
        raise ConfigError(unknown_name_message("env_wrapper", env_wrapper_name, list(PRESETS)))
    return [dict(w) for w in PRESETS[env_wrapper_name]]


def resolve_wrappers(given: Any, env_id: str | None, caller: str) -> list[Wrap]:
    """``env_wrapper`` (a preset name or a list of factories and wrapper dicts) as factories.

    Raises:
        ConfigError: anything else, naming what was given.
    """
    _check_caller(caller)
    if isinstance(given, str):
        given = get_default_wrappers(given, env_id, caller)
    if not isinstance(given, (list, tuple)):
        raise ConfigError(
            "env_wrapper: expected a preset name or a list of callables env -> env and "
            f"wrapper dicts, got {given!r}"
        )
    out = []
    for item in given:
        if isinstance(item, dict):
            out.append(wrapper_from_dict(item, caller))
        elif callable(item):
            out.append(item)
        else:
            raise ConfigError(
                f"env_wrapper: expected callables env -> env or wrapper dicts, got {item!r}"
            )
    return out
