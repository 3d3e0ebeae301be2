"""Writing replays (GIF or MP4) so that a file is either whole or absent.

Shared by the gym adapters' recorder and the board games' renderer.
"""

from __future__ import annotations

import os
import secrets
import sys
import traceback
from typing import Any

import numpy as np

from lzero.errors import ConfigError


def check_replay_dir(path: str | os.PathLike) -> str:
    """Creates ``path`` if needed and checks it is a writable directory; returns it.

    Raises:
        ConfigError: the directory cannot be created or written to.
    """
    path = os.fspath(path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        raise ConfigError(
            f"replay_path: expected a writable directory, got {path!r} ({err})"
        ) from None
    if not os.path.isdir(path) or not os.access(path, os.W_OK | os.X_OK):
        raise ConfigError(f"replay_path: expected a writable directory, got {path!r}")
    return path


def write_frames_atomic(frames: Any, path: str | os.PathLike, **imwrite_kwargs: Any) -> str:
    """Writes ``frames`` (`[T, Hpx, Wpx, 3]` uint8) to ``path`` with imageio, atomically.

    The file is written under a temporary name in the same directory and renamed into place,
    so ``path`` is either the whole file or absent, also when writing fails or is interrupted.
    The writer is chosen by ``path``'s extension.

    Args:
        frames: the frames, stacked or as a list.
        path: the destination; its directory must exist and be writable.
        **imwrite_kwargs: passed to ``imageio.v3.imwrite`` (``duration``, ``loop``, ``fps``).

    Returns:
        ``path`` as a string.

    Raises:
        ConfigError: the directory is not writable (nothing is left behind).
        OSError: no writer for the extension, or creating, writing or renaming the file failed,
            e.g. the disk or the file size limit is full (nothing is left behind).
    """
    import imageio.v3 as iio

    path = os.fspath(path)
    folder = check_replay_dir(os.path.dirname(os.path.abspath(path)))
    # Not tempfile.mkstemp: its file is 0600 and os.replace keeps that mode; mode 0o666 here
    # goes through the umask like any new file's. The name keeps the extension imageio needs.
    tmp = os.path.join(folder, f".tmp-{secrets.token_hex(6)}-{os.path.basename(path)}")
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        iio.imwrite(tmp, np.stack(frames), **imwrite_kwargs)
        os.replace(tmp, path)
    except BaseException as err:
        if os.path.exists(tmp):
            os.remove(tmp)
        _free_quietly(err)
        raise
    return path


def _free_quietly(err: BaseException) -> None:
    """Frees the objects the frames of ``err``'s traceback hold, ignoring their complaints.

    imageio's writers keep the frames they failed to write and write them again when freed,
    which printed a second traceback ("Exception ignored in ... PluginV3.__del__") after the
    error itself (a full disk stays full). The traceback keeps its lines, not its locals.
    """
    hook = sys.unraisablehook
    sys.unraisablehook = _ignore
    try:
        traceback.clear_frames(err.__traceback__)
    finally:
        sys.unraisablehook = hook


def _ignore(unraisable: Any) -> None:
    pass
