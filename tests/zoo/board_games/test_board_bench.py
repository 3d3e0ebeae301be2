"""Smoke test of benchmarks/bench_board_envs.py, so the script does not rot unnoticed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_board_envs.py"


def test_benchmark_runs_and_reference_env_agrees_on_game_ends(capsys):
    spec = importlib.util.spec_from_file_location("bench_board_envs", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["--seconds", "0.02", "--rounds", "1", "--games", "tictactoe", "connect4"])
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith(("tictactoe", "connect4"))]
    assert [r[0] for r in rows] == ["tictactoe", "connect4"]
    # The ratios column reads "9.1x python-ref" alone, or "9.1x python-ref, 0.8x openspiel, ..."
    # when the bench extra is installed; this test runs without it (README's test command).
    assert all(int(r[1].replace(",", "")) > 0 for r in rows)
    assert all(re.search(r"\d+\.\d+x python-ref(,|$)", " ".join(r)) for r in rows)
    ref = bench.PyRefEnv("connect4")
    ref.reset()
    done, steps = False, 0
    while not done:
        _, _, done, _ = ref.step(ref.random_action())
        steps += 1
    assert 7 <= steps <= 42
