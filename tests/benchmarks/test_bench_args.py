"""The benchmark scripts refuse bad arguments while parsing them (exit code 2, the option and
what it takes, no traceback), before any compiling, solving or training; a missing peer
library is one line naming what to install, and ``--help`` works without it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"

#: Runs a script as ``python benchmarks/SCRIPT`` would, with the modules named in argv[1]
#: unimportable (as if not installed).
WITHOUT = """
import os, runpy, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
sys.argv = sys.argv[2:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run(script: str, *args: str, without: str = "") -> subprocess.CompletedProcess:
    path = str(BENCH / script)
    cmd = [sys.executable, "-c", WITHOUT, without, path] if without else [sys.executable, path]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    # A timeout, not a hang: the perfect bot's --stones 41 looped forever.
    return subprocess.run(
        [*cmd, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "script, args, message",
    [
        # Looped forever: the perfect bot, moving first, has won every game by 41 stones.
        ("bench_connect4_perfect_bot.py", ["--stones", "41", "--per", "1"], "from 0 to 40"),
        ("bench_connect4_perfect_bot.py", ["--per", "0"], "--per: expected a positive int"),
        ("bench_connect4_solver.py", ["--pons-src", "/nonexistent"], "PascalPons/connect4"),
        ("bench_mcts.py", ["--skip-speed", "--skip-compile", "--games", "0"], "--games"),
        ("bench_pool.py", ["--skip", "classic", "single", "--games", "chess"], "invalid choice"),
        ("bench_alphazero.py", ["--ckpt", "/nonexistent"], "'/nonexistent' (not found)"),
        ("bench_board_envs.py", ["--seconds", "0"], "expected a finite number > 0"),
    ],
)
def test_a_bad_argument_stops_the_script_while_parsing(script, args, message):
    done = run(script, *args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert message in done.stderr.splitlines()[-1]


@pytest.mark.parametrize(
    "script, missing, extra",
    [
        ("bench_pettingzoo.py", "pettingzoo", "pip install -e '.[pettingzoo]'"),
        ("bench_eval_cache.py", "torch", "pip install -e '.[train]'"),
        ("bench_connect4_perfect_bot.py", "bitbully", "pip install -e '.[bench]'"),
    ],
)
def test_without_its_peer_a_script_helps_then_names_what_to_install(script, missing, extra):
    helped = run(script, "--help", without=missing)
    assert helped.returncode == 0, helped.stderr
    assert "(default: " in helped.stdout
    stopped = run(script, without=missing)
    assert stopped.returncode == 1
    assert stopped.stderr.count("\n") == 1  # one line, no traceback
    assert stopped.stderr.startswith(f"{script} needs {missing}: ") and extra in stopped.stderr


@pytest.mark.parametrize("module", ["bitbully", "pettingzoo", "ray", "torch"])
def test_the_install_command_gives_the_pin_setup_py_gives(module, monkeypatch):
    """The command names an extra that setup.py declares and that extra's pin of the module,
    as setup.py spells it: read from the installed metadata, so the two cannot drift."""
    monkeypatch.syspath_prepend(str(BENCH))
    from bench_args import EXTRAS, install_command

    command = install_command(module)
    extra = EXTRAS[module]
    setup = (ROOT / "setup.py").read_text()
    block = setup[setup.index(f'"{extra}": [') + len(f'"{extra}": [') :]
    block = block[: block.index("]")]
    pins = [p for p in block.split('"') if p.lower().startswith(module)]
    assert len(pins) == 1, block
    cpu = " --index-url https://download.pytorch.org/whl/cpu" if module == "torch" else ""
    assert command == f"pip install -e '.[{extra}]' (or pip install '{pins[0]}'{cpu})"


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_a_failed_build_of_pons_solver_exits_cleanly_and_leaves_no_files(
    tmp_path, monkeypatch, capfd
):
    src, build = tmp_path / "connect4", tmp_path / "tmp"
    src.mkdir()
    build.mkdir()
    (src / "Solver.cpp").write_text("not C++\n")
    (src / "Solver.hpp").write_text("")
    monkeypatch.syspath_prepend(str(BENCH))
    monkeypatch.setattr("tempfile.tempdir", str(build))
    spec = importlib.util.spec_from_file_location(
        "solver_bench", BENCH / "bench_connect4_solver.py"
    )
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    with pytest.raises(SystemExit, match="building Pons' solver failed"):
        bench.PonsSolver(str(src), 1)
    assert list(build.iterdir()) == []
