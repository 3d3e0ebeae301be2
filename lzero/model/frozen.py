"""Traced, frozen inference copies of a model, rebuilt when its weights change.

The search runs a network's forward pass in eval mode as ``torch.jit`` graphs: traced, frozen
and optimised for inference (batch norms folded into the convolutions, which run in oneDNN on
pre-packed weights; no Python per layer). A copy goes stale when a weight or buffer changes in
place (an optimizer step, ``load_state_dict``, a Ray actor's weight sync), which the tensors'
version counters tell at about 5 us a call.

``torch.jit`` is deprecated in favour of ``torch.compile``, which needs a C++ compiler at run
time and recompiles when the batch size changes; torch is pinned, and its deprecation warnings
are silenced here only.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import torch


def freeze(module: torch.nn.Module, example: Any) -> torch.jit.ScriptModule:
    """``module`` in eval mode, traced on ``example`` (a tensor or a tuple of them), frozen and
    optimised for inference."""
    traced = torch.jit.trace(module.eval(), example)
    return torch.jit.optimize_for_inference(torch.jit.freeze(traced))


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

    def get(self) -> Any:
        """The current build (the same object while the weights are unchanged)."""
        version = tuple(t._version for t in self._weights)
        if self._value is None or version != self._version:
            self.model.eval()
            with warnings.catch_warnings(), torch.no_grad():
                warnings.simplefilter("ignore", DeprecationWarning)
                self._value = self._build()
            self._version = version  # building changes no tensor in place
        return self._value
