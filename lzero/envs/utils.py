"""Conversions of env outputs to the dtypes and shapes of the BaseEnv contract, and seeding
envs whose ``seed`` takes one argument."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import numpy as np


def to_ndarray(item: Any, dtype: np.dtype | type | None = None) -> Any:
    """Converts numbers, lists, tuples and (nested) dicts of them to NumPy arrays.

    Dicts and tuples keep their structure, with every leaf converted; ``None`` stays
    ``None``. Scalars become 0-d arrays; use :func:`to_reward` for the `[1]` reward.

    Args:
        item: what to convert.
        dtype: the target dtype of every leaf; None keeps NumPy's choice.

    Returns:
        The converted structure. Arrays are always copies, so the result never aliases
        the input.
    """
    if item is None:
        return None
    if isinstance(item, Mapping):
        return {k: to_ndarray(v, dtype) for k, v in item.items()}
    if isinstance(item, tuple) and not hasattr(item, "_fields"):
        return tuple(to_ndarray(v, dtype) for v in item)
    return np.array(item, dtype=dtype, copy=True)


def to_list(item: Any) -> Any:
    """DI-engine's ``to_list``: arrays (and tensors) to nested lists, dicts and tuples kept,
    other leaves unchanged."""
    if item is None:
        return None
    if isinstance(item, Mapping):
        return {k: to_list(v) for k, v in item.items()}
    if isinstance(item, (list, tuple)) and not hasattr(item, "_fields"):
        return [to_list(v) for v in item]
    if hasattr(item, "tolist"):
        return item.tolist()
    return item


def to_tensor(item: Any, dtype: Any = None) -> Any:
    """DI-engine's ``to_tensor``: numbers, arrays and (nested) dicts, lists and tuples of them
    to torch tensors (torch from the ``train`` extra), structure kept; ``None`` stays None."""
    import torch

    if item is None:
        return None
    if isinstance(item, Mapping):
        return {k: to_tensor(v, dtype) for k, v in item.items()}
    if isinstance(item, (list, tuple)) and not hasattr(item, "_fields"):
        if item and all(isinstance(v, (int, float, bool, np.number)) for v in item):
            return torch.as_tensor(np.asarray(item), dtype=dtype)
        return type(item)(to_tensor(v, dtype) for v in item)
    return torch.as_tensor(np.asarray(item), dtype=dtype)


def to_reward(reward: Any) -> np.ndarray:
    """Returns ``reward`` as the contract's float32 array of shape `[1]`."""
    return np.asarray(reward, dtype=np.float32).reshape(1).copy()


def seed_env(env: Any, seed: int, dynamic_seed: bool = True) -> Any:
    """Calls ``env.seed(seed, dynamic_seed)``, or ``env.seed(seed)`` when the env's ``seed``
    takes one argument (DI-engine's demo envs define ``seed(self, seed)``; such an env decides
    alone whether its episodes vary).

    Raises:
        TypeError: the env has no ``seed`` method (a gymnasium env, say: it is seeded through
            ``reset(seed=...)``; ``DingEnvWrapper`` gives it BaseEnv's ``seed``).
    """
    if not callable(getattr(env, "seed", None)):
        raise TypeError(
            f"expected an env with BaseEnv's seed(seed, dynamic_seed) method, got "
            f"{type(env).__name__} without one; wrap a gymnasium or gym env in "
            f"DingEnvWrapper(env) to give it BaseEnv's API"
        )
    try:
        params = inspect.signature(env.seed).parameters.values()
    except (TypeError, ValueError):  # a builtin or C method: assume the contract
        return env.seed(seed, dynamic_seed)
    takes_two = sum(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params
    ) >= 2 or any(p.kind == p.VAR_POSITIONAL or p.name == "dynamic_seed" for p in params)
    return env.seed(seed, dynamic_seed) if takes_two else env.seed(seed)


def crosses_processes(err: BaseException) -> bool:
    """Whether ``err`` survives a trip through a pipe to another process: it pickles and
    unpickles (an exception whose ``__init__`` takes other arguments than its ``args``
    pickles, but fails to unpickle)."""
    import pickle

    try:
        pickle.loads(pickle.dumps(err))
        return True
    except Exception:
        return False
