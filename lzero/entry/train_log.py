"""Training log: a CSV row per collect phase and a learning-curve PNG redrawn at each eval."""

from __future__ import annotations

import csv
import math
from pathlib import Path

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


class TrainLog:
    """Appends rows to ``<exp>/progress.csv`` and draws ``<exp>/learning_curve.png``.

    Args:
        exp_dir: the experiment directory.
    """

    def __init__(self, exp_dir: str | Path) -> None:
        self.dir = Path(exp_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.csv_path = self.dir / "progress.csv"
        self.png_path = self.dir / "learning_curve.png"
        self.rows: list[dict] = []
        with open(self.csv_path, "w", newline="") as f:
            csv.writer(f).writerow(COLUMNS)

    def write(self, **row: float) -> None:
        """Appends one row; missing columns are left empty."""
        unknown = set(row) - set(COLUMNS)
        if unknown:
            raise ValueError(f"expected columns from {COLUMNS}, got {sorted(unknown)}")
        self.rows.append(row)
        with open(self.csv_path, "a", newline="") as f:
            csv.writer(f).writerow(["" if row.get(c) is None else row[c] for c in COLUMNS])

    def plot(self) -> None:
        """Redraws the PNG: eval return against env steps, and the total loss."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        ev = [
            (r["env_step"], r["eval_return_mean"])
            for r in self.rows
            if r.get("eval_return_mean") is not None
        ]
        lo = [
            (r["train_iter"], r["total_loss"])
            for r in self.rows
            if r.get("total_loss") is not None and math.isfinite(r["total_loss"])
        ]
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.6))
        if ev:
            a1.plot(*zip(*ev), marker="o")
        a1.set(xlabel="env steps", ylabel="mean eval return", title="evaluation")
        if lo:
            a2.plot(*zip(*lo))
        a2.set(xlabel="train iterations", ylabel="total loss", title="training loss")
        fig.tight_layout()
        fig.savefig(self.png_path, dpi=80)
        plt.close(fig)
