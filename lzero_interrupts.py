"""What the ``lzero`` command knows of interrupts before the package is imported, for both
its entry point (``lzero_console``) and its command line (``lzero.cli``): a module outside
the package, importing nothing of it, below every layer of ``lzero``."""

from __future__ import annotations

#: Interactive subcommands, for which Ctrl-C is a normal way to leave (exit code 0).
INTERACTIVE_COMMANDS = ("play", "serve")


def interrupt_behind(err: BaseException | None) -> KeyboardInterrupt | None:
    """The interrupt ``err`` is, or was raised while handling, or None: a library that catches
    the KeyboardInterrupt (numba's compiler, a C callback) and raises its own error instead
    keeps it as the cause or context."""
    seen = set()
    while err is not None and id(err) not in seen:
        if isinstance(err, KeyboardInterrupt):
            return err
        seen.add(id(err))
        err = err.__cause__ or err.__context__
    return None
