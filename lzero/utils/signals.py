"""Signal handling of the command line: SIGTERM and SIGHUP end a command through its
``finally`` blocks, and no signal is raised while numba compiles.

Raised while numba compiles (or loads a kernel from its cache), an exception can come inside
LLVM's callbacks into Python, where ctypes prints it as ignored and the program goes on (a
Ctrl-C or a ``kill`` lost), or the process aborts ("double free"). The handlers here, and any
wrapped with :func:`held_while_compiling`, record such a signal and deliver it to the handler
in force once the compilation has ended.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

#: Compilations under way in the main thread, and the signals that came meanwhile.
_COMPILING: dict[str, Any] = {"depth": 0, "pending": []}


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def held_while_compiling(handler: Callable[[int, Any], None]) -> Callable[[int, Any], None]:
    """``handler`` as a signal handler that, while numba compiles (within
    :func:`interrupts_outside_compilation`), records the signal to be delivered after."""

    def held(signum: int, frame: Any) -> None:
        if _COMPILING["depth"]:
            _COMPILING["pending"].append(signum)
        else:
            handler(signum, frame)

    return held


def _deliver_pending() -> None:
    pending = list(dict.fromkeys(_COMPILING["pending"]))  # each once, in order of arrival
    _COMPILING["pending"].clear()
    for signum in pending:  # the first handler that raises ends it
        handler = signal.getsignal(signum)
        if callable(handler):
            handler(signum, None)
        else:
            signal.raise_signal(signum)


@contextlib.contextmanager
def interrupts_outside_compilation() -> Iterator[None]:
    """Within it, Ctrl-C raises ``KeyboardInterrupt`` outside numba's compilations only; one
    that comes during one, and any signal a :func:`held_while_compiling` handler takes, is
    delivered when it has ended (the ``numba:compiler_lock`` event of numba's event API). A
    SIGINT handler other than Python's default is left as it is, as are other threads."""
    import numba.core.event as numba_event

    if not _in_main_thread() or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return

    class Guard(numba_event.Listener):
        # Counted in the main thread only: the signal handlers run there.
        def on_start(self, event: Any) -> None:
            if _in_main_thread():
                _COMPILING["depth"] += 1

        def on_end(self, event: Any) -> None:
            if _in_main_thread():
                _COMPILING["depth"] -= 1
                if _COMPILING["depth"] == 0 and _COMPILING["pending"]:
                    _deliver_pending()

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, held_while_compiling(interrupt))
    try:
        with numba_event.install_listener("numba:compiler_lock", Guard()):
            yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _COMPILING["pending"].clear()


#: The signals that end a command from outside: ``kill``/``timeout``/a scheduler, and a
#: closed terminal (Windows has no SIGHUP).
TERMINATION_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def raising_on_termination(
    exception: Callable[[int], BaseException], replaces: Callable[[int, Any], bool]
) -> Iterator[None]:
    """Within it, each of :data:`TERMINATION_SIGNALS` whose handler in force ``replaces(signum,
    handler)`` accepts raises ``exception(signum)`` in the main thread, held while numba
    compiles; the handlers are restored after. Outside the main thread it does nothing."""
    if not _in_main_thread():
        yield
        return

    @held_while_compiling
    def raise_it(signum: int, frame: Any) -> None:
        raise exception(signum)

    previous = {s: signal.getsignal(s) for s in TERMINATION_SIGNALS}
    replaced = [s for s, handler in previous.items() if replaces(s, handler)]
    for signum in replaced:
        signal.signal(signum, raise_it)
    try:
        yield
    finally:
        for signum in replaced:
            signal.signal(signum, previous[signum])


def exiting_on_termination() -> contextlib.AbstractContextManager[None]:
    """Within it, SIGTERM and SIGHUP (``kill``, ``timeout``, a closed terminal) raise
    ``SystemExit(128 + signal)`` in the main thread, so that ``finally`` blocks run (the folders
    ``--gif`` made are removed) where Python's default would end the process at once; held
    while numba compiles. A signal whose handler is not the default (ignored under ``nohup``,
    or the caller's own) is left as it is."""
    return raising_on_termination(
        lambda signum: SystemExit(128 + signum),
        lambda signum, handler: handler is signal.SIG_DFL,
    )


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a batch scheduler) or SIGHUP (the terminal closed) during
    ``lzero train``, raised as an interrupt so that the run stops as on Ctrl-C: its last
    checkpoint written, its stop line printed. The command line exits with 128 + ``signum``
    (143, 129)."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__()
        self.signum = int(signum)


def interruptible(fn: Callable[[], Any], poll_s: float = 0.05) -> Any:
    """``fn()``, called in a daemon thread while the calling thread waits in short joins, so
    that Ctrl-C and the handlers above still run during a long numba call: Python runs signal
    handlers in the main thread between its bytecodes only, which a numba call made from the
    main thread holds off for its whole length. ``fn`` must release the GIL for that (numba's
    ``nogil=True``), and should not compile: compile in the calling thread first (an
    interrupt that ends the process while another thread is inside LLVM can abort it).

    An interrupt (or ``SystemExit`` from a handler) is raised here at once and ``fn`` is left
    running, its result dropped, until the process exits: for commands that exit on it.
    ``fn``'s own exception is raised here.
    """
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as err:  # handed to the waiting thread, which raises it
            outcome["error"] = err

    worker = threading.Thread(target=work, name="interruptible", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(poll_s)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


class SafeStop:
    """What :func:`stopping_at_safe_points` yields: :meth:`check` raises, at a point where the
    caller's state is whole, the exception of a signal that came since the last check."""

    def __init__(self) -> None:
        self.pending: tuple[int, Any] | None = None  # (signal, the handler it would have run)

    def check(self) -> None:
        """Runs the handler of a signal that came since the last check (it raises), if any."""
        if self.pending is not None:
            signum, handler = self.pending
            self.pending = None
            handler(signum, None)


@contextlib.contextmanager
def stopping_at_safe_points(announce: Callable[[str], None]) -> Iterator[SafeStop]:
    """Within it, the first Ctrl-C, SIGTERM or SIGHUP is held until the caller's next
    :meth:`SafeStop.check` (a training loop: at the end of an iteration, so that what it saves
    is a state it can continue from exactly), and ``announce`` is told so; a second one runs
    its handler at once. A signal whose handler is not callable (the default of SIGTERM and
    SIGHUP, or ignored under ``nohup``) is left alone, as everything is outside the main
    thread."""
    stop = SafeStop()
    if not _in_main_thread():
        yield stop
        return
    signums = (signal.SIGINT, *TERMINATION_SIGNALS)
    previous = {s: signal.getsignal(s) for s in signums}
    held = [s for s, handler in previous.items() if callable(handler)]

    def hold(signum: int, frame: Any) -> None:
        if stop.pending is not None:  # the second: at once
            previous[signum](signum, frame)
            return
        stop.pending = (signum, previous[signum])
        name = signal.Signals(signum).name
        announce(
            f"{name}: stopping at the end of this iteration, to save a run that resumes "
            f"exactly; send it again to stop now"
        )

    for signum in held:
        signal.signal(signum, hold)
    try:
        yield stop
    finally:
        for signum in held:
            signal.signal(signum, previous[signum])
