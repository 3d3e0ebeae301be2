"""Selection rules: which slot of a node the search descends into.

The search takes the rule as a parameter, a code (``UCB1``, ``PUCT``) that ``select_slot``
branches on, rather than as a function argument: a numba ``FunctionType`` call cannot be
inlined and passes the whole ``Tree`` by value, which cost 15% of a TicTacToe simulation.
Slots are shuffled when a node is expanded, so "the first unvisited slot" is a uniformly
random unvisited move and the rules need no random generator.
"""

from __future__ import annotations

import math

from numba import njit

from lzero.mcts.tree import UNVISITED

UCB1 = 0
PUCT = 1
#: Selection rules by name, as ``UCTSearch(selection=...)`` takes them.
RULES = {"ucb1": UCB1, "puct": PUCT}


@njit(cache=True, inline="always")
def ucb1_select(tree, node, c):
    """UCB1 (Auer, Cesa-Bianchi and Fischer 2002; UCT, Kocsis and Szepesvari 2006).

    Picks ``argmax_k Q_k + c * sqrt(ln N / n_k)`` with ``N`` the node's visits, ``n_k`` and
    ``Q_k`` the visits and mean value of slot ``k``; an unvisited slot is taken first.

    Args:
        tree: the search ``Tree``.
        node: expanded, non-terminal node.
        c: exploration constant (values lie in ``[-1, 1]``).

    Returns:
        The chosen slot.
    """
    scale = c * math.sqrt(math.log(max(tree.node_visits[node], 1)))
    best_k, best = 0, -math.inf
    for k in range(tree.node_num_children[node]):
        child = tree.children_index[node, k]
        if child == UNVISITED:
            return k
        score = tree.node_mean[child] + scale * tree.node_rsqrt_visits[child]
        if score > best:
            best_k, best = k, score
    return best_k


@njit(cache=True, inline="always")
def puct_select(tree, node, c):
    """PUCT of AlphaZero (Silver et al. 2017): ``argmax_k Q_k + c * P_k * sqrt(N) / (1 + n_k)``.

    ``P_k`` is ``children_prior``; an unvisited slot counts ``Q_k = 0``. For network evaluators
    that set priors when a node is expanded.
    """
    sqrt_n = math.sqrt(max(tree.node_visits[node], 1))
    best_k, best = 0, -math.inf
    for k in range(tree.node_num_children[node]):
        child = tree.children_index[node, k]
        q, visits = 0.0, 0
        if child != UNVISITED:
            visits = tree.node_visits[child]
            q = tree.node_mean[child]
        score = q + c * tree.children_prior[node, k] * sqrt_n / (1 + visits)
        if score > best:
            best_k, best = k, score
    return best_k


@njit(cache=True, inline="always")
def select_slot(tree, node, rule, c):
    """The slot of ``node`` chosen by ``rule`` (``UCB1`` or ``PUCT``) with constant ``c``."""
    if rule == PUCT:
        return puct_select(tree, node, c)
    return ucb1_select(tree, node, c)
