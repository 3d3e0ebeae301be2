"""The ``lzero`` command's entry point (lzero_console.py): a Ctrl-C while it imports the
package exits as a later one does, without the import's traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import lzero_console
from lzero import cli

ROOT = Path(__file__).resolve().parents[1]


def test_its_interactive_commands_are_the_command_lines():
    assert lzero_console.INTERACTIVE_COMMANDS == cli.INTERACTIVE_COMMANDS


#: Runs lzero_console.main() with the import of ``lzero`` raising what ``RAISE`` says (a finder
#: ahead of the others, as the package may be installed in editable mode).
PROGRAM = """
import sys
RAISE = sys.argv.pop(1)
class Finder:
    def find_spec(self, name, path=None, target=None):
        if name == "lzero":
            exec(RAISE)
sys.meta_path.insert(0, Finder())
import lzero_console
sys.exit(lzero_console.main())
"""


def run_console(raising: str, argv: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", PROGRAM, raising, *argv],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("argv", "raising", "code"),
    [
        (["eval"], "raise KeyboardInterrupt", 130),
        (["play"], "raise KeyboardInterrupt", 0),  # Ctrl-C leaves lzero play with 0
        # A library that catches the interrupt mid-import and raises its own error.
        (
            ["train"],
            "try:\n raise KeyboardInterrupt\nexcept BaseException:\n raise ImportError('x')",
            130,
        ),
    ],
)
def test_ctrl_c_during_the_package_import_exits_in_one_line(argv, raising, code):
    """The interrupt is raised by the import itself, which is where a Ctrl-C in the first
    half second lands."""
    proc = run_console(raising, argv)
    assert proc.returncode == code and proc.stderr == "\ninterrupted\n", proc.stderr


def test_another_import_error_is_not_hidden():
    proc = run_console("raise ImportError('broken install')", ["eval"])
    assert proc.returncode == 1 and "ImportError: broken install" in proc.stderr


def test_run_imports_its_target_under_the_same_handler():
    """The zoo's eval scripts start through lzero_console.run: a Ctrl-C while the package
    imports gave a 30-70 line traceback."""
    proc = subprocess.run(
        [sys.executable, "-c", PROGRAM.replace(
            "sys.exit(lzero_console.main())", "lzero_console.run('lzero.cli_train:run_eval_as_main', 'x')"
        ), "raise KeyboardInterrupt"],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 130 and proc.stderr == "\ninterrupted\n", proc.stderr
