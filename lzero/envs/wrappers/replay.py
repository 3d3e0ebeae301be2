"""``ReplayRecorder``: collects ``rgb_array`` frames of an episode and writes them with imageio."""

from __future__ import annotations

import importlib.util
import itertools
import math
import os
from typing import Any

import numpy as np

from lzero.envs.config import is_number
from lzero.errors import ConfigError
from lzero.utils.replay_io import check_replay_dir, write_frames_atomic

__all__ = [
    "REPLAY_FORMATS",
    "ReplayRecorder",
    "check_replay_dir",
    "check_replay_format",
    "check_replay_fps",
    "quiet_offscreen_rendering",
]

REPLAY_FORMATS = ("gif", "mp4")
_RECORDERS = itertools.count()


def quiet_offscreen_rendering() -> None:
    """Points SDL (pygame, used by gymnasium's renderers) at its dummy drivers where it has no
    screen, unless the user chose drivers: recording ``rgb_array`` frames needs no window and
    no sound, and on a headless machine SDL otherwise prints display and ALSA errors."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def check_replay_format(fmt: str) -> None:
    """Raises ConfigError unless ``fmt`` is a known format whose writer is installed."""
    if fmt not in REPLAY_FORMATS:
        raise ConfigError(f"replay_format: expected one of {list(REPLAY_FORMATS)}, got {fmt!r}")
    if fmt == "mp4" and not any(
        importlib.util.find_spec(m) is not None for m in ("imageio_ffmpeg", "av")
    ):
        raise ConfigError(
            "replay_format 'mp4': expected imageio-ffmpeg or av to be installed, got neither "
            "(pip install imageio-ffmpeg, or use 'gif')"
        )


def check_replay_fps(fps: Any) -> None:
    """Raises ConfigError unless ``fps`` is a positive, finite number of frames per second."""
    if not (is_number(fps) and math.isfinite(fps) and fps > 0):
        raise ConfigError(
            f"replay_fps: expected a positive number of frames per second, got {fps!r}"
        )


class ReplayRecorder:
    """Keeps the frames of the current episode and writes one file per finished episode.

    Files are named ``{name}_seed{seed}_pid{pid}_rec{r}_episode{k:04d}.{fmt}`` under ``path``:
    ``pid`` and ``r`` (a per-process recorder number) keep envs that share a folder and a seed
    from overwriting each other; ``k`` counts the episodes this recorder wrote. Each is written under a temporary name and renamed, so
    it is either whole or absent. A GIF holds the frame after ``reset`` plus one per step;
    note that the GIF encoder (Pillow) merges consecutive identical frames into one longer
    frame, so a static scene plays the same but stores fewer frames.

    Args:
        path: the directory, created if missing.
        name: the env's name, e.g. its gymnasium id.
        fmt: ``'gif'`` or ``'mp4'``.
        fps: frames per second of the written file.

    Raises:
        ConfigError: an unknown format, an fps that is not a positive number, or ``path`` is
            not a writable directory.
    """

    def __init__(self, path: str, name: str, *, fmt: str = "gif", fps: int = 30) -> None:
        check_replay_format(fmt)
        check_replay_fps(fps)
        check_replay_dir(path)
        self.path, self.name, self.fmt, self.fps = path, name.replace("/", "_"), fmt, fps
        self.frames: list[np.ndarray] = []
        self.count = 0
        self._tag = f"pid{os.getpid()}_rec{next(_RECORDERS)}"

    def start(self, frame: Any) -> None:
        """Drops any unfinished episode and records the first frame of a new one."""
        self.frames = []
        self.add(frame)

    def add(self, frame: Any) -> None:
        """Records one frame.

        Raises:
            ConfigError: ``frame`` is not an `[H, W, 3]` image (the env was not built with
                ``render_mode='rgb_array'``).
        """
        arr = None if frame is None else np.asarray(frame)
        if arr is None or arr.ndim != 3 or arr.shape[2] not in (3, 4):
            got = "None" if arr is None else f"shape {arr.shape}"
            raise ConfigError(
                "enable_save_replay: expected render() to return an [H, W, 3] rgb_array frame, "
                f"got {got} (build the env with render_mode='rgb_array')"
            )
        self.frames.append(arr.astype(np.uint8, copy=True))

    def finish(self, seed: int | None) -> str:
        """Writes the episode's frames and returns the file's path.

        Raises:
            OSError: the file could not be written (no partial file is left); ConfigError:
                the folder is no longer writable. The frames are dropped either way.
        """
        base = f"{self.name}_seed{seed}_{self._tag}_episode{self.count:04d}.{self.fmt}"
        frames, self.frames = self.frames, []  # the next episode starts afresh either way
        self.count += 1
        file = os.path.join(check_replay_dir(self.path), base)
        if self.fmt == "gif":
            write_frames_atomic(frames, file, duration=1000 / self.fps, loop=0)
        else:
            write_frames_atomic(frames, file, fps=self.fps)
        return file
