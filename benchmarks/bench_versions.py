"""One line naming the versions a benchmark ran with: Python, NumPy, numba and the peers that
are installed (the others are named as missing)."""

from __future__ import annotations

import importlib.metadata
import platform

PACKAGES = ("numpy", "numba", "open_spiel", "pettingzoo", "envpool", "pgx", "jax", "bitbully")


def versions_line(packages: tuple[str, ...] = PACKAGES) -> str:
    """``'versions: python 3.11.7, numpy 2.1.0, ..., pgx missing'``."""
    parts = [f"python {platform.python_version()}"]
    for name in packages:
        try:
            parts.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{name} missing")
    return "versions: " + ", ".join(parts)
