"""A training run's state beyond its weights, as plain values a checkpoint holds: the replay
buffer, the collector's games in flight and every random stream, so that ``--resume``
continues a run as if it had never stopped.

Checkpoints are read with torch's safe loader (``weights_only=True``), which takes tensors and
plain Python values only. :func:`pack` turns NumPy arrays (any dtype, bool and uint64 too) into
byte tensors with their dtype and shape, and NumPy generators into their bit generator's state
dict; :func:`unpack` turns them back. Both walk dicts, lists and tuples.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import torch

from lzero.errors import ConfigError

#: The version of the run state's layout; a checkpoint with another is refused on resume.
RUN_STATE_FORMAT = 1

_ARRAY = "__ndarray__"

#: The end of a training run's stop line when it stopped inside an iteration (a second Ctrl-C,
#: a failure): its last checkpoint has newer weights, but no run state to continue exactly.
MID_ITERATION = (
    " (written inside an iteration: without the run state, so a resume refills the replay "
    "buffer and starts the random streams again)"
)


def pack(value: Any) -> Any:
    """``value`` with every ndarray as ``{_ARRAY: bytes tensor, 'dtype', 'shape'}``."""
    if isinstance(value, np.ndarray):
        flat = np.ascontiguousarray(value).reshape(-1).view(np.uint8)
        return {_ARRAY: torch.from_numpy(flat.copy()), "dtype": value.dtype.str,
                "shape": tuple(value.shape)}  # fmt: skip
    if isinstance(value, dict):
        return {k: pack(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(pack(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def unpack(value: Any) -> Any:
    """The inverse of :func:`pack` (arrays come back writable and owning their memory)."""
    if isinstance(value, dict):
        if _ARRAY in value:
            raw = value[_ARRAY].numpy()
            return raw.view(np.dtype(value["dtype"])).reshape(value["shape"]).copy()
        return {k: unpack(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(unpack(v) for v in value)
    return value


def generator_state(rng: np.random.Generator) -> dict:
    """The state of a NumPy generator, to be given back by :func:`set_generator_state`."""
    return rng.bit_generator.state


def set_generator_state(rng: np.random.Generator, state: dict) -> None:
    """Puts ``rng`` back in ``state`` (of the same bit generator)."""
    rng.bit_generator.state = state


def global_rng_state() -> dict:
    """The global streams: Python's ``random``, NumPy's legacy ``np.random`` and torch's CPU
    generator."""
    kind, keys, pos, has_gauss, gauss = np.random.get_state()
    return {
        "python": random.getstate(),
        "numpy": (kind, keys, int(pos), int(has_gauss), float(gauss)),
        "torch": torch.get_rng_state(),
    }


def set_global_rng_state(state: dict) -> None:
    """Puts the global streams back as :func:`global_rng_state` recorded them."""
    version, internal, gauss = state["python"]
    random.setstate((version, tuple(internal), gauss))
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


def check_run_state_format(packed: Any, where: Any) -> None:
    """Raises ConfigError unless ``packed`` (a checkpoint's ``run_state``, read from
    ``where``) is of :data:`RUN_STATE_FORMAT`, saying whether it is newer or older."""
    fmt = packed.get("format") if isinstance(packed, dict) else None
    if fmt == RUN_STATE_FORMAT:
        return
    if isinstance(fmt, int):
        age = f"{'newer' if fmt > RUN_STATE_FORMAT else 'older'} than this version's"
    else:
        age = "not a format of this version, whose format is"
    raise ConfigError(
        f"resume: {where} holds a run state of format {fmt!r} ({age} {RUN_STATE_FORMAT}): "
        "resume it with the version that wrote it, or train on from its weights in a new run "
        "(policy.model_path)"
    )
