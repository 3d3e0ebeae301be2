"""``EvaluationCache``: the network's outputs for the positions it evaluated last, by position.

A search meets the same position again: the subtree of the move just played is searched anew
from the next root, and different move orders reach one position. Game engines keep the
network's outputs by position for that (Lc0's NNCache, KataGo's nnCache); this is that cache for
a batched evaluator. A position is its board and player to move (the bytes of both), which is
all the network's input is made of here. Entries are the network's raw outputs (logits before
the legal-move mask, value, draw logit), so a position reached with other legal moves (the
root's moves are narrowed by ``tactics``) still reads its own mask. The oldest entry makes room
for a new one; the cache empties itself when the network it was filled by is replaced (a new
frozen copy after a weight change).

Cached outputs equal a new forward pass up to float rounding: oneDNN's convolutions can round
a position's outputs differently (by about 1e-9) in batches of other sizes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def position_keys(boards: np.ndarray, to_play: np.ndarray) -> list[bytes]:
    """One key per position: the bytes of its board `[H, W]` int8 followed by its mover."""
    n = boards.shape[0]
    rows = np.empty((n, boards[0].size + 1), np.int8)
    rows[:, :-1] = boards.reshape(n, -1)
    rows[:, -1] = to_play
    flat, width = rows.tobytes(), rows.shape[1]
    return [flat[i * width : (i + 1) * width] for i in range(n)]


class EvaluationCache:
    """The outputs `[width]` float32 of up to ``capacity`` positions, the oldest replaced first.

    Args:
        capacity: positions kept (>= 1).
        width: outputs per position.
    """

    def __init__(self, capacity: int, width: int) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"expected capacity to be an int >= 1, got {capacity!r}")
        self.capacity, self.width = capacity, width
        self._table = np.empty((capacity, width), np.float32)
        self._slots: dict[bytes, int] = {}
        self._keys: list[bytes | None] = [None] * capacity
        self._next = 0
        self._owner: object = None
        self.lookups = self.hits = 0  # positions asked for, and those answered from the cache

    def __len__(self) -> int:
        return len(self._slots)

    def clear(self) -> None:
        """Forgets every entry (the counters stay)."""
        self._slots.clear()
        self._keys = [None] * self.capacity
        self._next = 0

    def outputs(
        self, owner: object, keys: list[bytes], compute: Callable[[np.ndarray], np.ndarray]
    ) -> np.ndarray:
        """`[B, width]` outputs of the positions ``keys``: the cached ones where ``owner`` (the
        network) filled the cache, else ``compute(rows)``, called once with the rows `[m]` of
        the missing positions and returning their outputs `[m, width]`, which are then kept. A
        new ``owner`` empties the cache first."""
        if owner is not self._owner:
            self.clear()
            self._owner = owner
        slots = self._slots
        found = np.array([slots.get(k, -1) for k in keys], np.int64)
        hit = found >= 0
        out = np.empty((len(keys), self.width), np.float32)
        out[hit] = self._table[found[hit]]
        self.lookups += len(keys)
        self.hits += int(np.count_nonzero(hit))
        miss = np.flatnonzero(~hit)
        if miss.size == 0:
            return out
        new = np.asarray(compute(miss), np.float32)
        if new.shape != (miss.size, self.width):
            raise ValueError(
                f"expected compute to return shape ({miss.size}, {self.width}), got {new.shape}"
            )
        out[miss] = new
        keep = miss.size if miss.size <= self.capacity else self.capacity  # the last ones
        new, miss = new[-keep:], miss[-keep:]
        where = (self._next + np.arange(keep)) % self.capacity
        self._table[where] = new
        owners = self._keys
        for slot, i in zip(where.tolist(), miss.tolist()):
            old = owners[slot]
            if old is not None:
                del slots[old]
            key = keys[i]
            earlier = slots.get(key)
            if earlier is not None:  # the same position twice in one batch: keep the last
                owners[earlier] = None
            owners[slot], slots[key] = key, slot
        self._next = (self._next + keep) % self.capacity
        return out
