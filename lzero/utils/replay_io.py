"""Writing replays (GIF or MP4) so that a file is either whole or absent.

Shared by the gym adapters' recorder and the board games' renderer.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import tempfile
import traceback
from collections.abc import Iterator
from typing import Any

import numpy as np

from lzero.errors import ConfigError


def check_replay_dir(path: str | os.PathLike, name: str = "replay_path") -> str:
    """Creates ``path`` if needed and checks it is a writable directory; returns it.

    Raises:
        ConfigError: the directory cannot be created or written to (the message names the
            setting ``name`` and says why).
    """
    path = os.fspath(path)
    try:
        os.makedirs(path, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ConfigError(
            f"{name}: expected a writable directory, got {path!r} (it or a folder above it is "
            "a file)"
        ) from None
    except OSError as err:
        raise ConfigError(
            f"{name}: expected a writable directory, got {path!r} (creating it failed: "
            f"{err.strerror})"
        ) from None
    if not os.path.isdir(path):
        raise ConfigError(f"{name}: expected a writable directory, got {path!r}")
    try:  # a file really made and removed: os.access says yes to root on /proc, /sys, ...
        fd, probe = tempfile.mkstemp(dir=path, prefix=".lzero-write-check-")
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise ConfigError(
            f"{name}: expected a writable directory, got {path!r} (creating a file in it "
            f"failed: {err.strerror})"
        ) from None
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


def names_file(gif: str) -> bool:
    """True if ``gif`` names a GIF file rather than a folder."""
    return gif.lower().endswith(".gif")


def check_gif_target(gif: str) -> None:
    """Refuses a ``--gif`` that is neither a ``.gif`` file nor a folder, before any game.

    Raises:
        ConfigError: ``gif`` ends in ``.gif`` but is a directory, or ends in another suffix
            (``x.png``) and is not an existing folder, or its folder cannot be made or written
            in; says what is allowed.
    """
    if names_file(gif):
        if os.path.isdir(gif):
            raise ConfigError(f"--gif: expected a .gif file to write, got {gif!r}, a directory")
    else:
        suffix = os.path.splitext(os.path.basename(os.path.normpath(gif)))[1]
        if suffix and not os.path.isdir(gif):
            raise ConfigError(
                f"--gif: expected a file ending in .gif or a folder, got {gif!r} (a {suffix} "
                "file; GIF is the only format saved, and a new folder's name has no suffix)"
            )
    check_replay_dir(gif_folder(gif), "--gif's folder")


def gif_folder(gif: str) -> str:
    """The folder the env records into for ``--gif``."""
    return os.path.dirname(os.path.abspath(gif)) if names_file(gif) else gif


def place_replay(path: str, gif: str, target: str | None = None) -> tuple[str, str | None]:
    """Moves the replay an env wrote at ``path`` to ``target`` (default ``gif``) when ``gif``
    names a file (``--gif``); a folder keeps the env's own name.

    Returns:
        ``(where the replay is, None)``, or ``(path, why it is not at target)``.
    """
    if not names_file(gif):
        return path, None
    target = target or gif
    try:
        os.replace(path, target)
    except OSError as err:  # e.g. ``gif`` became a directory meanwhile
        return path, f"not saved as {target} ({err.strerror}), but as {path}"
    return target, None


@contextlib.contextmanager
def removing_unused_folders(gif: str | None) -> Iterator[None]:
    """Removes, on leaving, the folders that ``--gif`` made (its folder and any missing above
    it) if they are still empty: a game abandoned, or an error after the folder was checked.

    The folder is made before the game, to refuse one that cannot be written; a folder that
    existed before, or holds anything, is left alone.
    """
    made = []  # deepest first
    if gif is not None:
        path = os.path.abspath(gif_folder(gif))
        while not os.path.lexists(path) and os.path.dirname(path) != path:
            made.append(path)
            path = os.path.dirname(path)
    try:
        yield
    finally:
        for path in made:
            try:
                os.rmdir(path)
            except OSError:  # not empty (a game saved), or never made
                break
