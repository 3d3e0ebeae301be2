"""NumPy 2's scalar arithmetic inside numba kernels: the C library's ``pow``, and Python
scalars taken at the precision of the NumPy scalar they meet (NEP 50).

NumPy's scalar ``x ** 2`` (``np.float64`` and ``np.float32``) and Python's ``x ** 2`` and
``math.pow`` call the C library's ``pow``, which is not always correctly rounded: for about
one double in a thousand, ``pow(x, 2.0)`` differs from ``x * x`` in the last bit. numba
compiles ``x ** 2`` to ``x * x``, and LLVM rewrites a call to ``pow(x, 2.0)`` to ``x * x``
too, since it knows the name. A kernel that must equal a peer bit for bit calls these
instead: the declaration is marked ``nobuiltin``, so LLVM keeps the call to the library's
function (the same one NumPy calls) and numba can still cache the kernel.

Under NEP 50, ``np.float32(u) * 0.001`` is a float32 product (the Python float is "weak"),
while numba computes it in float64; ``weak(0.001, u) * u`` computes it as NumPy does, for a
float32 or a float64 ``u`` alike (the type is resolved when the kernel compiles).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload


def _binary_libm(symbol: str, ty):
    @intrinsic
    def call(typingctx, x, y):
        def codegen(context, builder, signature, args):
            lt = context.get_value_type(ty)
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(lt, [lt, lt]), symbol
            )
            fn.attributes.add("nobuiltin")  # keep the library call: no x * x rewrite
            return builder.call(fn, args)

        return ty(ty, ty), codegen

    return call


#: ``libm_pow(x, y)``: the C library's ``pow`` on float64s (NumPy's and Python's ``**``).
libm_pow = _binary_libm("pow", types.float64)
#: ``libm_powf(x, y)``: the C library's ``powf`` on float32s (NumPy's ``np.float32 ** y``).
libm_powf = _binary_libm("powf", types.float32)


def _is_single(x) -> bool:
    return isinstance(x, types.Float) and x.bitwidth == 32


def weak(c, like):
    """The Python scalar ``c`` at ``like``'s precision (float32 or float64), as NEP 50 casts it."""
    return (np.float32 if isinstance(like, np.float32) else np.float64)(c)


@overload(weak)
def _weak(c, like):
    if _is_single(like):
        return lambda c, like: np.float32(c)
    return lambda c, like: np.float64(c)


def is_double(x) -> bool:
    """Whether ``x`` is a float64 (known when the kernel compiles)."""
    return isinstance(x, (float, np.float64))


@overload(is_double)
def _is_double(x):
    double = isinstance(x, types.Float) and x.bitwidth == 64
    return lambda x: double


def square(x):
    """NumPy's scalar ``x ** 2``: ``pow`` for a float64, ``powf`` for a float32."""
    return x**2


@overload(square)
def _square(x):
    if _is_single(x):
        return lambda x: libm_powf(x, np.float32(2.0))
    return lambda x: libm_pow(np.float64(x), 2.0)


__all__ = ["is_double", "libm_pow", "libm_powf", "square", "weak"]
