"""Argument types and the missing-peer exit shared by the benchmark scripts.

A bad value stops a script while its arguments are parsed (argparse's usage line, then
``argument --x: expected ..., got ...``, exit code 2), before anything is compiled, solved
or trained. ``positive_int`` and ``non_negative_int`` are the ``lzero`` command's own; the
scripts' help shows defaults with its formatter, ``lzero.cli.DefaultsHelp``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import math
import re
from collections.abc import Callable
from types import ModuleType

from lzero.cli import DefaultsHelp
from lzero.cli_train import int_in as cli_int_in
from lzero.cli_train import non_negative_int, positive_int

__all__ = [
    "EXTRAS",
    "int_in",
    "non_negative_float",
    "non_negative_int",
    "positive_float",
    "positive_int",
    "install_command",
    "require",
    "script_parser",
    "cpu_model",
    "machine_record",
    "pretrained_or_file",
    "write_results",
]

#: PyTorch's wheel index of CPU builds (README, "The two commands").
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

#: The extra of setup.py that installs each optional library the benchmarks use.
EXTRAS = {
    "bitbully": "bench",
    "matplotlib": "train",
    "pettingzoo": "pettingzoo",
    "ray": "ray",
    "torch": "train",
}


def install_command(module: str) -> str:
    """How to install ``module``: its extra, and the requirement that extra pins, as the
    installed ``lzero-suite``'s metadata gives it (setup.py's ``extras_require``, read, not
    copied; without the metadata, the extra alone)."""
    extra = EXTRAS[module]
    try:
        requirements = importlib.metadata.requires("lzero-suite") or []
    except importlib.metadata.PackageNotFoundError:
        requirements = []
    for line in requirements:
        spec, _, marker = line.partition(";")
        name = re.match(r"[A-Za-z0-9_.-]+", spec.strip()).group(0)
        if name.lower() == module and re.search(rf"extra\s*==\s*['\"]{extra}['\"]", marker):
            command = f"pip install '{spec.strip()}'"
            if module == "torch":  # the README's way: the CPU build, not several GB of CUDA
                command += f" --index-url {TORCH_CPU_INDEX}"
            return f"pip install -e '.[{extra}]' (or {command})"
    return f"pip install -e '.[{extra}]'"


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
    command that installs it (:func:`install_command`)."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise SystemExit(
            f"{what} needs {module}: {err}; install it with {install_command(module)}"
        ) from None


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``; else ``platform.processor()``)."""
    import platform

    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_record() -> dict:
    """What a results file says of when and where it was measured: date (UTC), CPU model,
    cores and the 1-minute load average at the end."""
    import os
    from datetime import datetime, timezone

    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "load": round(os.getloadavg()[0], 2),
    }


def write_results(record: dict, name: str) -> None:
    """Writes ``record`` as JSON to ``benchmarks/results/NAME`` (an absolute ``name``: there)."""
    import json
    from pathlib import Path

    path = Path(__file__).parent / "results" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"results: {path}", flush=True)


def pretrained_or_file(text: str, game: str):
    """``--ckpt``'s checkpoint and, for ``pretrained``, the shipped agent's recipe (else None);
    exits with the reason when ``text`` is neither ``pretrained`` nor a file."""
    import sys
    from pathlib import Path

    if text == "pretrained":
        from lzero.pretrained import pretrained_path, recipe

        return pretrained_path(game), recipe(game)
    if not Path(text).is_file():
        sys.exit(f"--ckpt: expected a checkpoint file or 'pretrained', got {text!r} (not found)")
    return Path(text), None
