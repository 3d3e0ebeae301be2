"""Exact resume of ``train_alphazero``: a run of 2N iterations equals N, a stop, a resume and N
more, bit for bit in ``progress.csv`` (all but the timings) and in the weights, the optimizer
and the replay buffer; Ctrl-C inside an iteration stops at its end and saves a state that
resumes exactly; a run state of another format is refused."""

from __future__ import annotations

import copy
import csv
import os
import signal
import threading

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from lzero.entry import train_alphazero  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_alphazero_sp_mode_config as sp  # noqa: E402
from zoo.board_games.tictactoe.config import (  # noqa: E402
    tictactoe_gumbel_alphazero_sp_mode_config as gumbel,
)

#: Columns that time the run: the only ones a resumed run may write differently.
TIMINGS = {"wall_time", "positions_per_s", "search_share"}
HALF = 8  # iterations before the stop: a multiple of eval_freq, so both runs evaluate there


def tiny(module, exp, **policy):
    main = copy.deepcopy(module.main_config)
    main.exp_name = str(exp)
    main.env.update(collector_env_num=4, n_evaluator_episode=2)
    main.policy.update(
        model=dict(
            observation_shape=(3, 3, 3), action_space_size=9, num_res_blocks=1, num_channels=8
        ),
        update_per_collect=2, batch_size=16, n_episode=4, eval_freq=4, eval_bots=["rule"],
        torch_num_threads=1,
    )  # fmt: skip
    main.policy.mcts.num_simulations = 4
    main.policy.update(policy)
    return [main, copy.deepcopy(module.create_config)]


# Every stream the collector can own: random openings, fast searches, games against the bot.
STREAMS = dict(collect_opening_moves=2, fast_search_prob=0.3, fast_search_simulations=2)
CASES = {
    "puct": (sp, dict(STREAMS, bot_opponent_share=0.5)),
    "gumbel": (gumbel, STREAMS),
    "overlap": (sp, dict(overlap_learning=True)),  # a collect's updates owed at the stop
}


def rows(exp):
    with open(exp / "progress.csv") as f:
        return [{k: v for k, v in r.items() if k not in TIMINGS} for r in csv.DictReader(f)]


def last(exp):
    return torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)


def assert_same_tensors(a, b, where=""):
    if isinstance(a, torch.Tensor):
        assert torch.equal(a, b), where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            assert_same_tensors(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same_tensors(x, y, f"{where}/{i}")
    elif not (isinstance(a, float) and np.isnan(a) and np.isnan(b)):
        assert a == b, where


def assert_same_run(one, other):
    assert rows(one) == rows(other)
    a, b = last(one), last(other)
    for key in ("model", "optimizer", "train_iter", "env_step", "best_score", "last_eval"):
        assert_same_tensors(a[key], b[key], key)
    assert_same_tensors(a["run_state"], b["run_state"], "run_state")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_stopped_and_resumed_run_equals_one_that_never_stopped(tmp_path, case):
    module, policy = CASES[case]
    whole, split = tmp_path / "whole", tmp_path / "split"
    train_alphazero(tiny(module, whole, **policy), seed=5, max_train_iter=2 * HALF)
    train_alphazero(tiny(module, split, **policy), seed=5, max_train_iter=HALF)
    assert last(split)["train_iter"] == HALF and "run_state" in last(split)
    train_alphazero(tiny(module, split, **policy), max_train_iter=2 * HALF, resume=split)
    assert len(rows(whole)) > HALF // 2
    assert_same_run(whole, split)


@pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(), reason="signals: main thread"
)
def test_ctrl_c_inside_an_iteration_stops_at_its_end_and_resumes_exactly(
    tmp_path, monkeypatch, capsys
):
    import importlib

    monkeypatch.setattr(signal, "SIGINT", signal.SIGINT)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        whole, split = tmp_path / "whole", tmp_path / "split"
        train_alphazero(tiny(sp, whole), seed=2, max_train_iter=3 * HALF)
        collector = importlib.import_module("lzero.worker.alphazero_collector")
        real = collector.AlphaZeroCollector.collect
        calls = []

        def collect(self, n):  # Ctrl-C in the middle of the fourth collect phase
            calls.append(n)
            if len(calls) == 4:
                os.kill(os.getpid(), signal.SIGINT)
            return real(self, n)

        monkeypatch.setattr(collector.AlphaZeroCollector, "collect", collect)
        with pytest.raises(KeyboardInterrupt):
            train_alphazero(tiny(sp, split), seed=2, max_train_iter=3 * HALF)
        out = capsys.readouterr().out
        assert "SIGINT: stopping at the end of this iteration" in out
        assert last(split)["train_iter"] == 8 and "run_state" in last(split)  # 4 collects x 2
        monkeypatch.setattr(collector.AlphaZeroCollector, "collect", real)
        train_alphazero(tiny(sp, split), max_train_iter=3 * HALF, resume=split)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert_same_run(whole, split)


