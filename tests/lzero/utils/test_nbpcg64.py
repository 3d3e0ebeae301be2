"""The numba PCG64 against NumPy's own generator, and libm's pow against NumPy's scalar ``**``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from lzero.utils.nblibm import libm_pow, libm_powf
from lzero.utils.nbpcg64 import pcg64_double, pcg64_next, pcg64_state


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**64 - 1))
def test_the_stream_is_numpys_generator_seeded_the_same(seed):
    gen = np.random.default_rng(seed)  # gymnasium's seeding: Generator(PCG64(SeedSequence))
    state = pcg64_state(seed)
    raw = gen.integers(0, 2**64, size=20, dtype=np.uint64)
    assert [int(pcg64_next(state)) for _ in range(20)] == raw.tolist()
    assert [pcg64_double(state) for _ in range(20)] == gen.random(20).tolist()
    # Generator.uniform is low + (high - low) * random(), element by element.
    lo, hi = -0.6, -0.4
    assert [lo + (hi - lo) * pcg64_double(state) for _ in range(5)] == gen.uniform(
        lo, hi, 5
    ).tolist()


@njit(cache=True)
def _squares(x, x32, out, out32):
    for i in range(x.shape[0]):
        out[i] = libm_pow(x[i], 2.0)
        out32[i] = libm_powf(x32[i], np.float32(2.0))


def test_libm_pow_is_numpys_scalar_power_not_a_product():
    x = np.random.default_rng(0).standard_normal(20_000) * 30
    x32 = x.astype(np.float32)
    out, out32 = np.empty_like(x), np.empty_like(x32)
    _squares(x, x32, out, out32)
    numpy_scalar = np.array([np.float64(v) ** 2 for v in x])
    numpy_scalar32 = np.array([v**2 for v in x32], np.float32)
    assert np.array_equal(out, numpy_scalar) and np.array_equal(out32, numpy_scalar32)
    # The point of calling the library: its pow is not x * x for every x (else this module
    # would be needless); if a C library ever rounds every square exactly, drop it.
    assert (x * x != numpy_scalar).any()
