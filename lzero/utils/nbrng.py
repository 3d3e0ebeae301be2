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
_OFFSET = np.uint64(0x632BE59BD9B4E019)


_MASK64 = 0xFFFFFFFFFFFFFFFF


@njit(cache=True, inline="always")
def mix64(z):
    """splitmix64's output function of the uint64 ``z``: a bijection of 64-bit words."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seeded_state(seed):
    """The generator state of the uint64 ``seed``, as :func:`make_rng_state` makes it (for
    kernels that seed streams themselves)."""
    return mix64(seed * _GOLDEN + _OFFSET)


def make_rng_state(seed: int) -> np.ndarray:
    """Returns a fresh generator state `[1]` uint64 for ``seed`` (a non-negative int of any
    size).

    The state is the seed hashed by splitmix64's output function, a bijection of 64-bit
    words, so every seed below 2**64 gets its own start on the generator's one cycle of
    2**64 states, at a pseudo-random place. (A state of ``seed * golden + c`` put seed
    ``s + 1`` one draw ahead of seed ``s``: the streams of neighbouring seeds, which envs,
    pools and trees use side by side, were the same stream shifted by one.) Beyond 64 bits,
    each further 64-bit limb is folded in through the same function, so that ``2**64`` does
    not replay seed 0 (distinct seeds then collide with odds of about 2**-64)."""
    seed = int(seed)
    mixed = seeded_state(np.uint64(seed & _MASK64))
    high = seed >> 64
    while high > 0:
        mixed = mix64(mixed ^ np.uint64(high & _MASK64))
        high >>= 64
    return np.array([mixed], dtype=np.uint64)


def int63_seed(seed: int) -> int:
    """``seed`` (a non-negative int) as a kernel's int64 seed: itself below 2**63, else 63
    bits of :func:`make_rng_state`'s mixing, so that large seeds do not wrap onto small ones."""
    seed = int(seed)
    return seed if seed < 2**63 else int(make_rng_state(seed)[0]) >> 1


@njit(cache=True)
def next_u64(state):
    """Advances ``state`` in place and returns the next 64 random bits."""
    s = state[0] + _GOLDEN
    state[0] = s
    return mix64(s)


@njit(cache=True)
def randbelow(state, n):
    """Returns a uniform integer in ``[0, n)`` (``n >= 1``; bias below 2**-32 for ``n < 2**32``)."""
    return np.int64(next_u64(state) % np.uint64(n))


@njit(cache=True)
def uniform(state):
    """Returns a uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
