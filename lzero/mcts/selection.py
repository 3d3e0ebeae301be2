"""Selection rules: which slot of a node the search descends into.

The search takes the rule as a parameter, a code (``UCB1``, ``PUCT``), rather than as a
function argument, and its loop (``lzero.mcts.uct.simulate``) writes both formulas out: a
numba ``FunctionType`` call cannot be inlined and passed the whole ``Tree``, and even an
inlined helper left numba's atomic reference counting of its array arguments in the loop
(a third of a TicTacToe simulation, measured with perf). The functions here are the
reference formulas; a test checks that the loop selects as they do.
Slots are shuffled when a node is expanded, so "the first unvisited slot" is a uniformly
random unvisited move and the rules need no random generator.
"""

from __future__ import annotations

import math

from numba import njit

from lzero.mcts.game import uniform_priors  # noqa: F401  (re-exported)
from lzero.mcts.tree import UNVISITED

UCB1 = 0
PUCT = 1
#: Selection rules by name, as ``UCTSearch(selection=...)`` takes them.
RULES = {"ucb1": UCB1, "puct": PUCT}


@njit(cache=True, inline="always")
def ucb1_select(children_index, mean, rsqrt_visits, visits, num_children, node, c):
    """UCB1 (Auer, Cesa-Bianchi and Fischer 2002; UCT, Kocsis and Szepesvari 2006).

    Picks ``argmax_k Q_k + c * sqrt(ln N / n_k)`` with ``N`` the node's visits, ``n_k`` and
    ``Q_k`` the visits and mean value of slot ``k``; an unvisited slot is taken first.

    Args:
        children_index, mean, rsqrt_visits, visits, num_children: the ``Tree``'s arrays of
            those names (``node_*`` for the per-node ones).
        node: expanded, non-terminal node.
        c: exploration constant (values lie in ``[-1, 1]``).

    Returns:
        The chosen slot.
    """
    scale = c * math.sqrt(math.log(max(visits[node], 1)))
    best_k, best = 0, -math.inf
    for k in range(num_children[node]):
        child = children_index[node, k]
        if child == UNVISITED:
            return k
        score = mean[child] + scale * rsqrt_visits[child]
        if score > best:
            best_k, best = k, score
    return best_k


@njit(cache=True, inline="always")
def puct_select(children_index, mean, prior, visits, num_children, node, c):
    """PUCT of AlphaZero (Silver et al. 2017): ``argmax_k Q_k + c * P_k * sqrt(N) / (1 + n_k)``.

    ``P_k`` is ``children_prior``; an unvisited slot counts ``Q_k = 0``. For evaluators that
    set priors when a node is expanded (``lzero.mcts.network``). Arguments as ``ucb1_select``.
    """
    sqrt_n = math.sqrt(max(visits[node], 1))
    best_k, best = 0, -math.inf
    for k in range(num_children[node]):
        child = children_index[node, k]
        q, n = 0.0, 0
        if child != UNVISITED:
            q, n = mean[child], visits[child]
        score = q + c * prior[node, k] * sqrt_n / (1 + n)
        if score > best:
            best_k, best = k, score
    return best_k
