"""The ``lzero`` command's entry point, outside the package: importing ``lzero`` loads numba
and gymnasium (about half a second, seconds on a cold disk), and a Ctrl-C in that time would
otherwise print the import's traceback instead of the command line's one-line exit."""

from __future__ import annotations

import importlib
import sys

from lzero_interrupts import INTERACTIVE_COMMANDS, interrupt_behind


def main() -> int:
    """Imports the command line and runs it (``lzero.cli.main``); Ctrl-C during the import
    exits as it does later: one line, and 130 (0 from ``lzero play``)."""
    try:
        from lzero.cli import main as run
    except BaseException as err:
        if interrupt_behind(err) is None:
            raise
        print("\ninterrupted", file=sys.stderr)
        return 0 if sys.argv[1:2] and sys.argv[1] in INTERACTIVE_COMMANDS else 130
    return run()


def run(target: str, *args: object) -> None:
    """Imports ``'module:function'`` and calls it with ``args``: the zoo's scripts (LightZero's
    eval file names) end with it, so that a Ctrl-C while the package imports exits with one
    line and 130, as the ``lzero`` command does."""
    module, _, name = target.partition(":")
    try:
        function = getattr(importlib.import_module(module), name)
    except BaseException as err:
        if interrupt_behind(err) is None:
            raise
        print("\ninterrupted", file=sys.stderr)
        sys.exit(130)
    function(*args)


if __name__ == "__main__":
    sys.exit(main())
