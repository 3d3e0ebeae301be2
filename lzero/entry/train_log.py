"""Training log: a CSV row per collect phase, the same scalars as TensorBoard event files
(``tensorboardX``, the lightest maintained writer), a learning-curve PNG redrawn at each eval,
and the merged config the run used."""

from __future__ import annotations

import contextlib
import csv
import itertools
import json
import math
import os
import re
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

from lzero.errors import ConfigError
from lzero.utils.signals import TERMINATION_SIGNALS

COLUMNS = (
    "train_iter",
    "env_step",
    "wall_time",
    "collect_return",
    "eval_return_mean",
    "eval_return_std",
    "total_loss",
    "value_loss",
    "reward_loss",
    "policy_loss",
)


@contextlib.contextmanager
def interrupts_held() -> Iterator[None]:
    """Holds a Ctrl-C (SIGINT), or a SIGTERM or SIGHUP, that arrives in the block until the
    block has ended, then delivers it to the handler in force (Python's SIGINT handler raises
    ``KeyboardInterrupt``; ``lzero train``'s SIGTERM and SIGHUP handler raises its subclass).

    tensorboardX hands events to its writer thread through a ``multiprocessing.Queue``. A
    ``KeyboardInterrupt`` raised inside that queue's ``put`` can leave its feeder thread
    waiting for ever, and the writer's ``close`` then hangs: a run stopped by Ctrl-C right
    after an evaluation's row never wrote ``ckpt_last`` and never exited. Outside the main
    thread (where signal handlers cannot be set) the block runs as is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = (signal.SIGINT, *TERMINATION_SIGNALS)
    previous = [signal.signal(s, lambda signum, frame: caught.append(signum)) for s in held]
    try:
        yield
    finally:
        for signum, handler in zip(held, previous):
            signal.signal(signum, handler)
        for signum in dict.fromkeys(caught):  # each held signal once, in order of arrival
            signal.raise_signal(signum)


def check_fresh_exp(exp: Path) -> None:
    """Refuses to start a new run in ``exp`` when it already holds one (a checkpoint or a
    progress log), which the new run would overwrite.

    Raises:
        ConfigError: naming the way to continue it (``resume``) or to keep it (another
            ``exp_name``).
    """
    held = [p for p in (exp / "ckpt" / "ckpt_last.pth.tar", exp / "progress.csv") if p.exists()]
    if held and held[0].name == "progress.csv":  # a run that was killed before it could save
        raise ConfigError(
            f"exp_name: expected a directory without a run in it, got {str(exp)!r}, which holds "
            f"{held[0]}: {_unsaved_run(exp)}"
        )
    if held:
        raise ConfigError(
            f"exp_name: expected a directory without a run in it, got {str(exp)!r}, which holds "
            f"{held[0]}: continue that run with resume (lzero train --resume {exp}), or choose "
            f"another exp_name (--exp-name) to keep it, such as {str(free_name(exp))!r} (free), "
            "or remove it"
        )


def free_name(exp: Path) -> Path:
    """The first of ``exp_2``, ``exp_3``, ... that does not exist (a trailing ``_N`` of
    ``exp`` counted on: ``run_2`` gives ``run_3``)."""
    match = re.fullmatch(r"(.*)_(\d+)", exp.name)
    stem, n = (match[1], int(match[2]) + 1) if match else (exp.name, 2)
    while (exp.parent / f"{stem}_{n}").exists():
        n += 1
    return exp.parent / f"{stem}_{n}"


def _unsaved_run(exp: Path) -> str:
    """What to do with a run folder that has a progress log and no ``ckpt_last``: its run
    was killed (SIGKILL, out of memory, a lost machine) before it could save one."""
    numbered = [
        re.fullmatch(r"iteration_(\d+)\.pth\.tar", p.name) for p in (exp / "ckpt").glob("*")
    ]
    saved = sorted((int(m[1]), exp / "ckpt" / m[0]) for m in numbered if m)
    start = (
        f"; a new run can start from its last periodic checkpoint with policy.model_path "
        f"{saved[-1][1]} (lzero train counts from zero again)"
        if saved
        else ""
    )
    return (
        "its run stopped without saving ckpt/ckpt_last.pth.tar (killed before it could), so "
        f"it cannot be resumed{start}; choose another exp_name (--exp-name) to keep it, such "
        f"as {str(free_name(exp))!r} (free), or remove it"
    )


def last_checkpoint(exp: Path) -> Path:
    """``exp/ckpt/ckpt_last.pth.tar``, the checkpoint a resumed run continues from.

    Raises:
        ConfigError: ``exp`` holds no such file.
    """
    last = exp / "ckpt" / "ckpt_last.pth.tar"
    if not last.is_file() and (exp / "progress.csv").is_file():
        raise ConfigError(f"resume: {str(exp)!r} holds a progress.csv, but {_unsaved_run(exp)}")
    if not last.is_file():
        raise ConfigError(
            f"resume: expected an experiment directory holding ckpt/ckpt_last.pth.tar, got "
            f"{str(exp)!r} (no {last})"
        )
    return last


class Progress:
    """Training progress on stdout: one rewritten status line on a terminal; without one (a log
    file, CI), a plain status line every ``interval_s`` seconds.

    Args:
        max_env_step: the env-step budget (for the bar; ``>= 1e9`` means none).
        interval_s: seconds between plain status lines when stdout is not a terminal.
    """

    def __init__(self, max_env_step: int, interval_s: float = 30.0) -> None:
        self.tty, self.max, self.interval = sys.stdout.isatty(), max_env_step, interval_s
        self._last_plain = time.perf_counter()

    def status(self, env_step: int, train_iter: int, loss: float | None) -> None:
        loss_text = "" if loss is None else f" loss {loss:.3f}"
        if not self.tty:
            now = time.perf_counter()
            if now - self._last_plain >= self.interval:
                self._last_plain = now
                print(f"env steps {env_step} iter {train_iter}{loss_text}", flush=True)
            return
        frac = min(env_step / self.max, 1.0) if self.max < 1e9 else 0.0
        bar = "#" * int(30 * frac) + "-" * (30 - int(30 * frac))
        print(f"\r[{bar}] env steps {env_step} iter {train_iter}{loss_text}", end="", flush=True)

    def line(self, text: str) -> None:
        print(("\r" if self.tty else "") + text, flush=True)

    def evaluating_first(self, resumed: bool, what: str) -> None:
        """Says that the run evaluates before its first collect (``what``: the games or
        episodes), so that a run is not silent through it: Connect4's 40 games at 200
        simulations take a minute."""
        self.line(f"evaluating the {'resumed' if resumed else 'untrained'} network first: {what}")


_WRITERS = itertools.count()


def _writer_suffix() -> str:
    """A suffix unique to this process's next event file (pid and a counter)."""
    return f".{os.getpid()}.{next(_WRITERS)}"


