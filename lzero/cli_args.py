"""The command line's argument types and config loading, shared by ``lzero train`` and
``lzero eval`` (:mod:`lzero.cli_commands`), the zoo's subcommands and the benchmarks
(``lzero.cli_train`` re-exports these names, where they were first)."""

from __future__ import annotations

import argparse
import decimal
import importlib
import importlib.util
import pkgutil
import re
import sys
from pathlib import Path
from types import ModuleType

from lzero.envs.config import closest_key
from lzero.errors import ConfigError


def load_config_module(spec: str) -> ModuleType:
    """Imports a config given as a module name or a path to a ``.py`` file.

    Raises:
        ConfigError: the module cannot be found or lacks ``main_config``/``create_config``.
    """
    if spec.endswith(".py") or Path(spec).is_file():
        path = Path(spec)
        if path.is_file() and path.suffix != ".py":
            raise ConfigError(
                f"expected a config module name or an existing .py file, got {spec!r} (a file "
                "that does not end in .py)"
            )
        if not path.is_file():
            raise ConfigError(
                f"expected a config module name or an existing .py file, got {spec!r}"
                + _near_miss(path.name, _py_files(path.parent), str(path.parent))
            )
        mod_spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[path.stem] = module
        mod_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(spec)
        except ModuleNotFoundError as err:
            raise ConfigError(
                f"expected an importable config module, got {spec!r} ({err})"
                + _module_near_miss(spec, err.name)
            ) from err
    missing = [n for n in ("main_config", "create_config") if not hasattr(module, n)]
    if missing:
        raise ConfigError(
            f"expected {spec!r} to define main_config and create_config, got no {missing}"
        )
    return module


def _near_miss(name: str, candidates: list[str], where: str) -> str:
    """The hint naming the candidate closest to ``name`` (in folder ``where``), or ''."""
    hint = closest_key(name, candidates)
    return f"; did you mean {hint!r} (in {where})?" if hint else ""


def _py_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.py")) if folder.is_dir() else []


def _module_near_miss(spec: str, missing: str | None) -> str:
    """A close name for the first part of a dotted ``spec`` that does not import.

    ``missing`` is the module Python could not find (``ModuleNotFoundError.name``); when it
    is a prefix of ``spec``, its last part is compared with the modules and packages of its
    parent, which did import. A missing top-level name gets no hint (every installed package
    would be a candidate), nor does an error raised inside the config (a missing dependency
    names another module).
    """
    if not missing or not (spec == missing or spec.startswith(missing + ".")):
        return ""
    local = Path(*spec.split(".")).with_suffix(".py")
    if local.is_file():  # python -m would find it; the lzero command imports from sys.path
        return (
            f"; {str(local)!r} is a file in the current folder: pass its path (lzero train {local})"
        )
    parent, _, last = missing.rpartition(".")
    if not parent:
        return ""
    try:
        paths = importlib.import_module(parent).__path__
    except (ImportError, AttributeError):
        return ""
    hint = closest_key(last, sorted(m.name for m in pkgutil.iter_modules(paths)))
    return f"; did you mean {parent + '.' + hint!r}?" if hint else ""


def seeded_exp_name(exp_name: str, seed: int) -> str:
    """The run folder ``lzero train`` writes for seed ``seed``: a zoo config's ``_seedN``
    suffix set to it (``..._seed0`` would otherwise collect every seed's run)."""
    return re.sub(r"_seed\d+$", f"_seed{seed}", exp_name)


def int_in(lowest: int, end: int | None, what: str):
    """An argparse type: an int in ``[lowest, end)`` (no upper bound if ``end`` is None),
    written out or, as LightZero's configs write budgets (``int(1e4)``), as a whole number in
    e-notation (``1e4``, ``2.5e5``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
            if re.fullmatch(r"\s*[0-9]+(\.[0-9]*)?[eE]\+?[0-9]{1,2}\s*", text):
                exact = decimal.Decimal(text.strip())
                value = int(exact) if exact == exact.to_integral_value() else None
        if value is None or value < lowest or (end is not None and value >= end):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


def fpu_reduction_arg(text: str) -> float | str:
    """An argparse type of a search's first-play urgency reduction: 'off' (AlphaZero's rule)
    or what ``BatchedSearch.search`` takes as ``fpu_reduction`` (a finite number >= 0)."""
    from lzero.mcts.batched_search import check_fpu_reduction

    if text == "off":
        return text
    try:
        return check_fpu_reduction(float(text), "fpu_reduction")
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected 'off' or a finite number >= 0, got {text!r}"
        ) from None


def agent_fpu_reduction(value: float | str | None) -> float | str | None:
    """``load_agent``'s ``fpu_reduction`` for a ``fpu_reduction_arg`` option's value: the
    checkpoint config's (``FROM_CONFIG``) when the option was not given, None for 'off'."""
    from lzero.agent import FROM_CONFIG

    return FROM_CONFIG if value is None else None if value == "off" else value


def positive_minutes(text: str) -> float:
    """An argparse type: a finite number of minutes > 0."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0.0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number of minutes > 0, got {text!r}")
    return value


positive_int = int_in(1, None, "a positive int")
non_negative_int = int_in(0, None, "a non-negative int")
seed_arg = int_in(0, 2**32, "an int in [0, 2**32)")
