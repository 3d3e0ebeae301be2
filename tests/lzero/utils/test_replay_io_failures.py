"""``write_frames_atomic`` when the file system refuses the write half-way."""

from __future__ import annotations

import contextlib
import errno
import gc
import os
import signal
import sys

import numpy as np
import pytest

from lzero.utils.replay_io import write_frames_atomic

resource = pytest.importorskip("resource")


@contextlib.contextmanager
def file_size_limit(nbytes: int):
    """Files of this process can grow to ``nbytes`` (``ulimit -f``); writes beyond fail."""
    if signal.getsignal(signal.SIGXFSZ) != signal.SIG_IGN:
        pytest.skip("SIGXFSZ is not ignored: going over the limit would kill the process")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def test_a_write_over_the_file_size_limit_fails_once_and_leaves_nothing(tmp_path, monkeypatch):
    # imageio's writer kept the frames it failed to write and wrote them again when collected:
    # a second traceback ("Exception ignored in PluginV3.__del__") after the error itself.
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 256, (64, 64, 3), dtype=np.uint8) for _ in range(4)]
    with file_size_limit(1024), pytest.raises(OSError, match=os.strerror(errno.EFBIG)):
        write_frames_atomic(frames, tmp_path / "a.gif", duration=100, loop=0)
    gc.collect()
    assert unraisable == [] and os.listdir(tmp_path) == []
