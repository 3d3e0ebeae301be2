"""The training log under Ctrl-C: a SIGINT that lands while a row goes to TensorBoard is held
until the row is written, so the writer's queue stays whole and ``close`` returns."""

from __future__ import annotations

import csv
import signal
import threading

import pytest

from lzero.entry.train_log import TrainLog, interrupts_held


def test_ctrl_c_during_a_row_is_raised_after_the_row_is_written(tmp_path):
    log = TrainLog(tmp_path / "run")
    real_add, written = log.tensorboard.add_scalar, []

    def add_scalar(key, value, step):
        if not written:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C inside the writer's queue put
        real_add(key, value, step)
        written.append(key)

    log.tensorboard.add_scalar = add_scalar
    with pytest.raises(KeyboardInterrupt):
        log.write(train_iter=1, env_step=10, total_loss=1.5, value_loss=0.5, policy_loss=1.0)
    assert written == ["total_loss", "value_loss", "policy_loss"]
    with open(tmp_path / "run" / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["env_step"], r["total_loss"]) for r in rows] == [("10", "1.5")]
    closer = threading.Thread(target=log.close, daemon=True)
    closer.start()
    closer.join(timeout=60)
    assert not closer.is_alive(), "the TensorBoard writer did not close"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_held_interrupt_goes_to_the_handler_in_force_once_the_block_ends(signum):
    calls = []
    previous = signal.signal(signum, lambda signum, frame: calls.append(signum))
    try:
        with interrupts_held():
            signal.raise_signal(signum)
            signal.raise_signal(signum)  # twice: delivered once
            assert calls == []
        assert calls == [signum]
        with interrupts_held():  # no signal: nothing delivered
            pass
        assert calls == [signum]
    finally:
        signal.signal(signum, previous)
    assert signal.getsignal(signum) is previous


def test_a_plot_before_the_first_evaluation_warns_nothing(tmp_path):
    # Two curves and no evaluation yet: matplotlib warned "No artists with labels found".
    import warnings

    log = TrainLog(tmp_path / "run", curves=(("a_mean", "a"), ("b_mean", "b")))
    log.write(train_iter=1, env_step=10, total_loss=1.5, value_loss=0.5, policy_loss=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        log.plot()
    log.close()
    assert (tmp_path / "run" / "learning_curve.png").stat().st_size > 0


def test_a_resume_refused_for_its_columns_leaves_the_run_folder_as_it_was(tmp_path):
    # The log had opened its TensorBoard writer before checking the columns: each refused
    # resume left one more empty event file in the run's tensorboard folder.
    from lzero.entry.config import ConfigError

    first = TrainLog(tmp_path / "run", columns=("train_iter", "env_step", "rule_win"))
    first.write(train_iter=1, env_step=10, rule_win=0.5)
    first.close()
    events = {p.name: p.stat().st_size for p in (tmp_path / "run" / "tensorboard").iterdir()}
    csv_text = (tmp_path / "run" / "progress.csv").read_text()
    with pytest.raises(ConfigError, match=r"without \['mcts_win'\].*config the run was started"):
        TrainLog(tmp_path / "run", columns=("train_iter", "env_step", "rule_win", "mcts_win"),
                 append=True)  # fmt: skip
    tensorboard = (tmp_path / "run" / "tensorboard").iterdir()
    assert {p.name: p.stat().st_size for p in tensorboard} == events
    assert (tmp_path / "run" / "progress.csv").read_text() == csv_text
    # The same columns resume, and the resumed log appends its row; the run's event file is
    # kept (a writer in the same second had reopened it with "wb", emptying it).
    again = TrainLog(tmp_path / "run", columns=("train_iter", "env_step", "rule_win"), append=True)
    again.write(train_iter=2, env_step=20, rule_win=0.75)
    again.close()
    after = {p.name: p.stat().st_size for p in (tmp_path / "run" / "tensorboard").iterdir()}
    assert {name: after[name] for name in events} == events and len(after) == len(events) + 1
    assert [r["rule_win"] for r in csv.DictReader(open(tmp_path / "run" / "progress.csv"))] == [
        "0.5",
        "0.75",
    ]


def test_a_folder_holding_a_run_is_refused_with_a_free_name_to_use(tmp_path):
    """A new run never overwrites one: the error says how to continue it and names the next
    free folder (``exp_2``, or ``exp_3`` when that is taken; ``run_2`` gives ``run_3``)."""
    from lzero.entry.train_log import check_fresh_exp, free_name
    from lzero.errors import ConfigError

    exp = tmp_path / "exp"
    check_fresh_exp(exp)  # no folder: nothing to refuse
    (exp / "ckpt").mkdir(parents=True)
    (exp / "ckpt" / "ckpt_last.pth.tar").write_bytes(b"x")
    (tmp_path / "exp_2").mkdir()
    with pytest.raises(ConfigError) as err:
        check_fresh_exp(exp)
    message = str(err.value)
    assert f"lzero train --resume {exp}" in message
    assert f"such as {str(tmp_path / 'exp_3')!r} (free)" in message
    assert free_name(tmp_path / "exp_2") == tmp_path / "exp_3"
    assert free_name(tmp_path / "run_7") == tmp_path / "run_8"
    killed = tmp_path / "killed"
    killed.mkdir()
    (killed / "progress.csv").write_text("train_iter\n")
    with pytest.raises(ConfigError, match=r"cannot be resumed; .* such as '.*killed_2' \(free\)"):
        check_fresh_exp(killed)


def three_rows(exp):
    """A log of three training rows in ``exp``, closed; returns its ``progress.csv``."""
    log = TrainLog(exp)
    for i in (1, 2, 3):
        log.write(train_iter=i, env_step=10 * i, total_loss=1.5, value_loss=0.5, policy_loss=1.0)
    log.close()
    return exp / "progress.csv"


@pytest.mark.parametrize("cut", [1, 5, 12])
def test_a_last_row_cut_short_by_a_kill_is_dropped_on_resume(tmp_path, cut):
    """A kill while a row was written leaves it torn (fewer fields, a number cut off): the
    resume drops it with a warning, rewrites the file whole, and appends after it."""
    exp = tmp_path / "run"
    path = three_rows(exp)
    text = path.read_text()
    last = text.rstrip("\n").rsplit("\n", 1)[1]
    path.write_text(text[: len(text) - len(last) - 1 + cut])  # the last row cut after `cut`
    with pytest.warns(UserWarning, match=r"its last row \(line 4\) was cut short"):
        log = TrainLog(exp, append=True, resumed_at=(2, 20))
    assert [r["train_iter"] for r in log.rows] == [1.0, 2.0]
    log.write(train_iter=3, env_step=30, total_loss=1.0, value_loss=0.5, policy_loss=0.5)
    log.close()
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["train_iter"], r["total_loss"]) for r in rows] == [
        ("1", "1.5"),
        ("2", "1.5"),
        ("3", "1.0"),
    ]
    assert [p.name for p in exp.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_a_broken_row_before_the_last_is_refused(tmp_path):
    from lzero.errors import ConfigError

    exp = tmp_path / "run"
    path = three_rows(exp)
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace("1.5", "1.x")
    path.write_text("\n".join(lines) + "\n")
    before = path.read_bytes()
    with pytest.raises(ConfigError, match=r"got a broken row at line 3 of 4: the file was edited"):
        TrainLog(exp, append=True)
    assert path.read_bytes() == before
