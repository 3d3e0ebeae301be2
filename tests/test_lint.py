"""The codebase stays ruff-clean (lint and format), as configured in pyproject.toml."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args):
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    cmd = [sys.executable, "-m", "ruff", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_is_clean():
    proc = _ruff("check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean():
    proc = _ruff("format", "--check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_library_never_imports_the_zoo():
    offenders = []
    for path in (ROOT / "lzero").rglob("*.py"):
        for line in path.read_text().splitlines():
            stripped = line.strip()
            if stripped.startswith(("import zoo", "from zoo")):
                offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert not offenders, "lzero/ must not import zoo/:\n" + "\n".join(offenders)
