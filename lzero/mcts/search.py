"""``UCTSearch``: the Python face of the array search (validation, budgets, tree reuse).

Example::

    search = UCTSearch(GameKernels(legal, apply, result, action_size=9, board_shape=(3, 3),
                                   placement=True), num_simulations=2000, seed=0)
    result = search.search(board, to_play=1)
    action = search.best_action(result)
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from lzero.mcts import expansion, rollout, uct
from lzero.mcts import selection as selection_rules
from lzero.mcts.game import GameKernels
from lzero.mcts.jit import NativeFunction
from lzero.mcts.network import LeafEvaluator, run_with_evaluator
from lzero.mcts.result import SearchResult, best_action, root_result
from lzero.mcts.reuse import find_reusable
from lzero.mcts.tree import (
    APPLY_ACTION_T,
    LEGAL_ACTIONS_T,
    PRIORS_T,
    RESULT_AFTER_T,
    Tree,
    make_tree,
    reroot,
)
from lzero.utils.nbrng import make_rng_state


class UCTSearch:
    """Monte Carlo tree search over a game's kernels: UCB1 with random rollouts, or PUCT over
    the game's move priors with its leaf evaluator (``GameKernels.priors``, ``.evaluate``).

    Args:
        kernels: the game.
        num_simulations: simulations per search (an upper bound when ``time_limit_s`` is set).
        time_limit_s: if set, search until this many seconds have passed (not reproducible).
        c_uct: exploration constant of the selection rule.
        radius: near-stone candidate radius for placement games, 0 for all legal moves.
        tactics: take a winning root move and avoid root moves that let the opponent win next.
        tree_tactics: below the root too, expand a node to its winning move or to the blocks
            of the opponent's immediate wins, if it has any (decisive moves; stronger in
            k-in-a-row games, about two kernel calls more per candidate and expansion).
        reuse_tree: start from the subtree of the position reached, if the last tree has it.
        seed: seed of the search's random generator.
        selection: selection rule, ``'ucb1'`` or ``'puct'`` (``lzero.mcts.selection``); by
            default ``'puct'`` if there are priors (``priors`` or ``kernels.priors``), else
            ``'ucb1'``.
        evaluate: leaf evaluator (``lzero.mcts.rollout.EVALUATE_T``); by default the game's
            (``kernels.evaluate``), else random rollouts.
        priors: move priors (``lzero.mcts.tree.PRIORS_T``) set when a node is expanded, for
            ``selection='puct'``; by default the game's (``kernels.priors``), else uniform.
        leaf_evaluator: a Python evaluator, ``(board, to_play) -> (priors [A], value)`` (a
            network); then each leaf is expanded with its priors and valued by it, in Python
            (``lzero.mcts.network``), instead of by ``evaluate``. Use ``selection='puct'``.

    Raises:
        ValueError: on a setting out of range.
    """

    def __init__(
        self,
        kernels: GameKernels,
        *,
        num_simulations: int | None = 1000,
        time_limit_s: float | None = None,
        c_uct: float = 1.4,
        radius: int = 0,
        tactics: bool = True,
        tree_tactics: bool = False,
        reuse_tree: bool = False,
        seed: int = 0,
        selection: str | None = None,
        evaluate: Any = None,
        priors: Any = None,
        leaf_evaluator: LeafEvaluator | None = None,
    ) -> None:
        if num_simulations is None and time_limit_s is None:
            raise ValueError("expected num_simulations or time_limit_s, got neither")
        if num_simulations is not None and int(num_simulations) < 1:
            raise ValueError(f"expected num_simulations >= 1, got {num_simulations}")
        if time_limit_s is not None and not time_limit_s > 0:
            raise ValueError(f"expected time_limit_s > 0, got {time_limit_s}")
        if evaluate is None:
            evaluate = kernels.evaluate
        if priors is None:
            priors = kernels.priors
        if selection is None:
            selection = "ucb1" if priors is None else "puct"
        if selection not in selection_rules.RULES:
            raise ValueError(
                f"expected selection in {sorted(selection_rules.RULES)}, got {selection!r}"
            )
        if not c_uct >= 0:
            raise ValueError(f"expected c_uct >= 0, got {c_uct}")
        if int(radius) < 0 or (radius and not kernels.placement):
            raise ValueError(
                f"expected radius 0, or radius >= 1 for a placement game, got {radius}"
                f" (placement={kernels.placement})"
            )
        self.kernels = kernels
        self.num_simulations = None if num_simulations is None else int(num_simulations)
        self.time_limit_s = time_limit_s
        self.c_uct = float(c_uct)
        self.radius = int(radius)
        self.tactics = bool(tactics)
        self.tree_tactics = bool(tree_tactics)
        self.reuse_tree = bool(reuse_tree)
        # ``kernels.simulations`` is a loop of the batched search (``lzero.mcts.batched_loop``),
        # not of this one: this search runs its generic loop.
        self._bound = None
        if evaluate is None:
            evaluate = rollout.placement_rollout if kernels.placement else rollout.uniform_rollout
        self.rule = selection_rules.RULES[selection]
        self.evaluate = evaluate
        self.priors = selection_rules.uniform_priors if priors is None else priors
        self._priors = NativeFunction(self.priors, PRIORS_T)
        self.leaf_evaluator = leaf_evaluator
        self._evaluate: NativeFunction | None = None  # bound on first use (compiles it)
        self.native_kernels = (
            NativeFunction(kernels.legal_actions, LEGAL_ACTIONS_T),
            NativeFunction(kernels.apply_action, APPLY_ACTION_T),
            NativeFunction(kernels.result_after, RESULT_AFTER_T),
        )
        self.rng = make_rng_state(seed)
        a = kernels.action_size
        self.work_board = np.zeros(kernels.board_shape, np.int8)
        self.work_scratch = np.zeros((4, a), np.int64)
        self.tree: Tree | None = None
        self._spare: Tree | None = None

    def ensure_capacity(self, needed: int) -> None:
        """Grows the tree (keeping its nodes) to hold at least ``needed`` nodes."""
        old = self.tree
        if old is not None and old.node_visits.shape[0] >= needed:
            return
        capacity = max(needed, 2 * old.node_visits.shape[0] if old is not None else 0, 64)
        new = make_tree(capacity, self.kernels.action_size, self.kernels.board_shape)
        if old is not None:
            for src, dst in zip(old, new):
                dst[: src.shape[0]] = src
        self.tree, self._spare = new, None

    def _set_root(self, board: np.ndarray, to_play: int) -> None:
        node = -1
        if self.reuse_tree:
            node = find_reusable(self.tree, board, to_play, self.kernels.apply_action)
        if node > 0 and self.tree.node_result[node] == 0:
            if self._spare is None or self._spare.node_visits.shape != self.tree.node_visits.shape:
                self._spare = make_tree(
                    self.tree.node_visits.shape[0],
                    self.kernels.action_size,
                    self.kernels.board_shape,
                )
            self._spare.root_board[:] = board
            self._spare.meta[1] = np.count_nonzero(board)
            reroot(self.tree, node, self._spare)
            self.tree, self._spare = self._spare, self.tree
        if node < 0:
            expansion.reset_root(
                self.tree,
                board,
                to_play,
                self.radius,
                self.tactics,
                self.rng,
                self.work_scratch,
                *self.native_kernels,
                self._priors,
            )
        else:
            expansion.prepare_root(
                self.tree,
                self.radius,
                self.tactics,
                self.rng,
                self.work_scratch,
                *self.native_kernels,
                self._priors,
            )

    def search(
        self,
        board: np.ndarray,
        to_play: int,
        *,
        num_simulations: int | None = None,
        time_limit_s: float | None = None,
    ) -> SearchResult:
        """Searches from ``board`` with ``to_play`` (1 or 2) to move.

        Args:
            board: `[H, W]` int8 position of an unfinished game.
            to_play: player to move, 1 or 2.
            num_simulations: overrides the instance's budget for this search.
            time_limit_s: overrides the instance's time limit for this search.

        Returns:
            The root statistics.

        Raises:
            ValueError: if the board has the wrong shape or values, ``to_play`` is not 1 or 2,
                or the position has no legal move.
        """
        board = self._check_board(board)
        if to_play not in (1, 2):
            raise ValueError(f"expected to_play 1 or 2, got {to_play!r}")
        sims = num_simulations if num_simulations is not None else self.num_simulations
        limit = time_limit_s if time_limit_s is not None else self.time_limit_s
        if num_simulations is not None and time_limit_s is None:
            limit = None
        start = time.perf_counter()
        reused = int(self.tree.meta[0]) if self.tree is not None else 0
        self.ensure_capacity(reused + (sims or 1024) + 1)
        self._set_root(board, int(to_play))
        if self.leaf_evaluator is not None:
            deadline = None if limit is None else start + limit
            run_with_evaluator(self, self.leaf_evaluator, sims, deadline)
            return root_result(self.tree, self.kernels.action_size)
        done, chunk = 0, 64
        while sims is None or done < sims:
            want = chunk if sims is None else min(sims - done, chunk if limit else sims)
            self.ensure_capacity(int(self.tree.meta[0]) + want + 1)
            done += self._simulate(want)
            if limit is not None:
                if time.perf_counter() - start >= limit:
                    break
                chunk = min(chunk * 2, 4096)
        return root_result(self.tree, self.kernels.action_size)

    def _native_evaluate(self) -> NativeFunction:
        if self._evaluate is None:
            self._evaluate = NativeFunction(self.evaluate, rollout.EVALUATE_T)
        return self._evaluate

    def _simulate(self, n: int) -> int:
        common = (self.tree, n, self.c_uct, self.rule, self.radius, self.tree_tactics, self.rng)
        if self._bound is not None:
            return self._bound(*common, self.work_board, self.work_scratch)
        return uct.run_simulations(
            *common,
            self.work_board,
            self.work_scratch,
            self._native_evaluate(),
            *self.native_kernels,
            self.kernels.placement,
            self._priors,
        )

    def _check_board(self, board: Any) -> np.ndarray:
        board = np.asarray(board)
        if board.shape != tuple(self.kernels.board_shape):
            raise ValueError(
                f"expected a board of shape {self.kernels.board_shape}, got {board.shape}"
            )
        if board.size and (board.min() < 0 or board.max() > 2):
            raise ValueError(f"expected board values in {{0, 1, 2}}, got {np.unique(board)}")
        board = np.ascontiguousarray(board, dtype=np.int8)
        if self.kernels.legal_actions(board, np.zeros(self.kernels.action_size, np.int64)) == 0:
            raise ValueError("expected a position with a legal move, got a full board")
        return board

    #: The most visited root action (``lzero.mcts.result.best_action``).
    best_action = staticmethod(best_action)
