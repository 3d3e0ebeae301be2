"""Search with a leaf evaluator outside numba, such as a neural network (AlphaZero-style).

The array search runs each simulation's descent in numba (``descend_once``); Python then
evaluates the new leaf, ``(priors [A], value) = evaluator(board, to_play)``, the leaf is
expanded with those priors (``expand_with_priors``) and the value is backed up. With
``selection='puct'`` this is AlphaZero's search (Silver et al., "Mastering chess and shogi by
self-play with a general reinforcement learning algorithm", 2017), on the same tree, rules
kernels and tactics as the rollout search.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import types

from lzero.mcts.expansion import expand
from lzero.mcts.jit import compiled_on_first_call
from lzero.mcts.tree import (
    BOARD_T,
    KERNELS_T,
    ONGOING,
    RNG_T,
    ROOT_INDEX,
    SCRATCH_T,
    TREE_T,
    backup,
)
from lzero.mcts.uct import simulate_inline

#: ``(board [H, W] int8, to_play) -> (priors [A], value for to_play in [-1, 1])``.
LeafEvaluator = Callable[[np.ndarray, int], tuple[np.ndarray, float]]


@compiled_on_first_call(
    types.UniTuple(types.int64, 2)(
        TREE_T,
        types.float64,
        types.int64,
        types.int64,
        types.boolean,
        RNG_T,
        BOARD_T,
        SCRATCH_T,
        *KERNELS_T,
    )
)
def descend_once(
    tree, c, rule, radius, tree_tactics, rng, board, scratch,
    legal_actions, apply_action, result_after,
):  # fmt: skip
    """One selection of the search loop (``simulate`` with ``descend_only``): returns the
    leaf reached (a new node, or a finished game) and its stone count; ``board`` holds it."""
    simulate_inline(
        tree, 1, c, rule, radius, tree_tactics, rng, board, scratch, None,
        legal_actions, apply_action, result_after, False, True, None,
    )  # fmt: skip
    return tree.meta[2], tree.meta[3]


@compiled_on_first_call(
    types.none(
        TREE_T,
        types.int64,
        BOARD_T,
        types.int64,
        types.int64,
        types.boolean,
        RNG_T,
        SCRATCH_T,
        types.Array(types.float64, 1, "C"),
        *KERNELS_T,
    )
)
def expand_with_priors(
    tree, node, board, num_moves, radius, tree_tactics, rng, scratch, priors,
    legal_actions, apply_action, result_after,
):  # fmt: skip
    """Expands ``node`` (position ``board``) now, unless it is, with ``priors`` `[A]` (by
    action) renormalised over its candidate moves; uniform if they sum to zero."""
    if tree.node_num_children[node] < 0:
        expand(
            tree, node, board, num_moves, radius, tree_tactics, rng, scratch,
            legal_actions, apply_action, result_after, None,
        )  # fmt: skip
    n = tree.node_num_children[node]
    total = 0.0
    for k in range(n):
        total += max(priors[tree.children_action[node, k]], 0.0)
    for k in range(n):
        p = max(priors[tree.children_action[node, k]], 0.0)
        tree.children_prior[node, k] = p / total if total > 0 else 1.0 / n


def run_with_evaluator(search, evaluator: LeafEvaluator, num_simulations, deadline) -> int:
    """Runs simulations of ``search`` (a ``UCTSearch`` whose root is set) with ``evaluator``
    until ``num_simulations`` (None: no bound) or ``deadline`` (``perf_counter`` time or None).

    Returns:
        The simulations run.
    """
    tree = search.tree
    kernels = search.native_kernels
    args = (search.radius, search.tree_tactics, search.rng)
    if tree.node_visits[ROOT_INDEX] == 0:  # the root's priors come from the evaluator too
        root_board = np.array(tree.root_board)
        priors, _ = evaluator(root_board, int(tree.node_to_play[ROOT_INDEX]))
        _set_priors(search, ROOT_INDEX, root_board, int(tree.meta[1]), priors)
    done = 0
    while num_simulations is None or done < num_simulations:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        search.ensure_capacity(int(tree.meta[0]) + 2)
        tree = search.tree
        node, num_moves = descend_once(
            tree, search.c_uct, search.rule, *args, search.work_board, search.work_scratch, *kernels
        )
        result, to_play = int(tree.node_result[node]), int(tree.node_to_play[node])
        if result != ONGOING:
            value = 1.0 if result == 3 - to_play else (0.0 if result == 3 else -1.0)
        else:
            priors, leaf_value = evaluator(search.work_board.copy(), to_play)
            _set_priors(search, node, search.work_board, num_moves, priors)
            value = -float(leaf_value)
        backup(tree, node, value)
        done += 1
    return done


def _set_priors(search, node, board, num_moves, priors) -> None:
    priors = np.ascontiguousarray(priors, dtype=np.float64)
    if priors.shape != (search.kernels.action_size,):
        raise ValueError(
            f"expected evaluator priors of shape ({search.kernels.action_size},), "
            f"got {priors.shape}"
        )
    expand_with_priors(
        search.tree, node, board, num_moves, search.radius, search.tree_tactics, search.rng,
        search.work_scratch, priors, *search.native_kernels,
    )  # fmt: skip
