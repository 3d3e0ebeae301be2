"""The eval scripts at LightZero's file names run ``lzero eval``: without ``--ckpt`` on the
checkpoint that ``lzero train <config>`` writes by default, and a clear error when there is
none (the happy path, with a trained checkpoint: tests/zoo/board_games/test_alphazero_training.py)."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: script module -> the config module whose run it evaluates (LightZero's pairs).
SCRIPTS = {
    "zoo.board_games.tictactoe.entry.tictactoe_alphazero_eval": (
        "zoo.board_games.tictactoe.config.tictactoe_alphazero_bot_mode_config"
    ),
    "zoo.board_games.tictactoe.entry.tictactoe_muzero_eval": (
        "zoo.board_games.tictactoe.config.tictactoe_muzero_bot_mode_config"
    ),
    "zoo.board_games.connect4.eval.connect4_alphazero_eval": (
        "zoo.board_games.connect4.config.connect4_alphazero_bot_mode_config"
    ),
    "zoo.board_games.connect4.eval.connect4_muzero_eval": (
        "zoo.board_games.connect4.config.connect4_muzero_bot_mode_config"
    ),
    "zoo.board_games.gomoku.entry.gomoku_alphazero_eval": (
        "zoo.board_games.gomoku.config.gomoku_alphazero_bot_mode_config"
    ),
    "zoo.classic_control.cartpole.entry.cartpole_eval": (
        "zoo.classic_control.cartpole.config.cartpole_muzero_config"
    ),
}


def run_script(module: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_every_script_file_is_listed():
    found = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "zoo").rglob("*_eval.py")
        if p.parent.name in ("entry", "eval")
    }
    assert found == set(SCRIPTS)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_without_a_checkpoint_the_script_names_where_it_looked(script, tmp_path):
    exp_name = importlib.import_module(SCRIPTS[script]).main_config.exp_name
    # Where lzero train <config> writes with its default seed 0 (the _seedN suffix set to 0).
    expected = Path(re.sub(r"_seed\d+$", "_seed0", exp_name)) / "ckpt" / "ckpt_best.pth.tar"
    proc = run_script(script, [], tmp_path)
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert f"there is none at {expected}, where lzero train {SCRIPTS[script]}" in proc.stderr
    # A --ckpt given (or an abbreviation argparse takes) is lzero eval's to check.
    for option in ("--ckpt", "--ck"):
        proc = run_script(script, [option, str(tmp_path / "missing.pth.tar")], tmp_path)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert "missing.pth.tar" in proc.stderr and "there is none at" not in proc.stderr
