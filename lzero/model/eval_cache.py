"""``EvaluationCache``: the network's outputs for the positions it evaluated last, by position.

A search meets the same position again: the subtree of the move just played is searched anew
from the next root, and different move orders reach one position. Game engines keep the
network's outputs by position for that (Lc0's NNCache, KataGo's nnCache); this is that cache for
a batched evaluator. A position is its board and player to move (``position_keys``), which is
all the network's input is made of here. Entries are the network's raw outputs (logits before
the legal-move mask, value, draw logit), so a position reached with other legal moves (the
root's moves are narrowed by ``tactics``) still reads its own mask.

The table is direct-mapped, as KataGo's is: a position has one slot, its key's 64-bit FNV-1a
hash modulo the capacity, and a new entry replaces whatever held that slot. Lookups compare the
whole key, so a collision costs a forward pass, never a wrong answer. Lookup and store are
numba loops over the batch. The cache empties itself when the network it was filled by is
replaced (a new frozen copy after a weight change).

Cached outputs equal a new forward pass up to float rounding: oneDNN's convolutions can round
a position's outputs differently (by about 1e-9) in batches of other sizes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)


def position_keys(boards: np.ndarray, to_play: np.ndarray) -> np.ndarray:
    """`[B, H * W + 1]` uint8: each position's board cells followed by its mover."""
    n = boards.shape[0]
    keys = np.empty((n, boards[0].size + 1), np.uint8)
    keys[:, :-1] = boards.reshape(n, -1)
    keys[:, -1] = to_play
    return keys


@njit(cache=True)
def fnv1a(key: np.ndarray) -> np.uint64:
    """The 64-bit FNV-1a hash of the bytes ``key`` `[K]` uint8."""
    h = FNV_OFFSET
    for byte in key:
        h = (h ^ np.uint64(byte)) * FNV_PRIME
    return h


@njit(cache=True)
def _probe(keys, table_keys, used, table, slots, out, miss):
    """Each key's slot `[B]`; the outputs of the keys the cache holds copied into ``out``, the
    rows of the others written to ``miss``. Returns how many rows missed."""
    capacity = np.uint64(table_keys.shape[0])
    m = 0
    for i in range(keys.shape[0]):
        slot = np.int64(fnv1a(keys[i]) % capacity)
        slots[i] = slot
        same = used[slot]
        if same:
            for j in range(keys.shape[1]):
                if table_keys[slot, j] != keys[i, j]:
                    same = False
                    break
        if same:
            out[i] = table[slot]
        else:
            miss[m] = i
            m += 1
    return m


@njit(cache=True)
def _store(keys, slots, rows, new, table_keys, table, used, out):
    """Writes ``keys[rows[k]]`` and ``new[k]`` into slot ``slots[rows[k]]``, in order, and
    ``new[k]`` into ``out[rows[k]]``."""
    for k in range(rows.shape[0]):
        i, slot = rows[k], slots[rows[k]]
        table_keys[slot] = keys[i]
        table[slot] = new[k]
        used[slot] = True
        out[i] = new[k]


class EvaluationCache:
    """The outputs `[width]` float32 of positions with keys of ``key_length`` bytes, in
    ``capacity`` direct-mapped slots.

    Args:
        capacity: slots (>= 1).
        width: outputs per position.
        key_length: bytes per key (``H * W + 1`` for :func:`position_keys`).
    """

    def __init__(self, capacity: int, width: int, key_length: int) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"expected capacity to be an int >= 1, got {capacity!r}")
        self.capacity, self.width = capacity, width
        self._keys = np.zeros((capacity, key_length), np.uint8)
        self._table = np.zeros((capacity, width), np.float32)
        self._used = np.zeros(capacity, np.bool_)
        self._owner: object = None
        self.lookups = self.hits = 0  # positions asked for, and those answered from the cache

    def __len__(self) -> int:
        return int(np.count_nonzero(self._used))

    def clear(self) -> None:
        """Forgets every entry (the counters stay)."""
        self._used[:] = False

    def outputs(
        self, owner: object, keys: np.ndarray, compute: Callable[[np.ndarray], np.ndarray]
    ) -> np.ndarray:
        """`[B, width]` outputs of the positions ``keys`` `[B, key_length]` uint8: the cached
        ones where ``owner`` (the network) filled the cache, else ``compute(rows)``, called
        with the rows `[m]` of the missing positions and returning their outputs `[m,
        width]`, which are then kept. A new ``owner`` empties the cache first.

        Raises:
            ValueError: keys of another shape or type, or outputs of the wrong shape (then
                nothing is kept).
        """
        if keys.ndim != 2 or keys.shape[1] != self._keys.shape[1] or keys.dtype != np.uint8:
            raise ValueError(
                f"expected keys [B, {self._keys.shape[1]}] uint8, got {keys.shape} {keys.dtype}"
            )
        if owner is not self._owner:
            self.clear()
            self._owner = owner
        n = keys.shape[0]
        slots, out = np.empty(n, np.int64), np.empty((n, self.width), np.float32)
        miss = np.empty(n, np.int64)
        miss = miss[: _probe(keys, self._keys, self._used, self._table, slots, out, miss)]
        self.lookups += n
        self.hits += n - miss.size
        if miss.size:
            new = np.ascontiguousarray(compute(miss), np.float32)
            if new.shape != (miss.size, self.width):
                raise ValueError(
                    f"expected compute to return shape ({miss.size}, {self.width}), got {new.shape}"
                )
            _store(keys, slots, miss, new, self._keys, self._table, self._used, out)
        return out
