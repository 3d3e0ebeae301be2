"""Resuming a MuZero run: counters, best return and the CSV carry on; bad resume targets are
refused before any env starts."""

from __future__ import annotations

import copy
import csv
import os
import sys

import pytest

torch = pytest.importorskip("torch")
from lzero.entry import train_muzero_with_gym_env  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from test_train_muzero_with_gym_env import TINY_CREATE, TINY_MAIN, train_cli  # noqa: E402


def cfg(tmp_path, name="run", **policy):
    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / name)
    main["policy"].update(policy)
    return [main, copy.deepcopy(TINY_CREATE)]


def rows(exp):
    with open(exp / "progress.csv") as f:
        return list(csv.DictReader(f))


def test_resume_continues_counters_and_appends_the_csv(tmp_path):
    exp = tmp_path / "run"
    first = train_muzero_with_gym_env(cfg(tmp_path), seed=2, max_env_step=60)
    before = rows(exp)
    last = torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)
    assert last["seed"] == 2
    best_before = torch.load(exp / "ckpt" / "ckpt_best.pth.tar", weights_only=True)["eval_return"]
    # Another seed than the run's own is refused before anything is written.
    with pytest.raises(ConfigError, match="the resumed run's own seed 2 .or none., got 0"):
        train_muzero_with_gym_env(cfg(tmp_path), seed=0, max_env_step=120, resume=exp)
    assert rows(exp) == before
    # Another config's exp_name: the run goes on in the resumed directory, with its own seed.
    second = train_muzero_with_gym_env(cfg(tmp_path, "elsewhere"), max_env_step=120, resume=exp)
    assert torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)["seed"] == 2
    after = rows(exp)
    assert not (tmp_path / "elsewhere").exists()
    assert after[: len(before)] == before  # appended, never rewritten
    assert len(after) > len(before)
    resumed = after[len(before) :]
    # the checkpoint's last evaluation is in the CSV already: not again (it was, a second
    # row at the same step)
    assert int(resumed[0]["env_step"]) > last["env_step"]
    evaluated = [r["train_iter"] for r in after if r["eval_return_mean"]]
    assert len(evaluated) == len(set(evaluated)) > 1
    assert int(resumed[0]["train_iter"]) > first.train_iter
    assert second.train_iter > first.train_iter
    assert 120 <= int(after[-1]["env_step"]) <= 121
    assert float(resumed[0]["wall_time"]) >= float(before[-1]["wall_time"])
    # ckpt_best is replaced only by a better evaluation than the first run's best.
    best_after = torch.load(exp / "ckpt" / "ckpt_best.pth.tar", weights_only=True)["eval_return"]
    evals = [float(r["eval_return_mean"]) for r in resumed if r["eval_return_mean"]]
    assert best_after == max([best_before, *evals])


def test_resume_refuses_a_directory_without_a_last_checkpoint(tmp_path):
    with pytest.raises(ConfigError, match="resume: expected an experiment directory holding"):
        train_muzero_with_gym_env(cfg(tmp_path), seed=0, max_env_step=10, resume=tmp_path / "no")


def test_resume_refuses_a_checkpoint_of_another_model(tmp_path):
    exp = tmp_path / "run"
    train_muzero_with_gym_env(cfg(tmp_path), seed=0, max_env_step=20)
    bigger = cfg(tmp_path)
    bigger[0]["policy"]["model"]["hidden_size"] = 64
    with pytest.raises(ConfigError, match="does not fit the configured model"):
        train_muzero_with_gym_env(bigger, seed=0, max_env_step=40, resume=exp)


def test_a_checkpoint_of_another_env_is_refused_by_name(tmp_path):
    from lzero.entry import eval_muzero_with_gym_env
    from zoo.board_games.tictactoe.config import tictactoe_muzero_bot_mode_config as ttt

    exp = tmp_path / "run"
    train_muzero_with_gym_env(cfg(tmp_path), seed=0, max_env_step=20)
    last = exp / "ckpt" / "ckpt_last.pth.tar"
    assert torch.load(last, weights_only=True)["env"] == "CartPole-v0"
    board = [copy.deepcopy(ttt.main_config), copy.deepcopy(ttt.create_config)]
    board[0].exp_name = str(tmp_path / "board")
    with pytest.raises(
        ConfigError,
        match=r"model_path: expected a checkpoint of tictactoe \[3, 3, 3\] .*one of CartPole-v0 \[4\]",
    ):
        eval_muzero_with_gym_env(board, seed=0, model_path=str(last), num_episodes=1)
    # The same env with another observation shape (what a board size changes) is refused too.
    state = torch.load(last, weights_only=True)
    state["observation_shape"] = [8]
    torch.save(state, tmp_path / "other.pth.tar")
    with pytest.raises(
        ConfigError, match=r"expected a checkpoint of CartPole-v0 \[4\].*CartPole-v0 \[8\]"
    ):
        eval_muzero_with_gym_env(
            cfg(tmp_path), seed=0, model_path=str(tmp_path / "other.pth.tar"), num_episodes=1
        )


