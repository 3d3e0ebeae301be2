"""Reading a running command's output in the board-game CLI tests."""

from __future__ import annotations

import os
import select
import subprocess
import time


def read_until(proc: subprocess.Popen, marker: bytes, timeout: float = 60) -> bytes:
    """``proc``'s stdout read until it holds ``marker`` (asserted), or ``timeout`` s passed."""
    out, deadline = b"", time.time() + timeout
    while marker not in out and time.time() < deadline:
        if select.select([proc.stdout], [], [], 0.1)[0]:
            out += os.read(proc.stdout.fileno(), 4096)
    assert marker in out, out
    return out
