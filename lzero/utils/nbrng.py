"""A tiny counter-free random generator usable inside numba kernels.

Kernels that need randomness (rollouts, bots' tie-breaks, pools) take an explicit state, a
``uint64`` array of shape `[1]`, instead of numba's global generator: each env, bot and pool
owns its own stream, so results are reproducible from the seed and independent of call order
elsewhere. The generator is splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
number generators", OOPSLA 2014), which passes BigCrush and costs a few integer operations.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def make_rng_state(seed: int) -> np.ndarray:
    """Returns a fresh generator state `[1]` uint64 for ``seed`` (any Python int)."""
    mixed = (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    return np.array([mixed], dtype=np.uint64)


@njit(cache=True)
def next_u64(state):
    """Advances ``state`` in place and returns the next 64 random bits."""
    s = state[0] + _GOLDEN
    state[0] = s
    z = s
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def randbelow(state, n):
    """Returns a uniform integer in ``[0, n)`` (``n >= 1``; bias below 2**-32 for ``n < 2**32``)."""
    return np.int64(next_u64(state) % np.uint64(n))


@njit(cache=True)
def uniform(state):
    """Returns a uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
