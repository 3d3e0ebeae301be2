"""Timing helpers of ``bench_pool.py``: interleaved windows, best and median, ratios, settings."""

from __future__ import annotations

import os
import time

import numpy as np


def measure(contenders: dict, seconds: float, repeats: int) -> dict:
    """Steps per second of each contender, interleaving their windows round by round.

    Args:
        contenders: ``label -> factory``; a factory returns ``(run, close)`` where
            ``run(deadline) -> steps`` steps until the deadline.

    Returns:
        ``label -> (best, median)`` steps/s over ``repeats`` windows (None for a contender
        whose library is not installed).
    """
    runs, rates = {}, {}
    for label, factory in contenders.items():
        try:
            runs[label] = factory()
        except ImportError as err:
            print(f"  {label:<40} skipped ({err.name} not installed)")
            rates[label] = None
            continue
        runs[label][0](time.perf_counter() + min(0.2, seconds))  # warm-up: jit, first resets
        rates[label] = []
    try:
        for _ in range(repeats):
            for label, (run, _) in runs.items():
                # Timed until run returns: pgx's asynchronous dispatch finishes its queued
                # steps (its block) inside the window it is credited for.
                start = time.perf_counter()
                steps = run(start + seconds)
                rates[label].append(steps / (time.perf_counter() - start))
    finally:
        for _, close in runs.values():
            close()
    for label in runs:
        rates[label] = (max(rates[label]), float(np.median(rates[label])))
        best, med = rates[label]
        print(f"  {label:<40} {best:>14,.0f} steps/s (median {med:>13,.0f})", flush=True)
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return rates


def ratio(label: str, ours, peer) -> float | None:
    """Prints and returns ``ours / peer`` (best over best; the medians' ratio beside)."""
    if not (ours and peer):
        return None
    print(f"  -> {label}: {ours[0] / peer[0]:.2f}x (medians {ours[1] / peer[1]:.2f}x)")
    return ours[0] / peer[0]


def faster(*rates):
    """The better of some contenders' ``(best, median)`` (by best), or None."""
    rates = [r for r in rates if r]
    return max(rates, key=lambda r: r[0]) if rates else None


def settings_line(args) -> str:
    import gymnasium
    import numba

    versions = [
        f"numpy {np.__version__}",
        f"numba {numba.__version__}",
        f"gymnasium {gymnasium.__version__}",
    ]
    for mod in ("envpool", "jax", "pgx"):
        try:
            versions.append(f"{mod} {__import__(mod).__version__}")
        except ImportError:
            versions.append(f"{mod} not installed")
    return (
        f"settings: {args.repeats} windows of {args.seconds} s per contender, interleaved; "
        f"{os.cpu_count()} cores; " + ", ".join(versions)
    )
