"""Helpers for numba kernels whose cost is dominated by per-call overheads."""

from __future__ import annotations

from numba import njit, types
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


@intrinsic
def address_as_pointer(typingctx, address):
    """The integer ``address`` as a ``void*``, for ``numba.carray(ptr, shape, dtype)``: how a
    kernel built as a closure reaches mutable arrays that are not among its arguments (numba
    freezes captured arrays into read-only constants). Relies on the arrays' owner keeping
    them alive, unmoved, for as long as the kernel may run (the Connect4 perfect bot's tables
    live in a module-level solver; tests/lzero/envs/pool/test_board_pool.py guards its use).
    """
    if not isinstance(address, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(address), codegen


def inlined(fn):
    """``fn``'s Python function jitted with ``inline="always"`` (``fn`` itself if it has none),
    for numba callers that should not pay a call (nor its reference counting) per use.

    The code is still written once; only where it is compiled differs.
    """
    py_func = getattr(fn, "py_func", None)
    return fn if py_func is None else njit(inline="always")(py_func)


__all__ = ["address_as_pointer", "borrowed", "inlined"]
