"""The search loop: simulations on a tree whose root is set (``lzero.mcts.expansion``).

One simulation (Browne et al., "A Survey of Monte Carlo Tree Search Methods", 2012):
*select* slots with the selection rule from the root, replaying their moves on a copy of the
root board, until a slot without a child node or a finished game; *expand* by adding that one
node (its candidate moves are listed, with their priors, the first time the search passes
through it); *evaluate* it with the leaf evaluator, or exactly if the game is over; *back up*
the value to the root.

The game is reached only through the kernels passed in (``legal_actions``, ``apply_action``,
``result_after`` of ``docs/board_kernel_contract.md``); the leaf evaluator and the move
priors are arguments too and the selection rule a parameter, so every game and both UCT and
AlphaZero-style search (PUCT over priors, e.g. Gomoku's line-window ones) share this loop.
The entry points are compiled on first use against explicit ``FunctionType`` signatures,
which numba can cache on disk (see ``lzero.mcts.jit``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from lzero.mcts.expansion import list_children
from lzero.mcts.jit import compiled_on_first_call
from lzero.mcts.rollout import EVALUATE_T, placement_rollout, uniform_rollout
from lzero.mcts.selection import PUCT
from lzero.mcts.tree import (
    BOARD_T,
    KERNELS_T,
    ONGOING,
    PRIORS_T,
    RNG_T,
    ROOT_INDEX,
    SCRATCH_T,
    TREE_T,
    UNVISITED,
    backup_arrays,
    copy_board,
    terminal_value,
)


def simulate(
    tree,
    num_simulations,
    c,
    rule,
    radius,
    tree_tactics,
    rng,
    board,
    scratch,
    evaluate,
    legal_actions,
    apply_action,
    result_after,
    placement,
    descend_only,
    priors,
):
    """Runs up to ``num_simulations`` simulations on ``tree`` (whose root is set).

    The ``Tree``'s arrays are taken out once, and the loop and its inlined helpers work on
    them: handing the ``Tree`` itself to a helper made numba adjust the reference counts of
    all its arrays (atomic operations) at every call, about a third of a TicTacToe simulation.

    Args:
        tree: the ``Tree``; its root must be an ongoing, expanded position.
        num_simulations: simulations to run.
        c: exploration constant of the selection rule.
        rule: selection rule, ``lzero.mcts.selection.UCB1`` or ``PUCT``.
        radius: near-stone candidate radius for expansions and the evaluator (0: off).
        tree_tactics: expand nodes to their decisive or anti-decisive moves if they have any
            (``decisive_moves``); about 2 kernel calls per candidate and expansion.
        rng: `[1]` uint64 generator state.
        board: `[H, W]` int8 work board.
        scratch: `[4, A]` int64 work array.
        evaluate: leaf evaluator, ``EVALUATE_T``; None for the built-in random rollouts
            (``placement_rollout`` if ``placement`` else ``uniform_rollout``), which numba
            can then inline (calling a function argument with function arguments cannot be
            cached).
        legal_actions, apply_action, result_after: the game's kernels.
        placement: whether the game is a placement game (see ``GameKernels``).
        descend_only: stop after the first selection, leaving the leaf reached and its stone
            count in ``tree.meta[2:4]`` and its position in ``board`` (for evaluators outside
            numba, ``lzero.mcts.network``).
        priors: move priors of expanded nodes, ``PRIORS_T`` (for ``PUCT``); None for
            uniform ones.

    Returns:
        The simulations run: fewer than asked only when the tree is full.
    """
    visits, value_sum = tree.node_visits, tree.node_value_sum
    mean, rsqrt_visits = tree.node_mean, tree.node_rsqrt_visits
    parent, action_of, to_play_of = tree.node_parent, tree.node_action, tree.node_to_play
    result_of, num_children = tree.node_result, tree.node_num_children
    children_index, children_action = tree.children_index, tree.children_action
    children_prior, root_board, meta = tree.children_prior, tree.root_board, tree.meta
    capacity = visits.shape[0]
    for sim in range(num_simulations):
        if meta[0] >= capacity:
            return sim
        # Select, replaying the moves on a copy of the root board; add the node reached.
        copy_board(root_board, board)
        num_moves = meta[1]
        node = ROOT_INDEX
        while result_of[node] == ONGOING:
            if num_children[node] < 0:
                list_children(
                    children_action, children_index, children_prior, num_children, node,
                    np.int64(to_play_of[node]), board, num_moves, radius, tree_tactics, rng,
                    scratch, legal_actions, apply_action, result_after, priors,
                )  # fmt: skip
            # The selection rules of ``lzero.mcts.selection``, written out (see its doc).
            slot, best = 0, -math.inf
            if rule == PUCT:
                sqrt_n = math.sqrt(max(visits[node], 1))
                for k in range(num_children[node]):
                    child = children_index[node, k]
                    q, n = 0.0, 0
                    if child != UNVISITED:
                        q, n = mean[child], visits[child]
                    score = q + c * children_prior[node, k] * sqrt_n / (1 + n)
                    if score > best:
                        slot, best = k, score
            else:
                scale = c * math.sqrt(math.log(max(visits[node], 1)))
                for k in range(num_children[node]):
                    child = children_index[node, k]
                    if child == UNVISITED:
                        slot = k
                        break
                    score = mean[child] + scale * rsqrt_visits[child]
                    if score > best:
                        slot, best = k, score
            # int64 throughout, so that each kernel is compiled for one signature only.
            player = np.int64(to_play_of[node])
            action = np.int64(children_action[node, slot])
            cell = apply_action(board, action, player)
            num_moves += 1
            child = children_index[node, slot]
            if child == UNVISITED:
                child = meta[0]
                meta[0] = child + 1
                visits[child], value_sum[child], mean[child], rsqrt_visits[child] = 0, 0, 0, 0
                parent[child], action_of[child], to_play_of[child] = node, action, 3 - player
                result_of[child] = result_after(board, cell, player, num_moves)
                num_children[child] = -1
                children_index[node, slot] = child
                node = child
                break
            node = child
        if descend_only:
            meta[2], meta[3] = node, num_moves
            return 1
        # Evaluate: exactly if the game is over, else by the evaluator.
        result = result_of[node]
        to_play = np.int64(to_play_of[node])
        if result != ONGOING:
            value = terminal_value(result, 3 - to_play)
        elif evaluate is None:  # a bound loop: the built-in rollouts, inlined
            if placement:
                value = -placement_rollout(
                    board, to_play, num_moves, radius, rng, scratch,
                    legal_actions, apply_action, result_after,
                )  # fmt: skip
            else:
                value = -uniform_rollout(
                    board, to_play, num_moves, radius, rng, scratch,
                    legal_actions, apply_action, result_after,
                )  # fmt: skip
        else:
            value = -evaluate(
                board, to_play, num_moves, radius, rng, scratch,
                legal_actions, apply_action, result_after,
            )  # fmt: skip
        backup_arrays(visits, value_sum, mean, rsqrt_visits, parent, node, value)
    return num_simulations


#: The loop for kernels passed as dispatchers: not cached itself, it is specialised and inlined
#: into the caller, which ``bind_simulations`` compiles and caches.
simulate_inline = njit(simulate)


#: ``(tree, num_simulations, c, rule, radius, tree_tactics, rng, board, scratch)``: the
#: arguments every compiled search loop starts with.
_LOOP_ARGS_T = (
    TREE_T,
    types.int64,
    types.float64,
    types.int64,
    types.int64,
    types.boolean,
    RNG_T,
    BOARD_T,
    SCRATCH_T,
)


@compiled_on_first_call(types.int64(*_LOOP_ARGS_T, EVALUATE_T, *KERNELS_T, types.boolean, PRIORS_T))
def run_simulations(
    tree, num_simulations, c, rule, radius, tree_tactics, rng, board, scratch, evaluate,
    legal_actions, apply_action, result_after, placement, priors,
):  # fmt: skip
    """``simulate`` with the game's kernels, evaluator and priors passed as ``FunctionType``
    arguments: compiled once (first call) and cached on disk, for any game."""
    return simulate_inline(
        tree, num_simulations, c, rule, radius, tree_tactics, rng, board, scratch, evaluate,
        legal_actions, apply_action, result_after, placement, False, priors,
    )  # fmt: skip


#: Signature of a loop bound to one game (see ``bind_simulations``).
BOUND_SIMULATIONS_T = types.int64(*_LOOP_ARGS_T)


def bind_simulations(py_func):
    """Decorates a game's own loop, ``(tree, num_simulations, c, rule, radius, tree_tactics,
    rng, board, scratch) -> simulations``, written as one call of ``simulate_inline`` with the
    game's kernels, and its evaluator and priors if any (else None: random rollouts, uniform
    priors), named as module globals, and ``descend_only=False``.

    numba inlines those kernels (a ``FunctionType`` call cannot be inlined, which costs 10-20%
    on small games) and, as the kernels are globals rather than arguments, caches the result.
    Such a loop runs the same simulations as ``run_simulations`` with the same kernels.
    """
    return compiled_on_first_call(BOUND_SIMULATIONS_T)(py_func)
