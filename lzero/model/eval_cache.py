"""``EvaluationCache``: the network's outputs for the positions it evaluated last, by position.

A search meets the same position again: the subtree of the move just played is searched anew
from the next root, and different move orders reach one position. Game engines keep the
network's outputs by position for that (Lc0's NNCache, KataGo's nnCache); this is that cache for
a batched evaluator. A position is its board and player to move (its key: the board's cells as
bytes, then the mover's), which is all the network's input is made of here. Entries are the
network's raw outputs (logits before the legal-move mask, value, draw logit), so a position
reached with other legal moves (the root's moves are narrowed by ``tactics``) still reads its
own mask.

The table is direct-mapped, as KataGo's is: a position has one slot, its key's 64-bit FNV-1a
hash modulo the capacity, and a new entry replaces whatever held that slot. Lookups compare the
whole key, so a collision costs a forward pass, never a wrong answer. Lookup and store are
numba loops over the batch's boards (the keys are read from the boards, not built). The cache
empties itself when the network it was filled by is replaced (a new frozen copy after a weight
change).

Cached outputs equal a new forward pass up to float rounding: oneDNN's convolutions can round
a position's outputs differently (by about 1e-9) in batches of other sizes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

FNV_OFFSET = np.uint64(0xCBF29CE484222325)
FNV_PRIME = np.uint64(0x100000001B3)


@njit(cache=True, inline="always")
def fnv1a(key: np.ndarray) -> np.uint64:
    """The 64-bit FNV-1a hash of the bytes ``key`` `[K]` uint8."""
    h = FNV_OFFSET
    for byte in key:
        h = (h ^ np.uint64(byte)) * FNV_PRIME
    return h


@njit(cache=True, inline="always")
def _slot(cells, mover, capacity):
    """The slot of the position ``cells`` `[K - 1]` uint8, ``mover``: the FNV-1a hash of its
    key (the cells' bytes, then the mover's) modulo ``capacity``."""
    h = (fnv1a(cells) ^ np.uint64(np.uint8(mover))) * FNV_PRIME
    return np.int64(h % np.uint64(capacity))


@njit(cache=True)
def _probe(boards, to_play, table_keys, used, table, slots, out, miss):
    """Each position's slot `[B]` (``boards`` `[B, ...]` int8, ``to_play`` `[B]`); the outputs
    of the positions the cache holds copied into ``out``, the rows of the others written to
    ``miss``. Returns how many rows missed."""
    cells = boards.reshape(boards.shape[0], -1).view(np.uint8)
    m, last = 0, cells.shape[1]
    for i in range(cells.shape[0]):
        slot = _slot(cells[i], to_play[i], table_keys.shape[0])
        slots[i] = slot
        same = used[slot] and table_keys[slot, last] == np.uint8(to_play[i])
        if same:
            for j in range(last):
                if table_keys[slot, j] != cells[i, j]:
                    same = False
                    break
        if same:
            out[i] = table[slot]
        else:
            miss[m] = i
            m += 1
    return m


@njit(cache=True)
def _store(boards, to_play, slots, rows, new, table_keys, table, used, out):
    """Writes the key of position ``rows[k]`` and ``new[k]`` into slot ``slots[rows[k]]``, in
    order, and ``new[k]`` into ``out[rows[k]]``."""
    cells = boards.reshape(boards.shape[0], -1).view(np.uint8)
    last = cells.shape[1]
    for k in range(rows.shape[0]):
        i, slot = rows[k], slots[rows[k]]
        table_keys[slot, :last] = cells[i]
        table_keys[slot, last] = np.uint8(to_play[i])
        table[slot] = new[k]
        used[slot] = True
        out[i] = new[k]


class EvaluationCache:
    """The outputs `[width]` float32 of positions of ``cells`` cells, in ``capacity``
    direct-mapped slots.

    Args:
        capacity: slots (>= 1).
        width: outputs per position.
        cells: cells per board (``H * W``).
    """

    def __init__(self, capacity: int, width: int, cells: int) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"expected capacity to be an int >= 1, got {capacity!r}")
        self.capacity, self.width, self.cells = capacity, width, cells
        self._keys = np.zeros((capacity, cells + 1), np.uint8)  # the cells, then the mover
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
        self,
        owner: object,
        boards: np.ndarray,
        to_play: np.ndarray,
        compute: Callable[[np.ndarray], np.ndarray],
    ) -> np.ndarray:
        """`[B, width]` outputs of the positions ``boards`` `[B, ...]` int8 (``cells`` cells
        each) with movers ``to_play`` `[B]` (0-255): the cached ones where ``owner`` (the
        network) filled the cache, else ``compute(rows)``, called with the rows `[m]` of the
        missing positions and returning their outputs `[m, width]`, which are then kept. A
        new ``owner`` empties the cache first.

        Raises:
            ValueError: boards of another size or type, movers not one per board, or outputs
                of the wrong shape (then nothing is kept or counted).
        """
        n = len(boards)
        to_play = np.ascontiguousarray(to_play, np.int64)
        if boards.dtype != np.int8 or boards.size != n * self.cells or to_play.shape != (n,):
            raise ValueError(
                f"expected boards [B, ...] int8 of {self.cells} cells each and movers [B], got "
                f"{boards.shape} {boards.dtype} and {to_play.shape}"
            )
        if owner is not self._owner:
            self.clear()
            self._owner = owner
        boards = np.ascontiguousarray(boards)
        out, (slots, miss) = np.empty((n, self.width), np.float32), np.empty((2, n), np.int64)
        miss = miss[
            : _probe(boards, to_play, self._keys, self._used, self._table, slots, out, miss)
        ]
        if miss.size:
            new = np.ascontiguousarray(compute(miss), np.float32)
            if new.shape != (miss.size, self.width):
                raise ValueError(
                    f"expected compute to return shape ({miss.size}, {self.width}), got {new.shape}"
                )
            _store(boards, to_play, slots, miss, new, self._keys, self._table, self._used, out)
        self.lookups += n  # counted once answered: a failed call changes nothing
        self.hits += n - miss.size
        return out