def test_a_run_state_of_another_format_is_refused(tmp_path):
    exp = tmp_path / "run"
    train_alphazero(tiny(sp, exp), seed=0, max_train_iter=2)
    state = last(exp)
    state["run_state"]["format"] = 99
    torch.save(state, exp / "ckpt" / "ckpt_last.pth.tar")
    with pytest.raises(
        ConfigError, match=r"run state of format 99 \(newer than this version.s 1\)"
    ):
        train_alphazero(tiny(sp, exp), max_train_iter=4, resume=exp)


def test_overlapped_learning_equals_its_schedule_run_in_turn(tmp_path, monkeypatch):
    """With ``overlap_learning`` the learner thread's steps and the collect beside it give the
    same run, bit for bit, as the same schedule with the learner run to its end before the
    collect starts: self-play plays the snapshot of its start, whatever the timing."""
    import importlib

    entry = importlib.import_module("lzero.entry.train_alphazero")
    threaded, inline = tmp_path / "threaded", tmp_path / "inline"
    policy = dict(overlap_learning=True, manual_temperature_decay=True,
                  threshold_training_steps_for_final_temperature=8)  # fmt: skip
    train_alphazero(tiny(sp, threaded, **policy), seed=1, max_train_iter=2 * HALF)

    class InlineLearner(entry.LearnerThread):  # start runs the steps to their end at once
        def start(self):
            self.run()

        def join(self, timeout=None):
            if self.error is not None:
                raise self.error

    monkeypatch.setattr(entry, "LearnerThread", InlineLearner)
    train_alphazero(tiny(sp, inline, **policy), seed=1, max_train_iter=2 * HALF)
    assert_same_run(threaded, inline)
    assert last(inline)["run_state"]["pending_updates"] == 2  # the last collect's, owed


def test_overlapped_learning_is_refused_with_ray_self_play():
    from lzero.policy.alphazero_config import compile_alphazero_config

    main, create = tiny(sp, "unused", overlap_learning=True)
    main["env"]["manager"] = dict(type="ray")
    with pytest.raises(ConfigError, match="expected it False with the 'ray' manager"):
        compile_alphazero_config([main, create])


def test_after_kill_9_a_run_resumes_exactly_from_its_last_periodic_save(tmp_path):
    """``lzero train`` killed with SIGKILL (no ``finally``, no final save): ``--resume``
    continues from the last periodic ``ckpt_last`` (here written every iteration), dropping
    the rows logged after it, and ends as the run that was never killed."""
    import subprocess
    import sys

    whole, killed = tmp_path / "whole", tmp_path / "killed"
    train_alphazero(tiny(sp, whole, save_ckpt_last_minutes=1e-9), seed=0, max_train_iter=3 * HALF)
    main, create = tiny(sp, killed, save_ckpt_last_minutes=1e-9)
    config = tmp_path / "killed_config.py"
    config.write_text(f"main_config = {dict(main)!r}\ncreate_config = {dict(create)!r}\n")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from lzero.cli import main; raise SystemExit(main())", "train",
         str(config), "--max-train-iter", str(3 * HALF)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )  # fmt: skip
    try:
        saves = 0
        for line in proc.stdout:  # killed after its fourth periodic save, mid-run
            saves += line.startswith("saved ckpt_last.pth.tar with the run state")
            if saves == 4:
                break
        proc.kill()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL and saves == 4
    assert 0 < last(killed)["train_iter"] < 3 * HALF
    train_alphazero(tiny(sp, killed), max_train_iter=3 * HALF, resume=killed)
    assert_same_run(whole, killed)
