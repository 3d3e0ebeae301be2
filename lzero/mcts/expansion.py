"""Expansion: listing a node's candidate moves, and setting up the root of a search.

A node is expanded the first time a simulation passes through it (Browne et al., "A Survey of
Monte Carlo Tree Search Methods", 2012): its candidate moves (``candidate_actions``; with
tactics, only its decisive or anti-decisive ones) are listed in its slots in random order,
with their priors. The root is expanded before the simulations, by ``reset_root`` for a new
tree or ``prepare_root`` for one reused from an earlier search, and with ``tactics`` filtered
(``filter_root``). The entry points are compiled on first use against explicit
``FunctionType`` signatures, which numba can cache on disk (see ``lzero.mcts.jit``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from lzero.mcts.jit import compiled_on_first_call
from lzero.mcts.rollout import candidate_actions
from lzero.mcts.tactics import decisive_moves, filter_root
from lzero.mcts.tree import (
    BOARD_T,
    KERNELS_T,
    NO_PARENT,
    ONGOING,
    PRIORS_T,
    RNG_T,
    ROOT_INDEX,
    SCRATCH_T,
    TREE_T,
    UNVISITED,
    add_node,
    copy_board,
    randbelow_fast,
)


@njit(cache=True, inline="always")
def expand(
    tree, node, board, num_moves, radius, tactics, rng, scratch,
    legal_actions, apply_action, result_after, priors,
):  # fmt: skip
    """Lists ``node``'s candidate moves in its slots, in random order, with ``priors``
    (``PRIORS_T``, or None for uniform ones); with ``tactics``, only its decisive or
    anti-decisive moves if it has any."""
    list_children(
        tree.children_action, tree.children_index, tree.children_prior,
        tree.node_num_children, node, np.int64(tree.node_to_play[node]), board, num_moves,
        radius, tactics, rng, scratch, legal_actions, apply_action, result_after, priors,
    )  # fmt: skip


@njit(cache=True, inline="always")
def list_children(
    children_action, children_index, children_prior, node_num_children, node, to_play,
    board, num_moves, radius, tactics, rng, scratch, legal_actions, apply_action, result_after,
    priors,
):  # fmt: skip
    """``expand`` on the tree's arrays (the loop passes arrays, not the ``Tree``: see
    ``lzero.mcts.uct.simulate``)."""
    n = candidate_actions(board, radius, scratch, scratch[3], legal_actions)
    if tactics:
        n = decisive_moves(
            board, to_play, num_moves, scratch[3], n, scratch[0], apply_action, result_after
        )
    for i in range(n - 1, 0, -1):
        j = randbelow_fast(rng, i + 1)
        scratch[3, i], scratch[3, j] = scratch[3, j], scratch[3, i]
    if priors is None:
        prior = 1.0 / max(n, 1)
        for k in range(n):
            children_prior[node, k] = prior
    else:
        priors(board, to_play, scratch[3], n, children_prior[node])
    for k in range(n):
        children_action[node, k] = scratch[3, k]
        children_index[node, k] = UNVISITED
    node_num_children[node] = n


@njit(cache=True)
def _prepare_root(
    tree, radius, tactics, rng, scratch, legal_actions, apply_action, result_after, priors
):
    if tree.node_num_children[ROOT_INDEX] < 0:
        expand(
            tree, ROOT_INDEX, tree.root_board, tree.meta[1], radius, False, rng, scratch,
            legal_actions, apply_action, result_after, priors,
        )  # fmt: skip
    if tactics:
        return filter_root(tree, scratch, legal_actions, apply_action, result_after)
    return tree.node_num_children[ROOT_INDEX]


@compiled_on_first_call(
    types.int64(
        TREE_T,
        types.int64,
        types.boolean,
        RNG_T,
        SCRATCH_T,
        *KERNELS_T,
        PRIORS_T,
    )
)
def prepare_root(
    tree, radius, tactics, rng, scratch, legal_actions, apply_action, result_after, priors
):
    """Expands the root of ``tree`` if needed and, if ``tactics``, filters its moves.

    With ``tactics`` a winning move becomes the only root candidate, and moves that allow the
    opponent an immediate win are dropped unless all do. Slots keep their child subtrees, so
    this also serves a root reused from an earlier search. Returns the number of candidates.
    """
    return _prepare_root(
        tree, radius, tactics, rng, scratch, legal_actions, apply_action, result_after, priors
    )


@compiled_on_first_call(
    types.int64(
        TREE_T,
        BOARD_T,
        types.int64,
        types.int64,
        types.boolean,
        RNG_T,
        SCRATCH_T,
        *KERNELS_T,
        PRIORS_T,
    )
)
def reset_root(
    tree, board, to_play, radius, tactics, rng, scratch, legal_actions, apply_action,
    result_after, priors,
):  # fmt: skip
    """Empties ``tree`` and expands a root for ``board`` with ``to_play`` to move.

    Args:
        tree: the ``Tree`` to reuse.
        board: `[H, W]` int8 ongoing position (copied into ``tree.root_board``).
        to_play: player to move, 1 or 2.
        radius: near-stone candidate radius (0: all legal moves).
        tactics: if True, a winning move is the only root candidate, and moves that allow
            the opponent an immediate win are dropped (unless all do).
        rng: `[1]` uint64 generator state.
        scratch: `[4, A]` int64 work array.
        legal_actions, apply_action, result_after: the game's kernels.
        priors: the root's move priors, ``PRIORS_T``.

    Returns:
        The number of root candidates.
    """
    copy_board(board, tree.root_board)
    stones = 0
    for cell in range(board.size):
        if board.reshape(-1)[cell] != 0:
            stones += 1
    tree.meta[0] = 0
    tree.meta[1] = stones
    add_node(tree, NO_PARENT, 0, to_play, ONGOING)
    return _prepare_root(
        tree, radius, tactics, rng, scratch, legal_actions, apply_action, result_after, priors
    )
