"""``interruptible``: a call in another thread that the waiting thread's handlers can leave."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from lzero.utils.signals import interruptible


def test_the_result_and_the_error_of_the_call_come_back():
    assert interruptible(lambda: 6 * 7) == 42
    with pytest.raises(ZeroDivisionError):
        interruptible(lambda: 1 / 0)


def test_a_signal_handler_runs_while_the_call_blocks_and_leaves_it():
    """The call waits on an event (as a numba call without the GIL would run on); a SIGALRM
    handler that raises ends the wait at once, and the call goes on until released."""
    release, finished = threading.Event(), threading.Event()

    def blocking():
        release.wait(30)
        finished.set()

    def raise_it(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, raise_it)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        start = time.time()
        with pytest.raises(KeyboardInterrupt):
            interruptible(blocking)
        assert time.time() - start < 5 and not finished.is_set()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        release.set()
    assert finished.wait(5)
