"""The C library's ``pow`` and ``powf`` inside numba kernels, called as NumPy and Python call them.

NumPy's scalar ``x ** 2`` (``np.float64`` and ``np.float32``) and Python's ``x ** 2`` and
``math.pow`` call the C library's ``pow``, which is not always correctly rounded: for about
one double in a thousand, ``pow(x, 2.0)`` differs from ``x * x`` in the last bit. numba
compiles ``x ** 2`` to ``x * x``, and LLVM rewrites a call to ``pow(x, 2.0)`` to ``x * x``
too, since it knows the name. A kernel that must equal a peer bit for bit calls these
instead: the declaration is marked ``nobuiltin``, so LLVM keeps the call to the library's
function (the same one NumPy calls) and numba can still cache the kernel.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


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

__all__ = ["libm_pow", "libm_powf"]
