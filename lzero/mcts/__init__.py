"""Monte Carlo tree search over preallocated arrays, for every game that follows the kernel
contract (``docs/board_kernel_contract.md``).

Importing this package compiles nothing; the kernels compile (or load from numba's disk cache)
on first use. ``lzero.mcts.ctree`` (MuZero's search) is a separate package, not imported here.
"""

from __future__ import annotations

from lzero.mcts.network import LeafEvaluator
from lzero.mcts.result import SearchResult
from lzero.mcts.search import GameKernels, UCTSearch

__all__ = ["GameKernels", "LeafEvaluator", "SearchResult", "UCTSearch"]
