"""Collector and evaluator of the MuZero training loop."""

from lzero.worker.muzero_collector import MuZeroCollector, MuZeroEvaluator

__all__ = ["MuZeroCollector", "MuZeroEvaluator"]
