"""Batched MuZero search tree (numba kernels and their Python driver)."""

from lzero.mcts.ctree.mcts_muzero import MuZeroMCTS, SearchOutput, select_action

__all__ = ["MuZeroMCTS", "SearchOutput", "select_action"]
