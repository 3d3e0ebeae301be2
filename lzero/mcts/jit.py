"""Compiling the search's entry points so that numba caches them, and calling them cheaply.

numba's on-disk cache cannot key a function that takes a jitted function (a dispatcher) as an
argument (numba issues #6264, #9237): such a function is recompiled in every process. It can
key a ``FunctionType`` argument, so the search's entry points are compiled against explicit
signatures (``lzero.mcts.game``) and game kernels are passed as ``NativeFunction`` objects.
"""

from __future__ import annotations

import functools

from numba import njit, types
from numba.core.types.function_type import WrapperAddressProtocol
from numba.experimental.function_type import _get_wrapper_address

__all__ = ["NativeFunction", "compiled_on_first_call"]


class NativeFunction(WrapperAddressProtocol):
    """A jitted function bound to one ``FunctionType`` once, for passing to kernels.

    Passing a dispatcher where a kernel expects a ``FunctionType`` makes numba look the
    compiled address up on every call (about 25 us per function argument); this object looks
    it up once (numba's wrapper-address protocol) and keeps the dispatcher alive.
    """

    def __init__(self, dispatcher, function_type: types.FunctionType) -> None:
        self.dispatcher = dispatcher
        self._signature = function_type.signature
        self._address = _get_wrapper_address(dispatcher, self._signature)

    def __wrapper_address__(self) -> int:
        return self._address

    def signature(self):
        return self._signature


def compiled_on_first_call(signature):
    """Compiles ``py_func`` with ``signature`` (cached on disk) when it is first called, so
    that importing the package compiles nothing.

    Calls go straight to the compiled overload's entry point: with one fixed signature there
    is nothing to dispatch, and numba's type dispatch of a ``Tree`` and five function
    arguments costs 20-30 us per call, a few percent of a 1,000-simulation search. The
    arguments must have the signature's types (``BatchedSearch`` guarantees it); ``.compiled()``
    returns the checking dispatcher.
    """

    def decorate(py_func):
        @functools.cache
        def compiled():
            return njit(signature, cache=True)(py_func)

        @functools.cache
        def entry_point():
            dispatcher = compiled()
            return dispatcher.overloads[dispatcher.signatures[0]].entry_point

        @functools.wraps(py_func)
        def call(*args):
            return entry_point()(*args)

        call.compiled = compiled
        return call

    return decorate