class TrainLog:
    """Appends rows to ``<exp>/progress.csv`` and draws ``<exp>/learning_curve.png``.

    Args:
        exp_dir: the experiment directory.
        columns: the CSV columns (MuZero's by default).
        curves: ``(column, label)`` pairs drawn against env steps in the left panel.
        ylabel: the left panel's axis label.
        append: keep an existing ``progress.csv`` (a resumed run) and append to it; its
            columns must be these.
        title: the figure's title (env, algorithm, seed).
        stop_value: drawn as a dashed line on the evaluation panel (None: none).
        resumed_at: with ``append``, the resumed checkpoint's ``(train_iter, env_step)``: rows
            past it (a run killed after its last ``ckpt_last``, whose work the resume redoes)
            are dropped from the log, with a warning, instead of repeating those steps.
    """

    def __init__(
        self,
        exp_dir: str | Path,
        columns: tuple[str, ...] = COLUMNS,
        curves: tuple[tuple[str, str], ...] = (("eval_return_mean", "mean eval return"),),
        ylabel: str = "mean eval return",
        *,
        append: bool = False,
        title: str = "",
        stop_value: float | None = None,
        resumed_at: tuple[int, int] | None = None,
    ) -> None:
        from tensorboardX import SummaryWriter

        self.columns, self.curves, self.ylabel = tuple(columns), tuple(curves), ylabel
        self.title, self.stop_value = title, stop_value
        self.dir = Path(exp_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.csv_path = self.dir / "progress.csv"
        self.png_path = self.dir / "learning_curve.png"
        self.rows: list[dict] = []
        if append and self.csv_path.is_file():
            with open(self.csv_path, newline="") as f:
                reader = csv.DictReader(f)
                got = tuple(reader.fieldnames or ())
                if got != self.columns:
                    missing = [c for c in self.columns if c not in got]
                    extra = [c for c in got if c not in self.columns]
                    diff = " and ".join(
                        f"{word} {cols}"
                        for word, cols in (("without", missing), ("with", extra))
                        if cols
                    )
                    raise ConfigError(
                        f"resume: expected {self.csv_path} to have the columns this config logs, "
                        f"got one {diff or 'in another order'}: the run logged other "
                        "evaluation bots or losses (policy.eval_bots, ...); resume with the "
                        "config the run was started with (its config.json records the "
                        "settings it used), or start a new run from its checkpoint with "
                        "policy.model_path"
                    )
                raw = list(reader)
            raw = self._without_torn_row(raw)
            self.rows = [{k: float(v) for k, v in r.items() if v != ""} for r in raw]
            if resumed_at is not None:
                self._drop_rows_past(raw, *resumed_at)
        else:
            with open(self.csv_path, "w", newline="") as f:
                csv.writer(f).writerow(self.columns)
        # Opened once the log is accepted: a refused resume leaves no empty event file. The
        # suffix keeps each writer's file its own: tensorboardX names it by the second and the
        # host, and opens it with "wb", so a resume within the same second emptied the run's.
        self.tensorboard = SummaryWriter(
            str(self.dir / "tensorboard"), flush_secs=30, filename_suffix=_writer_suffix()
        )

    def write(self, **row: float) -> None:
        """Appends one row; missing columns are left empty."""
        unknown = set(row) - set(self.columns)
        if unknown:
            raise ValueError(f"expected columns from {self.columns}, got {sorted(unknown)}")
        self.rows.append(row)
        with open(self.csv_path, "a", newline="") as f:
            csv.writer(f).writerow(["" if row.get(c) is None else row[c] for c in self.columns])
        step = int(row.get("env_step", len(self.rows)))
        with interrupts_held():
            for key, value in row.items():
                if key not in ("env_step", "train_iter") and value is not None:
                    if math.isfinite(float(value)):  # a collect that ended no episode: NaN
                        self.tensorboard.add_scalar(key, float(value), step)

    def _drop_rows_past(self, raw: list[dict], train_iter: int, env_step: int) -> None:
        """Drops the rows past ``(train_iter, env_step)``, rewriting the others as read."""
        keep = [
            r.get("train_iter", 0) <= train_iter and r.get("env_step", 0) <= env_step
            for r in self.rows
        ]
        if all(keep):
            return
        kept = [r for r, k in zip(self.rows, keep) if k]
        warnings.warn(
            f"{self.csv_path}: {len(self.rows) - len(kept)} rows past the resumed checkpoint "
            f"(train_iter {train_iter}, env step {env_step}) are dropped: the run went on "
            "after it and was stopped without saving (killed), and the resume redoes that work",
            UserWarning,
            stacklevel=3,
        )
        self.rows = kept
        self._rewrite([r for r, k in zip(raw, keep) if k])

    def _without_torn_row(self, raw: list[dict]) -> list[dict]:
        """``raw`` without a last row cut short (a run killed while writing it: fewer fields,
        or a number cut off), which is dropped from the file with a warning.

        Raises:
            ConfigError: a row before the last is not a row of numbers (the file was edited
                or damaged): names the file and the line.
        """

        def whole(row: dict) -> bool:
            if None in row or any(v is None for v in row.values()):
                return False  # too many fields, or too few
            try:
                [float(v) for v in row.values() if v != ""]
            except ValueError:
                return False
            return True

        bad = [i for i, r in enumerate(raw) if not whole(r)]
        if bad and bad[0] < len(raw) - 1:
            raise ConfigError(
                f"resume: expected {self.csv_path} to hold rows of numbers, got a broken row at "
                f"line {bad[0] + 2} of {len(raw) + 1}: the file was edited or damaged; restore it "
                "or start a new run from the checkpoint with policy.model_path"
            )
        if not bad:
            return raw
        warnings.warn(
            f"{self.csv_path}: its last row (line {len(raw) + 1}) was cut short (the run was "
            "killed while writing it) and is dropped",
            UserWarning,
            stacklevel=4,
        )
        self._rewrite(raw[:-1])
        return raw[:-1]

    def _rewrite(self, raw: list[dict]) -> None:
        """Writes ``progress.csv`` anew with ``raw``'s rows, as read: beside it under a
        temporary name, then renamed over it, so a kill leaves the old file or the new one."""
        tmp = self.csv_path.with_name(f".{self.csv_path.name}.tmp{os.getpid()}")
        try:
            with open(tmp, "w", newline="") as f:
                writer = csv.writer(f)
                writer.writerow(self.columns)
                writer.writerows([[r[c] for c in self.columns] for r in raw])
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.csv_path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def save_config(self, cfg) -> Path:
        """Writes the merged config the run uses to ``config.json``; returns its path."""
        path = self.dir / "config.json"
        path.write_text(json.dumps(cfg, indent=2, sort_keys=True, default=str) + "\n")
        return path

    def close(self) -> None:
        """Flushes the TensorBoard events."""
        with interrupts_held():
            self.tensorboard.close()

    def plot(self) -> None:
        """Redraws the PNG: eval return against env steps, and the total loss."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        lo = [
            (r["train_iter"], r["total_loss"])
            for r in self.rows
            if r.get("total_loss") is not None and math.isfinite(r["total_loss"])
        ]
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.6))
        for column, label in self.curves:
            points = [(r["env_step"], r[column]) for r in self.rows if r.get(column) is not None]
            if points:
                a1.plot(*zip(*points), marker="o", label=label)
            spread = column.replace("_mean", "_std")
            band = [
                (r["env_step"], r[column] - r[spread], r[column] + r[spread])
                for r in self.rows
                if spread != column and r.get(column) is not None and r.get(spread) is not None
            ]
            if band:
                a1.fill_between(*zip(*band), alpha=0.2, label=f"{label} +- std")
        if self.stop_value is not None and abs(self.stop_value) < 1e9:  # 1e10: no stop value
            a1.axhline(self.stop_value, linestyle="--", color="grey", label="stop value")
        if a1.get_legend_handles_labels()[0]:  # none before the first evaluation
            a1.legend(fontsize=7)
        a1.set(xlabel="env steps", ylabel=self.ylabel, title="evaluation")
        if self.title:
            fig.suptitle(self.title)
        if lo:
            a2.plot(*zip(*lo))
        a2.set(xlabel="train iterations", ylabel="total loss", title="training loss")
        fig.tight_layout()
        fig.savefig(self.png_path, dpi=80)
        plt.close(fig)
