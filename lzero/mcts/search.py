"""``UCTSearch``: the Python face of the array search (validation, budgets, tree reuse).

Example::

    search = UCTSearch(GameKernels(legal, apply, result, action_size=9, board_shape=(3, 3),
                                   placement=True), num_simulations=2000, seed=0)
    result = search.search(board, to_play=1)
    action = search.best_action(result)
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

import numpy as np

from lzero.mcts import rollout, uct
from lzero.mcts import selection as selection_rules
from lzero.mcts.jit import NativeFunction
from lzero.mcts.network import LeafEvaluator, run_with_evaluator
from lzero.mcts.tree import (
    APPLY_ACTION_T,
    LEGAL_ACTIONS_T,
    PRIORS_T,
    RESULT_AFTER_T,
    ROOT_INDEX,
    UNVISITED,
    Tree,
    make_tree,
    reroot,
)
from lzero.utils.nbrng import make_rng_state


class GameKernels(NamedTuple):
    """A game as the search sees it (``docs/board_kernel_contract.md``).

    Attributes:
        legal_actions, apply_action, result_after: the game's numba kernels.
        action_size: ``A``, the number of actions.
        board_shape: ``(H, W)``.
        placement: True if an action is the flat cell it fills and the legal moves are the
            empty cells (TicTacToe, Gomoku); enables near-stone candidates and fast rollouts.
        simulations: optional loop bound to these kernels, ``evaluate`` and ``priors`` with
            ``lzero.mcts.uct.bind_simulations``; faster, same simulations.
        evaluate: the game's default leaf evaluator (``lzero.mcts.rollout.EVALUATE_T``);
            None for random rollouts.
        priors: the game's default move priors (``lzero.mcts.tree.PRIORS_T``), which PUCT
            selection follows; None for uniform ones.
    """

    legal_actions: Any
    apply_action: Any
    result_after: Any
    action_size: int
    board_shape: tuple[int, int]
    placement: bool
    simulations: Any = None
    evaluate: Any = None
    priors: Any = None


class SearchResult(NamedTuple):
    """What one search found at the root, from the view of the player to move.

    Attributes:
        action_visits: `[A]` int64 visits of each action (0 for actions not searched).
        action_values: `[A]` float64 mean value of each action in ``[-1, 1]``, NaN if unvisited.
        root_value: mean value of the root.
        num_simulations: simulations behind these figures (including reused ones).
        candidates: `[C]` int64 the root's candidate actions after tactical filtering.
    """

    action_visits: np.ndarray
    action_values: np.ndarray
    root_value: float
    num_simulations: int
    candidates: np.ndarray


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
        own = evaluate is kernels.evaluate and priors is kernels.priors
        self._bound = kernels.simulations if own else None
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

    def _find_reusable(self, board: np.ndarray, to_play: int) -> int:
        """Returns the node of the last tree at ``board`` (at most two plies deep), or -1."""
        tree = self.tree
        if tree is None or tree.meta[0] == 0:
            return -1
        nodes = [(ROOT_INDEX, tree.root_board)]
        for _ in range(2):
            if any(np.array_equal(b, board) for _, b in nodes):
                break
            nodes = [
                (child, self._after(b, tree, parent, k))
                for parent, b in nodes
                for k in range(max(int(tree.node_num_children[parent]), 0))
                if (child := int(tree.children_index[parent, k])) != UNVISITED
            ]
        for node, b in nodes:
            if np.array_equal(b, board) and tree.node_to_play[node] == to_play:
                return node
        return -1

    def _after(self, board: np.ndarray, tree: Tree, parent: int, slot: int) -> np.ndarray:
        b = board.copy()
        self.kernels.apply_action(
            b, int(tree.children_action[parent, slot]), int(tree.node_to_play[parent])
        )
        return b

    def _set_root(self, board: np.ndarray, to_play: int) -> None:
        node = self._find_reusable(board, to_play) if self.reuse_tree else -1
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
            uct.reset_root(
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
            uct.prepare_root(
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
            return self._root_result()
        done, chunk = 0, 64
        while sims is None or done < sims:
            want = chunk if sims is None else min(sims - done, chunk if limit else sims)
            self.ensure_capacity(int(self.tree.meta[0]) + want + 1)
            done += self._simulate(want)
            if limit is not None:
                if time.perf_counter() - start >= limit:
                    break
                chunk = min(chunk * 2, 4096)
        return self._root_result()

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

    def _root_result(self) -> SearchResult:
        tree = self.tree
        a = self.kernels.action_size
        visits = np.zeros(a, np.int64)
        values = np.full(a, np.nan)
        n = int(tree.node_num_children[ROOT_INDEX])
        actions = tree.children_action[ROOT_INDEX, :n].astype(np.int64)
        children = tree.children_index[ROOT_INDEX, :n]
        seen = children != UNVISITED
        visits[actions[seen]] = tree.node_visits[children[seen]]
        values[actions[seen]] = tree.node_value_sum[children[seen]] / visits[actions[seen]]
        root_visits = int(tree.node_visits[ROOT_INDEX])
        root_value = -float(tree.node_value_sum[ROOT_INDEX]) / max(root_visits, 1)
        return SearchResult(visits, values, root_value, root_visits, actions)

    @staticmethod
    def best_action(result: SearchResult) -> int:
        """The most visited root action (ties: higher value, then first candidate)."""
        if result.action_visits.sum() == 0:
            return int(result.candidates[0])
        values = np.nan_to_num(result.action_values, nan=-2.0)
        order = np.lexsort((-values, -result.action_visits))
        return int(order[0])
