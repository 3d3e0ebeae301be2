"""Helpers for numba kernels whose cost is dominated by per-call overheads."""

from __future__ import annotations

from numba import njit
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, arr):
    """``arr`` without its owner (a NULL meminfo): views of it, ``boards[i]`` and the like, are
    then made and dropped without numba's atomic reference counting (several atomics per view
    otherwise, as much as a small board's whole move). Only for use inside the call that
    received ``arr``, which keeps it alive.
    """

    def codegen(context, builder, sig, args):
        view = context.make_array(arr)(context, builder, args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        return view._getvalue()

    return arr(arr), codegen


def inlined(fn):
    """``fn``'s Python function jitted with ``inline="always"`` (``fn`` itself if it has none),
    for numba callers that should not pay a call (nor its reference counting) per use.

    The code is still written once; only where it is compiled differs.
    """
    py_func = getattr(fn, "py_func", None)
    return fn if py_func is None else njit(inline="always")(py_func)


__all__ = ["borrowed", "inlined"]
