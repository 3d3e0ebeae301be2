"""Argument types and the missing-peer exit shared by the benchmark scripts.

A bad value stops a script while its arguments are parsed (argparse's usage line, then
``argument --x: expected ..., got ...``, exit code 2), before anything is compiled, solved
or trained. ``positive_int`` and ``non_negative_int`` are the ``lzero`` command's own; the
scripts' help shows defaults with its formatter, ``lzero.cli.DefaultsHelp``.
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Callable
from types import ModuleType

from lzero.cli import DefaultsHelp
from lzero.cli_train import int_in as cli_int_in
from lzero.cli_train import non_negative_int, positive_int

__all__ = [
    "INSTALL",
    "int_in",
    "non_negative_float",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "require",
    "script_parser",
]

#: How to install each optional library the benchmarks use (the extras of setup.py).
INSTALL = {
    "bitbully": "pip install -e '.[bench]' (or pip install 'bitbully>=0.0.79')",
    "pettingzoo": "pip install -e '.[pettingzoo]' (or pip install 'pettingzoo>=1.24')",
    "ray": "pip install -e '.[ray]' (or pip install 'ray>=2.10')",
    "torch": "pip install -e '.[train]' (it pins the CPU build, torch==2.13.0)",
}


def script_parser(doc: str) -> argparse.ArgumentParser:
    """A script's parser: the first paragraph of its docstring ``doc`` as the description, and
    each option's default shown in ``--help`` (the ``lzero`` command's formatter)."""
    return argparse.ArgumentParser(
        description=" ".join(doc.split("\n\n")[0].split()), formatter_class=DefaultsHelp
    )


def int_in(lowest: int, highest: int, why: str = "") -> Callable[[str], int]:
    """An argparse type: an int from ``lowest`` to ``highest`` inclusive (``why``: the
    reason for the bounds, added to the message); the ``lzero`` command's parser of ints."""
    reason = f" ({why})" if why else ""
    return cli_int_in(lowest, highest + 1, f"an int from {lowest} to {highest}{reason}")


def _number(lowest: float, strict: bool, what: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < lowest or (strict and value == lowest):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


positive_float = _number(0.0, True, "a finite number > 0")
non_negative_float = _number(0.0, False, "a finite number >= 0")


def require(module: str, what: str) -> ModuleType:
    """``module`` imported, or an exit (code 1) with one line: ``what`` needs it, and the
    command that installs it (:data:`INSTALL`)."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise SystemExit(
            f"{what} needs {module}: {err}; install it with {INSTALL[module]}"
        ) from None
