"""Monte Carlo tree search over preallocated arrays, for every game that follows the kernel
contract (``docs/board_kernel_contract.md``): one batched search (``BatchedSearch``) with a
Python batch evaluator (a network) or a numba leaf evaluator (random rollouts, line windows).

Importing this package compiles nothing; the kernels compile (or load from numba's disk cache)
on first use. MuZero's search (``lzero.mcts.latent_search.MuZeroMCTS``) is a configuration of the
same tree with a learned model as the evaluator.
"""

from __future__ import annotations

from lzero.mcts.batched_result import BatchedResult, SearchResult
from lzero.mcts.batched_search import BatchedSearch
from lzero.mcts.game import GameKernels

__all__ = ["BatchedResult", "BatchedSearch", "GameKernels", "SearchResult"]
