"""Smoke test of benchmarks/bench_board_envs.py, so the script does not rot unnoticed, and its
plain-Python reference env checked against ours."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path

import pytest

from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_board_envs.py"
ENVS = {"tictactoe": TicTacToeEnv, "connect4": Connect4Env, "gomoku": GomokuEnv}


def _bench():
    # As `python benchmarks/bench_board_envs.py` would, so that its sibling modules import.
    if str(BENCH.parent) not in sys.path:
        sys.path.insert(0, str(BENCH.parent))
    spec = importlib.util.spec_from_file_location("bench_board_envs", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_benchmark_runs_and_prints_a_row_per_game(capsys):
    bench = _bench()
    bench.main(["--seconds", "0.02", "--rounds", "1", "--games", "tictactoe", "connect4"])
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.startswith(("tictactoe", "connect4"))]
    assert [r[0] for r in rows] == ["tictactoe", "connect4"]
    # The ratios read "9.1x python-ref" alone, or with "0.8x openspiel, ..." when the bench
    # extra is installed; this test runs without it (README's test command).
    assert all(int(r[1].replace(",", "")) > 0 for r in rows)
    assert all(re.search(r"\d+\.\d+x python-ref\b", " ".join(r)) for r in rows)


@pytest.mark.parametrize("game", sorted(ENVS))
def test_reference_env_agrees_with_ours_on_game_ends(game):
    """The benchmark's plain-Python env, fed the same random moves as ours, ends every game at
    the same move with the same result, and shows the same boards and masks on the way."""
    ref = _bench().PyRefEnv(game)
    env = ENVS[game]({"board_size": 15} if game == "gomoku" else {})
    rng = random.Random(0)
    ends = set()
    for _ in range(3 if game == "gomoku" else 20):
        ref_obs, obs = ref.reset(), env.reset()
        done = False
        while not done:
            assert ref_obs["board"].tolist() == obs["board"].tolist()
            assert ref_obs["action_mask"].tolist() == obs["action_mask"].tolist()
            action = rng.choice(obs["action_mask"].nonzero()[0].tolist())
            ref_obs, ref_reward, ref_done, _ = ref.step(action)
            obs, reward, done, info = env.step(action)
            assert ref_done == done and ref_reward == reward[0]
        ends.add(info["eval_episode_return"])
    assert len(ends) > 1 or game == "gomoku"  # wins of both sides or draws, not one ending


def test_step_floor_profile_runs(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH.parent))  # its sibling modules (bench_versions)
    spec = importlib.util.spec_from_file_location(
        "floor", BENCH.with_name("bench_board_step_floor.py")
    )
    floor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(floor)
    floor.main(["--games", "tictactoe"])
    lines = capsys.readouterr().out.splitlines()
    rows = {line[10:].strip(): float(line[:10]) for line in lines if line.startswith("  ")}
    assert {"env.step", "minimal step (no bookkeeping)", "kernel call"} <= set(rows)
    assert all(ns > 0 for ns in rows.values())
    # OpenSpiel (the bench extra) is timed, or said to be skipped: not left out quietly.
    assert "openspiel step" in rows or any(
        line.startswith("tictactoe: openspiel skipped (") for line in lines
    )
