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


@pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(), reason="signals: main thread"
)
def test_the_first_signal_waits_for_the_safe_point_and_the_second_stops_at_once():
    from lzero.utils.signals import stopping_at_safe_points

    said, seen = [], []

    def handler(signum, frame):
        seen.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    try:
        with stopping_at_safe_points(said.append) as stop:
            signal.raise_signal(signal.SIGINT)  # held: nothing raised here
            assert seen == [] and said == [
                "SIGINT: stopping at the end of this iteration, to save a run that resumes "
                "exactly; send it again to stop now"
            ]
            with pytest.raises(KeyboardInterrupt):
                stop.check()  # the safe point runs the handler it held
            assert seen == [signal.SIGINT]
            stop.check()  # nothing pending: nothing raised
            signal.raise_signal(signal.SIGINT)
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)  # the second: at once
            assert seen == [signal.SIGINT] * 2
        assert signal.getsignal(signal.SIGINT) is handler  # put back
    finally:
        signal.signal(signal.SIGINT, previous)
