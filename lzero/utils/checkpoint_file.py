"""Reading a checkpoint file with torch's safe loader, every failure a clear ``ConfigError``;
writing one whole or not at all."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch

from lzero.errors import ConfigError


def plain(value: Any) -> Any:
    """``value`` with every mapping a plain dict, for ``torch.load(weights_only=True)``."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


def check_checkpoint_exists(path: str | Path, what: str) -> Path:
    """``path`` as a Path, or ConfigError if it is missing or a directory (checked before
    an entry builds anything; ``what`` as in :func:`load_checkpoint_file`)."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"expected {what} file, got {str(path)!r}, which is a directory")
    if not path.is_file():
        raise ConfigError(f"expected {what} file, got {str(path)!r} (not found)")
    return path


def load_checkpoint_file(path: str | Path, what: str) -> Any:
    """``torch.load(path, weights_only=True)`` on the CPU.

    Args:
        path: the file.
        what: how messages name the file's role (``'an AlphaZero checkpoint'``, ...).

    Raises:
        ConfigError: ``path`` is missing, a directory, empty, cut short, or not a checkpoint
            that the safe loader reads (the message says which, not torch's advice to load it
            unsafely).
    """
    path = check_checkpoint_exists(path, what)
    if path.stat().st_size == 0:
        raise ConfigError(f"expected {what}, got {str(path)!r}, which is empty")
    with open(path, "rb") as f:
        head = f.read(4)
    # torch.save writes a zip archive (a local file header first), its legacy format a pickle
    is_zip, pickled = head == b"PK\x03\x04", head[:1] == b"\x80"
    if not (is_zip or pickled):
        raise ConfigError(
            f"expected {what}, got {str(path)!r}, which is not a file torch.save writes "
            "(neither its zip format nor its legacy pickle): checkpoints are the .pth.tar "
            "files lzero train writes under <exp_name>/ckpt/"
        )
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises several types for a file that is not its own
        text = str(err).strip()
        if is_zip and "inline_container" in text:
            reason = "it is a zip archive, but not one torch.save wrote"
        elif "Weights only load failed" in text:
            reason = "it holds Python objects beyond tensors and plain values"
        elif isinstance(err, (EOFError, OSError)) or "central directory" in text:
            reason = f"it looks cut short or is not a torch file ({type(err).__name__})"
        else:
            reason = text.splitlines()[0] if text else type(err).__name__
        raise ConfigError(
            f"expected {what}, got {str(path)!r}, which torch's safe loader cannot read: {reason}"
        ) from err


def save_checkpoint_file(state: Any, path: str | Path) -> None:
    """``torch.save(state, path)`` that never leaves ``path`` half-written: the file is written
    beside it under a temporary name, flushed to the disk and renamed over ``path``, so a kill
    or a full disk during the save leaves the previous file whole (a failed write removes the
    temporary file and raises)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            torch.save(state, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:  # the rename itself survives a power cut once the folder is synced
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:  # a folder that cannot be opened (some platforms): the rename stands
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # not every file system syncs a folder; the file itself is synced above
    finally:
        os.close(fd)
