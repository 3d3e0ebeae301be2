"""Conversions between gym spaces, actions and observations and the BaseEnv contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from lzero.errors import IllegalActionError

#: Keys of a dict observation whose Python-int values stay Python ints (LightZero reads
#: ``obs['to_play']`` as an int).
SCALAR_KEYS = ("to_play", "current_player_index")

_LEGACY_SPACES = ("Box", "Discrete", "MultiDiscrete", "MultiBinary", "Tuple", "Dict")


def to_gymnasium_space(space: Any) -> spaces.Space:
    """Returns ``space`` as a gymnasium space, rebuilding legacy ``gym.spaces`` by duck typing.

    Raises:
        TypeError: ``space`` is none of Box, Discrete, MultiDiscrete, MultiBinary, Tuple, Dict.
    """
    if isinstance(space, spaces.Space):
        return space
    kind = type(space).__name__
    if kind == "Box":
        return spaces.Box(
            np.asarray(space.low), np.asarray(space.high), tuple(space.shape), space.dtype
        )
    if kind == "Discrete":
        return spaces.Discrete(int(space.n), start=int(getattr(space, "start", 0)))
    if kind == "MultiDiscrete":
        return spaces.MultiDiscrete(np.asarray(space.nvec))
    if kind == "MultiBinary":
        return spaces.MultiBinary(space.n)
    if kind == "Tuple":
        return spaces.Tuple([to_gymnasium_space(s) for s in space.spaces])
    if kind == "Dict":
        return spaces.Dict({k: to_gymnasium_space(s) for k, s in space.spaces.items()})
    raise TypeError(f"expected a gym space ({', '.join(_LEGACY_SPACES)}), got {kind}")


def contract_dtype(dtype: Any) -> np.dtype:
    """Maps an observation dtype to the contract's: floats -> float32, bools -> int8,
    int8/uint8 kept, other integers -> int64."""
    dtype = np.dtype(dtype)
    if np.issubdtype(dtype, np.floating):
        return np.dtype(np.float32)
    if dtype == np.bool_:
        return np.dtype(np.int8)
    if dtype in (np.int8, np.uint8):
        return dtype
    return np.dtype(np.int64)


def contract_space(space: spaces.Space) -> spaces.Space:
    """Returns the observation space of ``space`` after :func:`to_contract_obs` conversion."""
    if isinstance(space, spaces.Dict):
        return spaces.Dict({k: contract_space(s) for k, s in space.spaces.items()})
    if isinstance(space, spaces.Tuple):
        return spaces.Tuple([contract_space(s) for s in space.spaces])
    if isinstance(space, spaces.Box):
        dtype = contract_dtype(space.dtype)
        if dtype == space.dtype:
            return space
        return spaces.Box(space.low.astype(dtype), space.high.astype(dtype), space.shape, dtype)
    return space


def to_contract_obs(obs: Any, space: spaces.Space | None = None) -> Any:
    """Converts an observation to fresh NumPy arrays of the contract's dtypes.

    Dicts keep their keys and a Tuple ``space``'s observations stay tuples, each part converted;
    ``None`` stays ``None`` (a continuous env's ``action_mask``);
    Python ints under :data:`SCALAR_KEYS` stay ints. A Box ``space`` fixes the dtype of its
    values, so observations always lie in :func:`contract_space` of it.
    """
    if isinstance(obs, Mapping):
        subspaces = space.spaces if isinstance(space, spaces.Dict) else {}
        out = {}
        for key, value in obs.items():
            if value is None or (key in SCALAR_KEYS and isinstance(value, (int, np.integer))):
                out[key] = None if value is None else int(value)
            else:
                out[key] = to_contract_obs(value, subspaces.get(key))
        return out
    if isinstance(space, spaces.Tuple):  # part by part: np.asarray fails on mixed parts
        return tuple(to_contract_obs(o, sub) for o, sub in zip(obs, space.spaces, strict=True))
    array = np.asarray(obs)
    dtype = contract_dtype(space.dtype if isinstance(space, spaces.Box) else array.dtype)
    return np.array(array, dtype=dtype, copy=True)


def to_gym_action(space: spaces.Space, action: Any) -> Any:
    """Checks ``action`` against ``space`` and converts it to what the gym env expects.

    Discrete: an int, NumPy integer, or integer array with one element, returned as an int.
    Box: an array-like of the space's shape (a scalar is accepted for shape `[1]`),
    returned as a fresh array of the space's dtype (whole numbers for an integer Box). Values
    outside ``low..high`` are passed on unchanged: clipping is the env's decision.
    MultiDiscrete and MultiBinary: integers of the space's shape within its range, returned
    as a fresh array. Dict and Tuple: each part checked against its subspace. Other spaces
    (Text, ...): passed through if the space contains the action.

    Raises:
        IllegalActionError: a discrete index out of range or not an integer, a continuous
            action of the wrong shape, not made of numbers, or not finite, or an action
            another space does not contain.
    """
    if isinstance(space, spaces.Discrete):
        arr = np.asarray(action)
        if arr.size != 1 or not np.issubdtype(arr.dtype, np.integer):
            raise IllegalActionError(
                f"action: expected an int in [{space.start}, {space.start + space.n}), "
                f"got {action!r}"
            )
        index = int(arr.reshape(()))
        if not space.start <= index < space.start + space.n:
            raise IllegalActionError(
                f"action: expected an int in [{space.start}, {space.start + space.n}), got {index}"
            )
        return index
    if isinstance(space, spaces.Box):
        raw = np.asarray(action) if not isinstance(action, str) else None
        if raw is None or raw.dtype.kind not in "iuf":
            # np.array(None, dtype=float32) is nan: refuse before the cast hides the mistake.
            raise IllegalActionError(
                f"action: expected an array of shape {space.shape} of numbers, got {action!r}"
            )
        if raw.dtype.kind == "f" and space.dtype.kind in "iu" and not _whole(raw):
            raise IllegalActionError(  # the cast would truncate 1.7 to 1
                f"action: expected whole numbers for an integer Box ({space.dtype}), got {action!r}"
            )
        arr = np.array(raw, dtype=space.dtype, copy=True)
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            raise IllegalActionError(
                f"action: expected finite numbers (NaN or inf would poison the env's state), "
                f"got {action!r}"
            )
        if arr.shape != space.shape:
            if arr.ndim == 0 and space.shape == (1,):
                return arr.reshape(1)
            raise IllegalActionError(
                f"action: expected an array of shape {space.shape}, got shape {arr.shape}"
            )
        return arr
    if isinstance(space, (spaces.MultiDiscrete, spaces.MultiBinary)):
        return _multi_action(space, action)
    if isinstance(space, spaces.Dict):
        if not isinstance(action, Mapping) or set(action) != set(space.spaces):
            raise IllegalActionError(
                f"action: expected a dict with the keys {sorted(space.spaces)}, got {action!r:.200}"
            )
        return {k: to_gym_action(sub, action[k]) for k, sub in space.spaces.items()}
    if isinstance(space, spaces.Tuple):
        if not isinstance(action, (tuple, list)) or len(action) != len(space.spaces):
            raise IllegalActionError(
                f"action: expected a tuple of {len(space.spaces)} actions, got {action!r:.200}"
            )
        return tuple(to_gym_action(sub, a) for sub, a in zip(space.spaces, action))
    if not space.contains(action):  # Text, Sequence, ...: the space's own test
        raise IllegalActionError(f"action: expected an element of {space}, got {action!r:.200}")
    return action


def _whole(arr: np.ndarray) -> bool:
    return bool(np.isfinite(arr).all() and (arr == np.round(arr)).all())


def _multi_action(space: spaces.MultiDiscrete | spaces.MultiBinary, action: Any) -> np.ndarray:
    """A MultiDiscrete or MultiBinary action as a fresh array of the space's dtype.

    Raises:
        IllegalActionError: not integers (or booleans) of the space's shape, or a value out of
            its range (``start .. start + nvec - 1``; 0 or 1).
    """
    if isinstance(space, spaces.MultiDiscrete):
        low, high = space.start, space.start + space.nvec - 1
        allowed = f"ints in [start, start + nvec) = [{low.tolist()}, {high.tolist()}]"
    else:
        low, high, allowed = 0, 1, "0s and 1s"
    raw = np.asarray(action) if not isinstance(action, str) else None
    if raw is None or raw.dtype.kind not in "biu":
        raise IllegalActionError(
            f"action: expected an array of shape {space.shape} of {allowed}, got {action!r:.200}"
        )
    if raw.shape != space.shape:
        raise IllegalActionError(
            f"action: expected an array of shape {space.shape}, got shape {raw.shape}"
        )
    if ((raw < low) | (raw > high)).any():
        raise IllegalActionError(f"action: expected {allowed}, got {raw.tolist()}")
    return np.array(raw, dtype=space.dtype, copy=True)
