"""NumPy's PCG64 generator inside numba kernels: the stream of ``np.random.Generator(PCG64(seed))``.

gymnasium seeds an env with ``np.random.Generator(np.random.PCG64(SeedSequence(seed)))``
(``gymnasium.utils.seeding.np_random``); a kernel that draws from the same stream, the same
way, reproduces that env's resets bit for bit. The generator is O'Neill's PCG XSL-RR 128/64
("PCG: A family of simple fast space-efficient statistically good algorithms for random
number generation", 2014), as NumPy implements it: a 128-bit LCG step, then the xor of the
state's halves rotated by its top 6 bits. numba has no 128-bit integers, so a state is four
``uint64`` `[4]`: ``(state_hi, state_lo, inc_hi, inc_lo)``.

``pcg64_double`` is ``Generator.random()``; ``Generator.uniform(low, high)`` is
``low + (high - low) * pcg64_double(state)``, element by element in C order
(``tests/lzero/utils/test_nbpcg64.py`` checks both against NumPy).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MULT = 0x2360ED051FC65DA44385DF649FCCF645  # PCG's default 128-bit multiplier
_MULT_HI = np.uint64(_MULT >> 64)
_MULT_LO = np.uint64(_MULT & 0xFFFFFFFFFFFFFFFF)
_LO32 = np.uint64(0xFFFFFFFF)
_U32 = np.uint64(32)


def pcg64_state(seed: int) -> np.ndarray:
    """The `[4]` uint64 state of ``gymnasium.utils.seeding.np_random(seed)``'s generator."""
    inner = np.random.PCG64(np.random.SeedSequence(int(seed))).state["state"]
    s, inc = int(inner["state"]), int(inner["inc"])
    mask = (1 << 64) - 1
    return np.array([s >> 64, s & mask, inc >> 64, inc & mask], np.uint64)


@njit(cache=True)
def _mulhi(a, b):
    """The high 64 bits of the 128-bit product ``a * b`` (uint64s)."""
    a_lo, a_hi = a & _LO32, a >> _U32
    b_lo, b_hi = b & _LO32, b >> _U32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    cross = (lo_lo >> _U32) + (hi_lo & _LO32) + lo_hi
    return a_hi * b_hi + (hi_lo >> _U32) + (cross >> _U32)


@njit(cache=True)
def pcg64_next(st):
    """Advances ``st`` `[4]` uint64 in place and returns the next 64 random bits."""
    s_hi, s_lo = st[0], st[1]
    hi = _mulhi(s_lo, _MULT_LO) + s_hi * _MULT_LO + s_lo * _MULT_HI
    lo = s_lo * _MULT_LO
    new_lo = lo + st[3]
    hi = hi + st[2] + (np.uint64(1) if new_lo < lo else np.uint64(0))
    st[0], st[1] = hi, new_lo
    x = hi ^ new_lo
    rot = hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63)))


@njit(cache=True)
def pcg64_double(st):
    """A uniform float in ``[0, 1)``: ``Generator.random()`` of the same stream."""
    return np.float64(pcg64_next(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


__all__ = ["pcg64_double", "pcg64_next", "pcg64_state"]
