"""What every in-process backend shares: envs are stepped at ``submit``, so ``poll`` only
hands back the ids submitted since the last poll, in submission order."""

from __future__ import annotations

import numpy as np


class SteppedAtSubmit:
    """Base of the backends that step in the caller's process (board, classic, inline gym)."""

    _finished: list[np.ndarray]

    def poll(self, block: bool = True) -> np.ndarray:
        """Ids stepped since the last poll, in submission order."""
        done = np.concatenate(self._finished) if self._finished else np.zeros(0, np.int64)
        self._finished = []
        return done

    def close(self) -> None:
        self._finished = []