def test_cli_resume_goes_on_in_the_run_directory(tmp_path, capsys):
    path = tmp_path / "tiny_config.py"
    parser = train_cli(path, *cfg(tmp_path))
    assert (
        parser.parse_args(["train", str(path), "--max-env-step", "20"]).func(
            parser.parse_args(["train", str(path), "--max-env-step", "20"])
        )
        == 0
    )
    args = parser.parse_args(
        ["train", str(path), "--max-env-step", "40", "--resume", str(tmp_path / "run")]
    )
    capsys.readouterr()
    assert args.func(args) == 0
    assert int(rows(tmp_path / "run")[-1]["env_step"]) >= 40
    assert "evaluating the resumed network first" not in capsys.readouterr().out
    az = "zoo.board_games.tictactoe.config.tictactoe_alphazero_sp_mode_config"
    args = parser.parse_args(["train", az, "--resume", str(tmp_path / "run")])
    # An AlphaZero config resuming a MuZero run: the checkpoint's kind is checked.
    with pytest.raises(ConfigError, match="resume: expected an AlphaZero checkpoint .*, a MuZero"):
        args.func(args)


def test_cli_resume_with_another_exp_name_is_refused(tmp_path):
    import argparse

    from lzero.cli_train import add_train_subcommand

    parser = argparse.ArgumentParser()
    add_train_subcommand(parser.add_subparsers(dest="command"))
    az = "zoo.board_games.tictactoe.config.tictactoe_alphazero_sp_mode_config"
    args = parser.parse_args(
        ["train", az, "--resume", str(tmp_path / "run"), "--exp-name", str(tmp_path / "new")]
    )
    with pytest.raises(ConfigError, match="continues in its own directory"):
        args.func(args)
    assert not (tmp_path / "new").exists()


def test_a_run_killed_before_it_saved_is_neither_resumed_nor_advised_to_be(tmp_path):
    """A run killed hard (SIGKILL, out of memory) leaves progress.csv and no ckpt_last: a new
    run was told to resume it, and the resume was refused for the missing checkpoint."""
    exp = tmp_path / "run"
    train_muzero_with_gym_env(cfg(tmp_path, save_ckpt_freq=5), seed=0, max_env_step=40)
    (exp / "ckpt" / "ckpt_last.pth.tar").unlink()  # as a SIGKILL leaves it
    periodic = sorted((exp / "ckpt").glob("iteration_*.pth.tar"), key=lambda p: int(p.name[10:-8]))
    assert periodic
    for attempt in ({}, {"resume": exp}):
        with pytest.raises(ConfigError) as err:
            train_muzero_with_gym_env(cfg(tmp_path), seed=0, max_env_step=80, **attempt)
        message = str(err.value)
        assert "stopped without saving ckpt/ckpt_last.pth.tar" in message
        assert "--resume" not in message and f"policy.model_path {periodic[-1]}" in message


def test_a_resume_drops_the_rows_a_killed_resume_logged_past_its_checkpoint(tmp_path):
    """A run killed after its last ckpt_last (here: a resume killed mid-way) left rows past
    that checkpoint; the next resume redid those steps and logged them a second time, the
    CSV's train_iter going 194, 240, 286, 194, 200, ..."""
    import shutil

    exp = tmp_path / "run"
    train_muzero_with_gym_env(cfg(tmp_path), seed=0, max_env_step=40)
    saved = tmp_path / "ckpt_at_40.pth.tar"
    shutil.copy(exp / "ckpt" / "ckpt_last.pth.tar", saved)
    before = rows(exp)
    train_muzero_with_gym_env(cfg(tmp_path), max_env_step=80, resume=exp)
    shutil.copy(saved, exp / "ckpt" / "ckpt_last.pth.tar")  # as if killed before it saved
    assert len(rows(exp)) > len(before)
    with pytest.warns(UserWarning, match="rows past the resumed checkpoint .* are dropped"):
        train_muzero_with_gym_env(cfg(tmp_path), max_env_step=80, resume=exp)
    after = rows(exp)
    assert after[: len(before)] == before  # the rows up to the checkpoint, as they were
    steps = [int(r["env_step"]) for r in after]
    assert steps == sorted(steps)


def test_cli_max_minutes_bounds_the_run_and_counts_the_time_before_a_resume(tmp_path, capsys):
    path = tmp_path / "tiny_config.py"
    parser = train_cli(path, *cfg(tmp_path))
    args = parser.parse_args(["train", str(path), "--max-minutes", "0.0001"])
    assert args.func(args) == 0
    assert "stopped (max_time_s 0.006 spent)" in capsys.readouterr().out
    steps = int(rows(tmp_path / "run")[-1]["env_step"])
    # the first run spent its budget: resumed with the same one, it stops before collecting
    args = parser.parse_args(
        ["train", str(path), "--max-minutes", "0.0001", "--resume", str(tmp_path / "run")]
    )
    assert args.func(args) == 0
    assert "stopped (max_time_s 0.006 spent)" in capsys.readouterr().out
    assert int(rows(tmp_path / "run")[-1]["env_step"]) == steps
    for bad in ("0", "-2", "nan", "inf", "ten"):
        with pytest.raises(SystemExit):
            parser.parse_args(["train", str(path), "--max-minutes", bad])
        assert f"expected a finite number of minutes > 0, got '{bad}'" in capsys.readouterr().err
