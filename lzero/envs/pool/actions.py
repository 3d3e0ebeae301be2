"""Checks of the actions a pool is sent: envpool's dict form, the batch's shape and dtype, and a
discrete space's range; float actions on a discrete space are cast, as envpool does, and
continuous ones must be finite (a NaN would poison the rest of the episode)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces


class ActionCheck:
    """Validates an action batch for one env's ``action_space`` (`[n, *shape]`)."""

    def __init__(self, action_space: Any, shape: tuple) -> None:
        self._action_shape = tuple(shape)
        self._action_kinds, self._action_range = "iuf", None
        if isinstance(action_space, spaces.Discrete):
            lo = int(action_space.start)
            self._action_kinds, self._action_range = "iu", (lo, lo + int(action_space.n))

    def __call__(self, action: Any, n: int, what: str = "send") -> np.ndarray:
        """The checked batch; errors name the caller's function ``what``."""
        arr = np.asarray(action)
        if arr.shape != (n, *self._action_shape):
            raise ValueError(
                f"{what}: expected an action batch of shape {(n, *self._action_shape)}, got {arr.shape}"
            )
        if arr.dtype.kind == "f" and self._action_kinds == "iu":
            # envpool casts float actions of a discrete space; whole numbers only here, so
            # that 2.5 is not silently played as 2.
            whole = np.isfinite(arr) & (arr == np.round(arr))
            if not whole.all():
                raise ValueError(
                    f"{what}: expected whole-number actions for a discrete space, got "
                    f"{arr[~whole].reshape(-1)[0]!r}"
                )
            arr = arr.astype(np.int64)
        if arr.dtype.kind == "f" and not np.isfinite(arr).all():
            # A NaN would be integrated into the state and poison the rest of the episode.
            bad = np.flatnonzero(~np.isfinite(arr).reshape(n, -1).all(axis=1))
            raise ValueError(
                f"{what}: expected finite actions, got {arr[bad[0]]!r} for row {int(bad[0])}"
            )
        if arr.dtype.kind not in self._action_kinds:
            want = "an integer" if self._action_kinds == "iu" else "a numeric"
            raise TypeError(f"{what}: expected {want} action array, got dtype {arr.dtype}")
        if self._action_range is not None:
            lo, hi = self._action_range
            # One comparison when lo == 0: negative integers wrap to huge unsigned values.
            wrapped = arr.view(f"u{arr.itemsize}") if lo == 0 and arr.dtype.kind == "i" else None
            if (
                (wrapped >= hi).any()
                if wrapped is not None
                else (arr.min() < lo or arr.max() >= hi)
            ):
                bad = arr[(arr < lo) | (arr >= hi)]
                raise ValueError(f"{what}: expected actions in [{lo}, {hi}), got {int(bad[0])}")
        return arr


def unpack(action: Any, env_id: Any, what: str) -> tuple[Any, Any]:
    """envpool's dict action ``{"action": a, "env_id": ids}`` as ``(a, ids)``."""
    if not isinstance(action, dict):
        return action, env_id
    keys = set(action)
    if "action" not in keys or not keys <= {"action", "env_id"}:
        raise ValueError(
            f"{what}: expected a dict action with the keys 'action' and optionally 'env_id', "
            f"got {sorted(keys)}"
        )
    if env_id is not None and "env_id" in action:
        raise ValueError(f"{what}: expected env_id in the dict action or as env_id, got both")
    return action["action"], action.get("env_id", env_id)
