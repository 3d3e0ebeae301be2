"""Traced, frozen inference copies of a model, rebuilt when its weights change.

The search runs a network's forward pass in eval mode as ``torch.jit`` graphs: traced, frozen
and optimised for inference (batch norms folded into the convolutions, which run in oneDNN on
pre-packed weights; no Python per layer). A copy goes stale when a weight or buffer changes in
place (an optimizer step, ``load_state_dict``, a Ray actor's weight sync), which the tensors'
version counters tell at about 5 us a call.

A copy may run in bfloat16 (:func:`freeze`'s ``dtype``): its input is cast down and its outputs
back up inside the graph, so callers pass and get float32. On a CPU with native bfloat16
arithmetic (AVX-512 BF16 or AMX) oneDNN's bfloat16 convolutions ran a 64-position batch of
the 9x9 Gomoku network 1.79x faster (3.06 ms against 5.48 ms on one thread, AMD EPYC with
AVX-512 BF16; ``benchmarks/bench_inference_dtype.py``); without it oneDNN emulates them, so
:func:`native_bfloat16` tells the two apart.

``torch.jit`` is deprecated in favour of ``torch.compile``, which needs a C++ compiler at run
time and recompiles when the batch size changes; torch is pinned, and its deprecation warnings
are silenced here only.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import torch

from lzero.envs.config import INFERENCE_DTYPES


class _Cast(torch.nn.Module):
    """``module`` run in ``dtype``: floating inputs cast to it (others, such as actions, kept),
    floating outputs back to float32."""

    def __init__(self, module: torch.nn.Module, dtype: torch.dtype) -> None:
        super().__init__()
        self.module, self.dtype = module, dtype

    def forward(self, *inputs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        outputs = self.module(*(x.to(self.dtype) if x.is_floating_point() else x for x in inputs))
        return tuple(y.float() if y.is_floating_point() else y for y in outputs)


def freeze(
    module: torch.nn.Module, example: Any, dtype: torch.dtype = torch.float32
) -> torch.jit.ScriptModule:
    """A copy of ``module`` in eval mode, traced on ``example`` (a tensor or a tuple of them),
    frozen and optimised for inference; it shares no tensor with ``module``. With ``dtype`` torch.bfloat16 the copy runs on a bfloat16 copy of
    the weights (``module`` is unchanged) and still takes and returns float32 tensors (its
    outputs then as a tuple)."""
    # A copy: a frozen graph may keep the module's own weight tensors as its constants, which
    # a learner thread overlapping self-play (overlap_learning) then changes under it.
    module = copy.deepcopy(module).eval()
    if dtype != torch.float32:
        module = _Cast(module.to(dtype), dtype).eval()
    # check_trace=False: torch's check runs the graph once more and compares it with the
    # module, half the cost of a rebuild (one after every learner step in MuZero's search);
    # the tests compare the frozen steps with the eager model instead
    # (tests/lzero/model/test_frozen.py, test_muzero_policy.py).
    traced = torch.jit.trace(module, example, check_trace=False)
    return torch.jit.optimize_for_inference(torch.jit.freeze(traced))


@functools.cache
def native_bfloat16() -> bool:
    """Whether this CPU does bfloat16 arithmetic natively (the ``avx512_bf16`` or ``amx_bf16``
    flag of Linux's ``/proc/cpuinfo``), where oneDNN's bfloat16 kernels beat float32; False
    where that cannot be told (other systems)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"avx512_bf16", "amx_bf16"})
    except OSError:
        pass
    return False


def inference_dtype(name: str, key: str = "inference_dtype") -> torch.dtype:
    """The torch dtype of an ``inference_dtype`` setting (:data:`INFERENCE_DTYPES`): 'auto' is
    bfloat16 where :func:`native_bfloat16`, else float32. ``key``: the setting's name in the
    messages (``learn_dtype`` takes the same values).

    Raises:
        ValueError: ``name`` is not one of them, or 'bfloat16' on a CPU without native
            bfloat16 (emulated, it is slower than float32).
    """
    if name not in INFERENCE_DTYPES:
        raise ValueError(f"expected {key} in {list(INFERENCE_DTYPES)}, got {name!r}")
    if name == "float32" or (name == "auto" and not native_bfloat16()):
        return torch.float32
    if not native_bfloat16():
        raise ValueError(
            f"{key}='bfloat16' needs a CPU with native bfloat16 arithmetic (the "
            "avx512_bf16 or amx_bf16 flag); this one has neither, and emulated bfloat16 is "
            "slower than float32: use 'float32', or 'auto' (bfloat16 only where native)"
        )
    return torch.bfloat16


class FrozenCache:
    """What ``build`` makes from ``model`` (its :func:`freeze` copies), rebuilt when a weight
    or buffer of ``model`` has changed in place since the last build.

    ``build`` runs with ``model`` in eval mode, under ``torch.no_grad`` and with ``torch.jit``'s
    deprecation warnings silenced.
    """

    def __init__(self, model: torch.nn.Module, build: Callable[[], Any]) -> None:
        self.model, self._build = model, build
        self._weights = [*model.parameters(), *model.buffers()]
        self._value: Any = None
        self._version: tuple | None = None
        self._pinned = 0  # depth of pinned() blocks

    def get(self) -> Any:
        """The current build (the same object while the weights are unchanged)."""
        if self._pinned:
            return self._value
        version = self._weight_version()
        if self._value is None or version != self._version:
            self.model.eval()
            with warnings.catch_warnings(), torch.no_grad():
                warnings.simplefilter("ignore", DeprecationWarning)
                self._value = self._build()
            self._version = version  # building changes no tensor in place
        return self._value

    def _weight_version(self) -> tuple:
        return tuple(t._version for t in self._weights)

    @contextlib.contextmanager
    def held(self) -> Iterator[Any]:
        """A block in which :meth:`get` returns the build current at its start, while another
        thread may change the weights (a learner overlapping self-play); the first :meth:`get`
        after it rebuilds. :meth:`pinned` blocks inside it do not check the weights either."""
        value = self.get()
        self._pinned += 1
        try:
            yield value
        finally:
            self._pinned -= 1

    @contextlib.contextmanager
    def pinned(self) -> Iterator[Any]:
        """A block in which :meth:`get` returns the build current at its start without
        checking the weights (checking them is 6 us a call in isolation, about 50 us between
        a search's forward passes, which leave the tensors out of the CPU's caches).

        Raises:
            RuntimeError: at the end of the block, if a weight or buffer changed inside it
                (the block's evaluations used the weights from before the change).
        """
        value = self.get()
        self._pinned += 1
        try:
            yield value
        finally:
            self._pinned -= 1
        if not self._pinned and self._weight_version() != self._version:
            raise RuntimeError(
                "the model's weights changed inside a pinned() block, whose evaluations used "
                "the weights from its start: change them outside it"
            )
