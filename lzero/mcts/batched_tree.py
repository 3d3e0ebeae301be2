"""B search trees as preallocated arrays, and the numba kernels that step all of them at once.

Layout (after mctx's ``Tree``, Danihelka et al. 2022): ``B`` independent trees of ``N`` nodes
and ``A`` actions. Node 0 is each tree's root; a node's children are indexed by action, so
``children_index[b, n, a]`` is the node reached from ``n`` by ``a``, or ``UNVISITED``::

    node 0 (root) --action a--> node children_index[b, 0, a] --action a'--> ...

Values follow mctx's convention, which serves one-player tasks and two-player games alike:
``node_value_sum[b, n] / node_visits[b, n]`` is the node's value for the player to move there,
and an edge into ``n`` carries a reward ``node_reward[b, n]`` for the player who moved and a
discount ``node_discount[b, n]``. The value of taking ``a`` at ``n`` is then
``Q = reward + discount * value(child)``: two-player zero-sum games use a discount of ``-1``
(the child's value is the opponent's), a one-player task ``gamma``. A finished board game is a
node whose edge reward is the result for the mover (+1 win, 0 draw) and whose value is 0.

One simulation step (``select`` or ``board_select``) descends every tree from its root by the
selection rule to an edge not taken before, adds that node, and returns the ``B`` new leaves;
the caller evaluates them as a batch (a network, a rollout) and ``expand_and_backup`` expands
them with their priors and backs their values up, again for all ``B`` trees in one call.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np
from numba import njit

ROOT_INDEX = 0
UNVISITED = -1
NO_PARENT = -1

#: Selection rules (``BatchedSearch(selection=...)``).
PUCT = 1
UCB1 = 0


class BatchedTree(NamedTuple):
    """Arrays of ``B`` trees of ``N`` nodes over ``A`` actions.

    Attributes:
        node_visits: `[B, N]` int32, simulations through the node (its own evaluation included).
        node_value_sum: `[B, N]` float64, sum of backed-up values, for the player to move at
            the node.
        node_reward: `[B, N]` float32, reward of the edge into the node, for its mover.
        node_discount: `[B, N]` float32, discount of the edge into the node (``-1`` in
            two-player zero-sum games).
        node_parent: `[B, N]` int32, parent node (``NO_PARENT`` at the root).
        node_action: `[B, N]` int32, action from the parent into the node (-1 at the root).
        node_to_play: `[B, N]` int8, player to move at the node (1 or 2; 0 in one-player tasks).
        node_terminal: `[B, N]` bool, the game is over at the node (it is never expanded).
        node_expanded: `[B, N]` bool, priors and legal mask of the node are set.
        children_index: `[B, N, A]` int32, child node of each action or ``UNVISITED``.
        children_prior: `[B, N, A]` float32, prior of each action (0 where illegal).
        children_legal: `[B, N, A]` bool, legal actions of the node.
        num_nodes: `[B]` int32, nodes in use in each tree.
        min_max: `[B, 2]` float64, least and greatest ``Q`` seen in each tree (MuZero's
            normalisation; Schrittwieser et al. 2020, appendix B).
    """

    node_visits: np.ndarray
    node_value_sum: np.ndarray
    node_reward: np.ndarray
    node_discount: np.ndarray
    node_parent: np.ndarray
    node_action: np.ndarray
    node_to_play: np.ndarray
    node_terminal: np.ndarray
    node_expanded: np.ndarray
    children_index: np.ndarray
    children_prior: np.ndarray
    children_legal: np.ndarray
    num_nodes: np.ndarray
    min_max: np.ndarray


def make_batched_tree(batch_size: int, capacity: int, action_size: int) -> BatchedTree:
    """Allocates ``batch_size`` empty trees of ``capacity`` nodes (roots set by ``reset_roots``)."""
    b, n, a = int(batch_size), int(capacity), int(action_size)
    return BatchedTree(
        node_visits=np.zeros((b, n), np.int32),
        node_value_sum=np.zeros((b, n), np.float64),
        node_reward=np.zeros((b, n), np.float32),
        node_discount=np.zeros((b, n), np.float32),
        node_parent=np.full((b, n), NO_PARENT, np.int32),
        node_action=np.full((b, n), -1, np.int32),
        node_to_play=np.zeros((b, n), np.int8),
        node_terminal=np.zeros((b, n), np.bool_),
        node_expanded=np.zeros((b, n), np.bool_),
        children_index=np.full((b, n, a), UNVISITED, np.int32),
        children_prior=np.zeros((b, n, a), np.float32),
        children_legal=np.zeros((b, n, a), np.bool_),
        num_nodes=np.zeros(b, np.int32),
        min_max=np.zeros((b, 2), np.float64),
    )


BATCHED_TREE_T = numba.typeof(make_batched_tree(1, 1, 1))


@njit(cache=True)
def reset_roots(tree, to_play):
    """Empties every tree and adds its root, unexpanded and unvisited, ``to_play`` `[B]` to move.

    Only the nodes the last search used are cleared, so a reset costs what the search did.
    """
    for b in range(tree.num_nodes.shape[0]):
        for n in range(max(tree.num_nodes[b], 1)):
            for a in range(tree.children_index.shape[2]):
                tree.children_index[b, n, a] = UNVISITED
        _init_node(tree, b, 0, NO_PARENT, -1, to_play[b], 0.0, 1.0, False)
        tree.num_nodes[b] = 1
        tree.min_max[b, 0] = math.inf
        tree.min_max[b, 1] = -math.inf


@njit(cache=True, inline="always")
def _init_node(tree, b, node, parent, action, to_play, reward, discount, terminal):
    tree.node_visits[b, node] = 0
    tree.node_value_sum[b, node] = 0.0
    tree.node_reward[b, node] = reward
    tree.node_discount[b, node] = discount
    tree.node_parent[b, node] = parent
    tree.node_action[b, node] = action
    tree.node_to_play[b, node] = to_play
    tree.node_terminal[b, node] = terminal
    tree.node_expanded[b, node] = False


@njit(cache=True, inline="always")
def child_q(tree, b, child, normalize):
    """``Q`` of the edge into a visited ``child``, min-max normalised to ``[0, 1]`` if asked."""
    q = tree.node_reward[b, child] + tree.node_discount[b, child] * (
        tree.node_value_sum[b, child] / tree.node_visits[b, child]
    )
    if normalize:
        lo, hi = tree.min_max[b, 0], tree.min_max[b, 1]
        if hi > lo:
            q = (q - lo) / (hi - lo)
    return q


@njit(cache=True, inline="always")
def select_action(tree, b, node, rule, c1, c2, normalize):
    """The action the selection rule takes at expanded ``node`` of tree ``b``.

    PUCT as AlphaZero (Silver et al. 2018, pseudocode): ``Q + C(N) * P * sqrt(N) / (1 + n)``
    with ``C(N) = c1 + log((N + c2 + 1) / c2)``; an unvisited action has ``Q = 0``. UCB1
    (Auer et al. 2002): ``Q + c1 * sqrt(ln N / n)``, unvisited actions first (the lowest).
    ``N`` is the node's visits, ``n`` the child's. Ties go to the lowest action. Illegal
    actions are never taken.
    """
    parent_visits = tree.node_visits[b, node]
    best, best_score = -1, -math.inf
    if rule == PUCT:
        scale = (c1 + math.log((parent_visits + c2 + 1.0) / c2)) * math.sqrt(parent_visits)
        for a in range(tree.children_index.shape[2]):
            if not tree.children_legal[b, node, a]:
                continue
            child = tree.children_index[b, node, a]
            q, n = 0.0, 0
            if child != UNVISITED:
                q, n = child_q(tree, b, child, normalize), tree.node_visits[b, child]
            score = q + scale * tree.children_prior[b, node, a] / (1.0 + n)
            if score > best_score:
                best, best_score = a, score
    else:
        log_n = math.log(max(parent_visits, 1))
        for a in range(tree.children_index.shape[2]):
            if not tree.children_legal[b, node, a]:
                continue
            child = tree.children_index[b, node, a]
            if child == UNVISITED:
                return a
            score = child_q(tree, b, child, normalize) + c1 * math.sqrt(
                log_n / tree.node_visits[b, child]
            )
            if score > best_score:
                best, best_score = a, score
    return best


@njit(cache=True, inline="always")
def descend(tree, b, rule, c1, c2, normalize):
    """Follows the selection rule from the root of tree ``b`` to an edge not taken before.

    Returns:
        ``(node, action)``: the expanded node and the untaken action; ``action`` is -1 when
        the descent ended on a terminal or unexpanded node ``node`` instead.
    """
    node = ROOT_INDEX
    while tree.node_expanded[b, node] and not tree.node_terminal[b, node]:
        action = select_action(tree, b, node, rule, c1, c2, normalize)
        child = tree.children_index[b, node, action]
        if child == UNVISITED:
            return node, action
        node = child
    return node, -1


@njit(cache=True, inline="always")
def add_child(tree, b, node, action, to_play, reward, discount, terminal):
    """Adds the child of ``node`` by ``action`` and returns it (capacity is the caller's; its
    ``children_index`` row is clean, as ``reset_roots`` clears every row a search used)."""
    child = tree.num_nodes[b]
    tree.num_nodes[b] = child + 1
    _init_node(tree, b, child, node, action, to_play, reward, discount, terminal)
    tree.children_index[b, node, action] = child
    return child


@njit(cache=True)
def select(tree, rule, c1, c2, normalize, parents, actions):
    """One descent in each tree, for an evaluator that computes the next state itself
    (MuZero's dynamics): writes the expanded node and the action taken into ``parents`` `[B]`
    and ``actions`` `[B]` (-1 if the descent ended on a terminal node, re-evaluated as is)."""
    for b in range(tree.num_nodes.shape[0]):
        parents[b], actions[b] = descend(tree, b, rule, c1, c2, normalize)


@njit(cache=True)
def add_children(tree, parents, actions, to_play, rewards, discounts, terminal, leaves):
    """Adds the leaves ``select`` chose, with their player to move, edge reward and discount
    and terminal flag (each `[B]`), and writes their indices into ``leaves`` `[B]`."""
    for b in range(tree.num_nodes.shape[0]):
        if actions[b] < 0:
            leaves[b] = parents[b]
        else:
            leaves[b] = add_child(
                tree, b, parents[b], actions[b], to_play[b], rewards[b], discounts[b], terminal[b]
            )


@njit(cache=True)
def expand_and_backup(tree, leaves, priors, legal, values, active):
    """Expands each active tree's leaf with ``priors`` `[B, A]` over ``legal`` `[B, A]` and backs
    its value ``values`` `[B]` (for the player to move at the leaf) up to the root.

    The priors are renormalised over the legal actions (uniform if they sum to 0 there). A
    terminal leaf is not expanded and its value is 0: its edge reward holds the result.
    Inactive trees (``active[b]`` False) are left unchanged.
    """
    num_actions = priors.shape[1]
    for b in range(leaves.shape[0]):
        if not active[b]:
            continue
        leaf = leaves[b]
        value = 0.0
        if not tree.node_terminal[b, leaf]:
            value = values[b]
            if not tree.node_expanded[b, leaf]:
                total, count = 0.0, 0
                for a in range(num_actions):
                    if legal[b, a]:
                        total += max(priors[b, a], 0.0)
                        count += 1
                for a in range(num_actions):
                    tree.children_legal[b, leaf, a] = legal[b, a]
                    p = 0.0
                    if legal[b, a]:
                        p = max(priors[b, a], 0.0) / total if total > 0 else 1.0 / count
                    tree.children_prior[b, leaf, a] = p
                tree.node_expanded[b, leaf] = True
        backup(tree, b, leaf, value)


@njit(cache=True, inline="always")
def backup(tree, b, node, value):
    """Adds a visit with ``value`` (for the player to move at ``node``) on the path to the root;
    a parent's value is the edge's ``reward + discount * value``."""
    while True:
        tree.node_visits[b, node] += 1
        tree.node_value_sum[b, node] += value
        parent = tree.node_parent[b, node]
        if parent == NO_PARENT:
            return
        value = tree.node_reward[b, node] + tree.node_discount[b, node] * value
        q = child_q(tree, b, node, False)
        tree.min_max[b, 0] = min(tree.min_max[b, 0], q)
        tree.min_max[b, 1] = max(tree.min_max[b, 1], q)
        node = parent


@njit(cache=True)
def root_statistics(tree, visits, q, values):
    """Writes the root's child visits `[B, A]`, child ``Q`` `[B, A]` (0 where unvisited) and
    root value `[B]`."""
    for b in range(visits.shape[0]):
        for a in range(visits.shape[1]):
            child = tree.children_index[b, ROOT_INDEX, a]
            if child == UNVISITED:
                visits[b, a], q[b, a] = 0, 0.0
            else:
                visits[b, a] = tree.node_visits[b, child]
                q[b, a] = child_q(tree, b, child, False)
        n = tree.node_visits[b, ROOT_INDEX]
        values[b] = tree.node_value_sum[b, ROOT_INDEX] / n if n > 0 else 0.0
