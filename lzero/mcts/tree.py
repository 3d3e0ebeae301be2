"""The search tree as preallocated arrays, and the numba types every search kernel shares.

Layout (after mctx's ``Tree``): node ``n`` is a game position; its candidate moves sit in
*slots* ``k < node_num_children[n]`` of the rows ``children_*[n]``. A slot's child node exists
once the slot was first visited (``children_index[n, k] != UNVISITED``), so one simulation adds
one node and ``capacity`` nodes hold ``capacity - 1`` simulations::

    node 0 (root) --slot k: action children_action[0, k]--> node children_index[0, k] ...

Values are stored from the view of the player who made the move *into* a node (the parent's
player to move), so a parent picks ``argmax`` of its children's mean values directly.

Kernels called with game functions as arguments are compiled against the ``FunctionType``
signatures below (see ``lzero.mcts.jit``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np
from numba import njit

from lzero.mcts.game import (  # noqa: F401  (re-exported: the old search's names)
    ACTIONS_T,
    APPLY_ACTION_T,
    BOARD_T,
    DRAW,
    KERNELS_T,
    LEGAL_ACTIONS_T,
    ONGOING,
    PRIORS_T,
    RESULT_AFTER_T,
    RNG_T,
    SCRATCH_T,
    copy_board,
    randbelow_fast,
    terminal_value,
)

ROOT_INDEX = 0
UNVISITED = -1
NO_PARENT = -1


class Tree(NamedTuple):
    """Arrays of one search tree; ``N`` nodes of capacity, ``A`` actions, board ``[H, W]``.

    Attributes:
        node_visits: `[N]` int32, simulations through the node.
        node_value_sum: `[N]` float64, sum of backed-up values, from the view of the player
            who moved into the node.
        node_mean: `[N]` float64, ``node_value_sum / node_visits`` (0 before the first visit).
        node_rsqrt_visits: `[N]` float64, ``1 / sqrt(node_visits)``; with ``node_mean`` kept
            by ``backup`` so that selection costs a multiply-add per child, not a division and
            a square root.
        node_parent: `[N]` int32, parent node (``NO_PARENT`` for the root).
        node_action: `[N]` int32, action that led from the parent to the node.
        node_to_play: `[N]` int8, player (1 or 2) to move at the node.
        node_result: `[N]` int8, game result at the node (``ONGOING``, winner 1 or 2, ``DRAW``).
        node_num_children: `[N]` int32, candidate moves of the node, -1 until expanded.
        children_index: `[N, A]` int32, child node of each slot or ``UNVISITED``.
        children_action: `[N, A]` int32, action of each slot.
        children_prior: `[N, A]` float32, prior probability of each slot (uniform for UCT).
        root_board: `[H, W]` int8, position at the root.
        meta: `[4]` int64, ``[number of nodes, stones on the root board, last leaf, its
            stones]`` (the last two for ``simulate(descend_only=True)``).
    """

    node_visits: np.ndarray
    node_value_sum: np.ndarray
    node_mean: np.ndarray
    node_rsqrt_visits: np.ndarray
    node_parent: np.ndarray
    node_action: np.ndarray
    node_to_play: np.ndarray
    node_result: np.ndarray
    node_num_children: np.ndarray
    children_index: np.ndarray
    children_action: np.ndarray
    children_prior: np.ndarray
    root_board: np.ndarray
    meta: np.ndarray


def make_tree(capacity: int, action_size: int, board_shape: tuple[int, int]) -> Tree:
    """Allocates an empty tree of ``capacity`` nodes (the root is set by ``reset_root``)."""
    n, a = int(capacity), int(action_size)
    return Tree(
        node_visits=np.zeros(n, np.int32),
        node_value_sum=np.zeros(n, np.float64),
        node_mean=np.zeros(n, np.float64),
        node_rsqrt_visits=np.zeros(n, np.float64),
        node_parent=np.full(n, NO_PARENT, np.int32),
        node_action=np.full(n, -1, np.int32),
        node_to_play=np.zeros(n, np.int8),
        node_result=np.zeros(n, np.int8),
        node_num_children=np.full(n, -1, np.int32),
        children_index=np.full((n, a), UNVISITED, np.int32),
        children_action=np.zeros((n, a), np.int32),
        children_prior=np.zeros((n, a), np.float32),
        root_board=np.zeros(board_shape, np.int8),
        meta=np.zeros(4, np.int64),
    )


TREE_T = numba.typeof(make_tree(1, 1, (1, 1)))


@njit(cache=True, inline="always")
def add_node(tree, parent, slot, to_play, result):
    """Appends the child of ``parent``'s ``slot`` and returns its index (capacity is checked
    by the caller)."""
    child = tree.meta[0]
    tree.meta[0] = child + 1
    tree.node_visits[child] = 0
    tree.node_value_sum[child] = 0.0
    tree.node_mean[child] = 0.0
    tree.node_rsqrt_visits[child] = 0.0
    tree.node_parent[child] = parent
    tree.node_action[child] = tree.children_action[parent, slot] if parent >= 0 else -1
    tree.node_to_play[child] = to_play
    tree.node_result[child] = result
    tree.node_num_children[child] = -1
    if parent >= 0:
        tree.children_index[parent, slot] = child
    return child


@njit(cache=True)
def backup(tree, node, value):
    """Adds one visit with ``value`` (view of the player who moved into ``node``) on the path
    to the root, flipping the sign at each level (the players alternate)."""
    backup_arrays(
        tree.node_visits, tree.node_value_sum, tree.node_mean, tree.node_rsqrt_visits,
        tree.node_parent, node, value,
    )  # fmt: skip


@njit(cache=True, inline="always")
def backup_arrays(visits, value_sum, mean, rsqrt_visits, parent, node, value):
    """``backup`` on the tree's arrays (what the search loop calls)."""
    while node != NO_PARENT:
        n = visits[node] + 1
        total = value_sum[node] + value
        visits[node], value_sum[node] = n, total
        mean[node], rsqrt_visits[node] = total / n, 1.0 / math.sqrt(n)
        value = -value
        node = parent[node]


@njit(cache=True)
def reroot(tree, new_root, out):
    """Copies the subtree under ``new_root`` of ``tree`` into ``out`` with ``new_root`` as
    ``ROOT_INDEX`` (breadth-first, so parents precede children); ``out``'s root board must be
    set by the caller. Returns the number of nodes copied (the subtree must fit in ``out``)."""
    cap = out.node_visits.shape[0]
    order = np.empty(cap, np.int64)
    order[0] = new_root
    head, count = 0, 1
    while head < count:
        old = order[head]
        new = head
        out.node_visits[new] = tree.node_visits[old]
        out.node_value_sum[new] = tree.node_value_sum[old]
        out.node_mean[new] = tree.node_mean[old]
        out.node_rsqrt_visits[new] = tree.node_rsqrt_visits[old]
        out.node_to_play[new] = tree.node_to_play[old]
        out.node_result[new] = tree.node_result[old]
        out.node_num_children[new] = tree.node_num_children[old]
        if new == 0:
            out.node_parent[new] = NO_PARENT
            out.node_action[new] = -1
        for k in range(max(tree.node_num_children[old], 0)):
            out.children_action[new, k] = tree.children_action[old, k]
            out.children_prior[new, k] = tree.children_prior[old, k]
            child = tree.children_index[old, k]
            if child == UNVISITED or count >= cap:
                out.children_index[new, k] = UNVISITED
                continue
            order[count] = child
            out.children_index[new, k] = count
            out.node_parent[count] = new
            out.node_action[count] = tree.children_action[old, k]
            count += 1
        head += 1
    out.meta[0] = count
    return count
