"""DI-engine's named wrapper presets and wrapper dicts for ``DingEnvWrapper``'s ``env_wrapper``.

``env_wrapper`` may be a preset name (``'default'``, ``'mujoco_default'``), or a list whose
items are wrapper factories ``env -> env`` or DI-engine's dicts ``{'type': ..., 'kwargs':
{...}}``. DI-engine's presets add an ``eval_episode_return`` wrapper, which ``DingEnvWrapper``
always does here, so both presets add nothing. The Atari, gym-hybrid and reward-in-obs presets
need DI-engine's own wrappers and are refused with a pointer to gymnasium's equivalents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium.wrappers import ClipReward, FrameStackObservation, TimeLimit, TransformReward

from lzero.envs.config import unknown_name_message
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


#: Wrapper dict types: ``type -> (factory(env, **kwargs), applies to the evaluator too)``.
WRAPPER_TYPES: dict[str, tuple[Callable[..., gymnasium.Env], bool]] = {
    "eval_episode_return": (lambda env: env, True),  # DingEnvWrapper sums the return itself
    "clip_reward": (_sign_reward, False),  # DI-engine's: the reward's sign, collectors only
    "reward_clip": (lambda env, low=-1.0, high=1.0: ClipReward(env, low, high), False),
    "frame_stack": (lambda env, n_frames=4: FrameStackObservation(env, n_frames), True),
    "time_limit": (lambda env, max_limit: TimeLimit(env, int(max_limit)), True),
}


def wrapper_from_dict(spec: dict, caller: str = "collector") -> Wrap:
    """The factory of one DI-engine wrapper dict ``{'type': ..., 'kwargs': {...}}``.

    Raises:
        ConfigError: an unknown type (naming the closest) or a malformed dict.
    """
    kind = spec.get("type")
    if kind not in WRAPPER_TYPES:
        raise ConfigError(unknown_name_message("env_wrapper type", kind, list(WRAPPER_TYPES)))
    extra = set(spec) - {"type", "kwargs"}
    if extra:
        raise ConfigError(
            f"env_wrapper {kind!r}: expected the keys 'type' and 'kwargs', got {sorted(extra)}"
        )
    make, for_evaluator = WRAPPER_TYPES[kind]
    kwargs = dict(spec.get("kwargs") or {})
    if caller != "collector" and not for_evaluator:
        return lambda env: env
    return lambda env: make(env, **kwargs)


def get_default_wrappers(
    env_wrapper_name: str, env_id: str | None = None, caller: str = "collector"
) -> list[dict]:
    """DI-engine's ``get_default_wrappers``: the wrapper dicts of a preset.

    Raises:
        ConfigError: an unknown preset (naming the closest), or one needing DI-engine's own
            wrappers (naming gymnasium's equivalent).
    """
    if caller not in ("collector", "evaluator"):
        raise ConfigError(f"caller: expected 'collector' or 'evaluator', got {caller!r}")
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
