"""B search trees as preallocated arrays, and the numba kernels that step all of them at once.

Layout (after mctx's ``Tree``, Danihelka et al. 2022): ``B`` independent trees of ``N`` nodes;
node 0 is each tree's root. An expanded node lists its candidate moves in *slots*
``k < node_num_children[b, n]`` (at most ``A``): slot ``k`` plays ``children_action[b, n, k]``
with prior ``children_prior[b, n, k]`` and leads to node ``children_index[b, n, k]``, or
``UNVISITED``. Selection scans the slots only, so a Gomoku node with 40 candidates near the
stones costs 40, not 225::

    node 0 (root) --slot k: action children_action[b, 0, k]--> node children_index[b, 0, k]

Values follow mctx's convention, which serves one-player tasks and two-player games alike:
``node_value_sum[b, n] / node_visits[b, n]`` is the node's value for the player to move there,
and an edge into ``n`` carries a reward ``node_reward[b, n]`` for the player who moved and a
discount ``node_discount[b, n]``. The value of taking an edge is then
``Q = reward + discount * value(child)``: two-player zero-sum games use a discount of ``-1``
(the child's value is the opponent's), a one-player task ``gamma``. A finished board game is a
node whose edge reward is the result for the mover (+1 win, 0 draw, -1 a loss by the count)
and whose value is 0.
``backup`` keeps each node's ``Q`` and ``1 / sqrt(visits)`` (``node_q``, ``node_rsqrt``), so
that selection costs a multiply-add per slot rather than a division and a square root.

One simulation step (``board_select`` of ``lzero.mcts.batched_board``, or ``latent_select`` of
``lzero.mcts.latent_search`` for MuZero) descends every tree from its root by the selection
rule to an edge not taken before, adds that node, and returns the ``B`` new leaves; the caller
evaluates them as a batch (a network) and ``expand_and_backup`` expands them with their priors
and backs their values up, again for all ``B`` trees in one call. ``lzero.mcts.batched_loop``
runs whole searches in numba instead, with a numba leaf evaluator (random rollouts, Gomoku's
line windows).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numba
import numpy as np
from numba import njit, types

from lzero.mcts.jit import compiled_on_first_call

ROOT_INDEX = 0
UNVISITED = -1
NO_PARENT = -1

#: Selection rules (``BatchedSearch(selection=...)``); GUMBEL is ``lzero.mcts.gumbel``'s.
PUCT = 1
UCB1 = 0
GUMBEL = 2


class BatchedTree(NamedTuple):
    """Arrays of ``B`` trees of ``N`` nodes with up to ``A`` slots each.

    Attributes:
        node_visits: `[B, N]` int32, simulations through the node (its own evaluation included).
        node_value_sum: `[B, N]` float64, sum of backed-up values, for the player to move at
            the node.
        node_q: `[B, N]` float64, ``Q`` of the edge into the node (``reward + discount *
            value_sum / visits``), for its mover; 0 until visited.
        node_rsqrt: `[B, N]` float64, ``1 / sqrt(visits)`` (0 until visited).
        node_visited_mass: `[B, N]` float64, the priors of the node's slots that have a child,
            summed as ``add_child`` adds them (first-play urgency's visited policy mass).
        node_raw_value: `[B, N]` float64, the evaluator's value of the node when it was
            expanded, for its mover (Gumbel's mixed value; 0 until expanded).
        node_reward: `[B, N]` float32, reward of the edge into the node, for its mover.
        node_discount: `[B, N]` float32, discount of the edge into the node (``-1`` in
            two-player zero-sum games).
        node_parent: `[B, N]` int32, parent node (``NO_PARENT`` at the root).
        node_action: `[B, N]` int32, action from the parent into the node (-1 at the root).
        node_to_play: `[B, N]` int8, player to move at the node (1 or 2; 0 in one-player tasks).
        node_terminal: `[B, N]` bool, the game is over at the node (it is never expanded).
        node_num_children: `[B, N]` int32, slots of the node; -1 until it is expanded.
        children_index: `[B, N, A]` int32, child node of each slot or ``UNVISITED``.
        children_action: `[B, N, A]` int32, action of each slot.
        children_prior: `[B, N, A]` float32, prior of each slot.
        num_nodes: `[B]` int32, nodes in use in each tree.
        min_max: `[B, 2]` float64, least and greatest ``Q`` seen in each tree (MuZero's
            normalisation; Schrittwieser et al. 2020, appendix B).
    """

    node_visits: np.ndarray
    node_value_sum: np.ndarray
    node_q: np.ndarray
    node_rsqrt: np.ndarray
    node_visited_mass: np.ndarray
    node_raw_value: np.ndarray
    node_reward: np.ndarray
    node_discount: np.ndarray
    node_parent: np.ndarray
    node_action: np.ndarray
    node_to_play: np.ndarray
    node_terminal: np.ndarray
    node_num_children: np.ndarray
    children_index: np.ndarray
    children_action: np.ndarray
    children_prior: np.ndarray
    num_nodes: np.ndarray
    min_max: np.ndarray


def make_batched_tree(batch_size: int, capacity: int, action_size: int) -> BatchedTree:
    """Allocates ``batch_size`` empty trees of ``capacity`` nodes (roots set by ``reset_roots``)."""
    b, n, a = int(batch_size), int(capacity), int(action_size)
    return BatchedTree(
        node_visits=np.zeros((b, n), np.int32),
        node_value_sum=np.zeros((b, n), np.float64),
        node_q=np.zeros((b, n), np.float64),
        node_rsqrt=np.zeros((b, n), np.float64),
        node_visited_mass=np.zeros((b, n), np.float64),
        node_raw_value=np.zeros((b, n), np.float64),
        node_reward=np.zeros((b, n), np.float32),
        node_discount=np.zeros((b, n), np.float32),
        node_parent=np.full((b, n), NO_PARENT, np.int32),
        node_action=np.full((b, n), -1, np.int32),
        node_to_play=np.zeros((b, n), np.int8),
        node_terminal=np.zeros((b, n), np.bool_),
        node_num_children=np.full((b, n), -1, np.int32),
        children_index=np.full((b, n, a), UNVISITED, np.int32),
        children_action=np.zeros((b, n, a), np.int32),
        children_prior=np.zeros((b, n, a), np.float32),
        num_nodes=np.zeros(b, np.int32),
        min_max=np.zeros((b, 2), np.float64),
    )


def grow_batched_tree(tree: BatchedTree, capacity: int) -> BatchedTree:
    """A copy of ``tree`` with room for ``capacity`` nodes per tree (its nodes kept)."""
    b, n, a = tree.children_index.shape
    new = make_batched_tree(b, max(capacity, n), a)
    for src, dst in zip(tree, new):
        if src.ndim >= 2:
            dst[:, :n] = src
        else:
            dst[:] = src
    return new


BATCHED_TREE_T = numba.typeof(make_batched_tree(1, 1, 1))


def _array(dtype, ndim):
    return types.Array(dtype, ndim, "C")


# The Python-facing entry points below are compiled against explicit signatures
# (``compiled_on_first_call``): numba's type dispatch of the tree's 16 arrays costs 20-30 us
# per call, more than a TicTacToe search of 100 simulations spends in them.
@compiled_on_first_call(types.none(BATCHED_TREE_T, _array(types.int8, 1)))
def reset_roots(tree, to_play):
    """Empties every tree and adds its root, unexpanded and unvisited, ``to_play`` `[B]` to move."""
    for b in range(tree.num_nodes.shape[0]):
        reset_root(tree, b, to_play[b])


@njit(cache=True, inline="always")
def reset_root(tree, b, to_play):
    """Empties tree ``b`` and adds its root, unexpanded and unvisited, ``to_play`` to move."""
    init_node(tree, b, ROOT_INDEX, NO_PARENT, -1, to_play, 0.0, 1.0, False)
    tree.num_nodes[b] = 1
    tree.min_max[b, 0] = math.inf
    tree.min_max[b, 1] = -math.inf


@njit(cache=True, inline="always")
def init_node(tree, b, node, parent, action, to_play, reward, discount, terminal):
    tree.node_visits[b, node] = 0
    tree.node_value_sum[b, node] = 0.0
    tree.node_q[b, node] = 0.0
    tree.node_rsqrt[b, node] = 0.0
    tree.node_visited_mass[b, node] = 0.0
    tree.node_raw_value[b, node] = 0.0
    tree.node_reward[b, node] = reward
    tree.node_discount[b, node] = discount
    tree.node_parent[b, node] = parent
    tree.node_action[b, node] = action
    tree.node_to_play[b, node] = to_play
    tree.node_terminal[b, node] = terminal
    tree.node_num_children[b, node] = -1


@njit(cache=True, inline="always")
def _puct_scale(parent_visits, c1, c2):
    """PUCT's ``C(N) * sqrt(N)`` with ``C(N) = c1 + log((N + c2 + 1) / c2)`` (``select_slot``)."""
    return (c1 + math.log1p((parent_visits + 1.0) / c2)) * math.sqrt(parent_visits)


@njit(cache=True, inline="always")
def _puct_slot(visits, q_of, children, prior, n, node, scale, norm, lo, hi, unvisited_q):
    """The first of ``node``'s slots ``0..n-1`` with the highest PUCT score ``Q + scale * P /
    (1 + n)`` (``select_slot``), an unvisited slot's ``Q`` being ``unvisited_q``.

    Without a branch on the data: every slot reads a child's ``Q`` and visits (the node's own
    for an unvisited slot, then not used) and the running best is kept by selects. Whether a
    slot was visited, and whether it beats the best so far, follow the position, and those
    branches mispredicted: on 9x9 Gomoku self-play trees the descent took 4-12% longer.
    """
    best, best_score = 0, -math.inf
    for k in range(n):
        child = children[node, k]
        visited = child != UNVISITED
        read = child if visited else node
        q = q_of[read]
        if norm:
            q = (q - lo) / (hi - lo)
        q = q if visited else unvisited_q
        visits_k = visits[read] if visited else 0
        score = q + scale * prior[node, k] / (1.0 + visits_k)
        take = score > best_score
        best = k if take else best
        best_score = score if take else best_score
    return best


@njit(cache=True, inline="always")
def select_slot(
    visits, q_of, rsqrt, children, prior, num_children, min_max, node, rule, c1, c2, normalize,
    unvisited_q,
):  # fmt: skip
    """The slot the selection rule takes at expanded ``node``, on one tree's arrays
    (``node_visits`` `[N]`, ``node_q`` `[N]`, ``node_rsqrt`` `[N]`, ``children_index`` `[N, A]`,
    ``children_prior`` `[N, A]`, ``node_num_children`` `[N]`, ``min_max`` `[2]`).

    PUCT as AlphaZero (Silver et al. 2018, pseudocode): ``Q + C(N) * P * sqrt(N) / (1 + n)``
    with ``C(N) = c1 + log((N + c2 + 1) / c2)`` (``c2 = inf``: the constant ``c1`` of AlphaGo
    Zero); an unvisited slot scores ``unvisited_q`` for its ``Q`` as given (0, or the node's
    mean ``Q`` already normalised by ``descend``). UCB1 (Auer et al. 2002):
    ``Q + c1 * sqrt(ln N / n)``, the first unvisited slot first. ``N`` is the node's visits (at
    least 1), ``n`` the child's; ``Q`` is min-max normalised to ``[0, 1]`` if ``normalize``.
    Ties go to the first slot. The loop keeps to arrays: a helper handed the tree tuple made
    numba count references to all its arrays at every call.
    """
    parent_visits = max(visits[node], 1)
    lo, hi = min_max[0], min_max[1]
    norm = normalize and hi > lo
    if rule == PUCT:
        scale = _puct_scale(parent_visits, c1, c2)
        return _puct_slot(
            visits, q_of, children, prior, num_children[node], node, scale, norm, lo, hi,
            unvisited_q,
        )  # fmt: skip
    else:
        best, best_score = 0, -math.inf
        scale = c1 * math.sqrt(math.log(parent_visits))
        for k in range(num_children[node]):
            child = children[node, k]
            if child == UNVISITED:
                return k
            q = q_of[child]
            if norm:
                q = (q - lo) / (hi - lo)
            score = q + scale * rsqrt[child]
            if score > best_score:
                best, best_score = k, score
    return best


@njit(cache=True, inline="always")
def _mean_q(q, children, num_children, discount, node, parent_mean):
    """The ``Q`` an unvisited slot of ``node`` gets with ``descend``'s ``mean_q_unvisited``,
    as in LightZero's (EfficientZero's) MuZero trees (``compute_mean_q``): at the root the
    mean ``Q`` of its visited slots (0 if none); below, the mean of those and the parent's own
    mean (``parent_mean``, for the parent's mover: negated when the edge's discount is
    negative, a two-player tree)."""
    total, count = 0.0, 0
    for k in range(num_children[node]):
        child = children[node, k]
        if child != UNVISITED:
            total += q[child]
            count += 1
    if node == ROOT_INDEX:
        return total / count if count > 0 else 0.0
    inherited = parent_mean if discount[node] >= 0 else -parent_mean
    return (inherited + total) / (count + 1)


@njit(cache=True, inline="always")
def _reduced_q(visits, value_sum, visited_mass, node, reduction):
    """The ``Q`` of an unvisited slot of ``node`` with ``descend``'s ``fpu_reduction``
    (first-play urgency, as Leela Chess Zero and KataGo reduce it): the node's own mean value
    for its mover, less ``reduction`` times the square root of the prior mass of its slots
    already visited (``visited_mass[node]``, kept by ``add_child``: summing it at each step of
    the descent was a second pass over the slots, about 45% of the descent on 9x9 Gomoku
    self-play trees with every row in cache)."""
    return value_sum[node] / max(visits[node], 1) - reduction * math.sqrt(visited_mass[node])


@njit(cache=True, inline="always")
def _forced_slot(visits, children, prior, num_children, forced_k):
    """KataGo's forced playouts (Wu 2019, section 3.1) at the root: the slot, among those
    searched fewer than ``sqrt(forced_k * P * T)`` times (``P`` its prior, noise included; ``T``
    the simulations below the root so far), with the highest prior; -1 if there is none."""
    total = visits[ROOT_INDEX] - 1.0  # the root's own evaluation is not a child's
    best, best_prior = -1, -1.0
    for k in range(num_children[ROOT_INDEX]):
        child = children[ROOT_INDEX, k]
        n = visits[child] if child != UNVISITED else 0
        p = prior[ROOT_INDEX, k]
        if n * n < forced_k * p * total and p > best_prior:
            best, best_prior = k, p
    return best


@njit(cache=True, inline="always")
def descend(
    tree, b, rule, c1, c2, normalize, mean_q_unvisited, fpu_reduction, root_fpu_reduction,
    forced_k,
):  # fmt: skip
    """Follows the selection rule from the root of tree ``b`` to an edge not taken before;
    an unvisited slot is worth ``Q = 0`` (AlphaZero), or with ``mean_q_unvisited`` its node's
    mean ``Q`` (``_mean_q``; MuZero's ``unvisited_value='mean_q'``), or with a reduction
    ``>= 0`` (unnormalised values only; negative: off) the node's value less that reduction
    (``_reduced_q``): ``root_fpu_reduction`` at the root, ``fpu_reduction`` below it (KataGo
    keeps the two apart: its self-play reduces nothing at the root, where the noise is). With
    ``forced_k > 0`` the root first plays KataGo's forced playouts (``_forced_slot``).

    Returns:
        ``(node, slot)``: the expanded node and the untaken slot; ``slot`` is -1 when the
        descent ended on a terminal or unexpanded node ``node`` instead.
    """
    visits, q, rsqrt = tree.node_visits[b], tree.node_q[b], tree.node_rsqrt[b]
    children, prior = tree.children_index[b], tree.children_prior[b]
    num_children, terminal, min_max = (
        tree.node_num_children[b],
        tree.node_terminal[b],
        tree.min_max[b],
    )
    node = ROOT_INDEX
    mean_q = 0.0
    while num_children[node] >= 0 and not terminal[node]:
        unvisited_q = 0.0
        reduction = root_fpu_reduction if node == ROOT_INDEX else fpu_reduction
        if mean_q_unvisited:
            mean_q = _mean_q(q, children, num_children, tree.node_discount[b], node, mean_q)
            unvisited_q = mean_q
            lo, hi = min_max[0], min_max[1]
            if normalize and hi > lo:  # normalised, and clipped to [0, 1] as LightZero's
                unvisited_q = min(max((mean_q - lo) / (hi - lo), 0.0), 1.0)
        elif rule == PUCT and reduction >= 0.0:
            unvisited_q = _reduced_q(
                visits, tree.node_value_sum[b], tree.node_visited_mass[b], node, reduction
            )
        slot = -1
        if forced_k > 0.0 and node == ROOT_INDEX:
            slot = _forced_slot(visits, children, prior, num_children, forced_k)
        if slot < 0:
            slot = select_slot(
                visits, q, rsqrt, children, prior, num_children, min_max, node, rule, c1, c2,
                normalize, unvisited_q,
            )  # fmt: skip
        child = children[node, slot]
        if child == UNVISITED:
            return node, slot
        node = child
    return node, -1


@njit(cache=True)
def mix_root_noise(tree, trees, gammas, weight):
    """Mixes Dirichlet noise into the root priors of the trees ``trees`` `[k]`: ``prior = (1 -
    weight) * prior + weight * noise`` (the first product in float32, as NumPy computes it for
    the float32 priors), and recomputes each root's visited mass. ``gammas`` `[sum of the
    roots' slots]` holds standard gamma draws, root after root; each root's are normalised
    as NumPy's ``Generator.dirichlet`` normalises its own (a running sum, then times its
    inverse), so the noise is that of ``dirichlet`` drawn root by root from the generator
    that drew the gammas (for a concentration of 0.1 or more, where ``dirichlet`` draws
    gammas)."""
    keep = np.float32(1.0 - weight)
    k = 0
    for t in range(trees.shape[0]):
        b = trees[t]
        n = tree.node_num_children[b, ROOT_INDEX]
        total = 0.0
        for j in range(n):
            total += gammas[k + j]
        scale = 1.0 / total
        mass = 0.0
        for j in range(n):
            prior = np.float32(
                np.float64(keep * tree.children_prior[b, ROOT_INDEX, j])
                + weight * (gammas[k + j] * scale)
            )
            tree.children_prior[b, ROOT_INDEX, j] = prior
            if tree.children_index[b, ROOT_INDEX, j] != UNVISITED:
                mass += prior
        tree.node_visited_mass[b, ROOT_INDEX] = mass
        k += n


@njit(cache=True, inline="always")
def add_child(tree, b, node, slot, to_play, reward, discount, terminal):
    """Adds the child of ``node``'s ``slot`` and returns it (capacity is the caller's)."""
    child = tree.num_nodes[b]
    tree.num_nodes[b] = child + 1
    action = tree.children_action[b, node, slot]
    init_node(tree, b, child, node, action, to_play, reward, discount, terminal)
    tree.children_index[b, node, slot] = child
    tree.node_visited_mass[b, node] += tree.children_prior[b, node, slot]
    return child


@compiled_on_first_call(
    types.none(
        BATCHED_TREE_T,
        _array(types.int64, 1),
        _array(types.int64, 1),
        _array(types.float32, 2),
        _array(types.boolean, 2),
        _array(types.float64, 1),
        _array(types.boolean, 1),
    )
)
def expand_and_backup(tree, leaves, rows, priors, legal, values, active):
    """Expands each active tree's leaf with the priors ``priors[rows[b]]`` (``priors`` `[m,
    A]`) over ``legal[rows[b]]`` (``legal`` `[m, A]`: one slot per legal action, in action
    order) and backs its value ``values[rows[b]]`` (``values`` `[m]`, for the player to move
    at the leaf) up to the root. ``rows`` `[B]`: the row of each tree's leaf in the evaluator's
    outputs (``gather_leaves``' order; ``arange(B)`` for one row per tree).

    The priors are renormalised over the legal actions (uniform if they sum to 0 there). A
    terminal leaf is not expanded, its row not read, and its value is 0: its edge reward holds
    the result. Inactive trees (``active[b]`` False) are left unchanged.
    """
    for b in range(leaves.shape[0]):
        if not active[b]:
            continue
        leaf = leaves[b]
        value = 0.0
        if not tree.node_terminal[b, leaf]:
            value = values[rows[b]]
            if tree.node_num_children[b, leaf] < 0:
                expand_node(tree, b, leaf, priors[rows[b]], legal[rows[b]])
                tree.node_raw_value[b, leaf] = value
        backup(tree, b, leaf, value)


@njit(cache=True, inline="always")
def expand_node(tree, b, leaf, priors, legal):
    """Gives ``leaf`` of tree ``b`` one slot per legal action (``legal`` `[A]`, in action order)
    with ``priors`` `[A]` renormalised over them (uniform if they sum to 0 there)."""
    total, count = 0.0, 0
    for a in range(priors.shape[0]):  # every action is written at slot ``count``, kept if legal:
        # no branch for the legal pattern to make mispredicted
        total += max(priors[a], 0.0) if legal[a] else 0.0
        tree.children_action[b, leaf, count] = a
        tree.children_index[b, leaf, count] = UNVISITED
        count += legal[a]
    for k in range(count):
        p = max(priors[tree.children_action[b, leaf, k]], 0.0)
        tree.children_prior[b, leaf, k] = p / total if total > 0 else 1.0 / count
    tree.node_num_children[b, leaf] = count


@njit(cache=True, inline="always")
def backup(tree, b, node, value):
    """Adds a visit with ``value`` (for the player to move at ``node``) on the path to the root;
    a parent's value is the edge's ``reward + discount * value``."""
    backup_arrays(
        tree.node_visits[b], tree.node_value_sum[b], tree.node_q[b], tree.node_rsqrt[b],
        tree.node_reward[b], tree.node_discount[b], tree.node_parent[b], tree.min_max[b],
        node, value,
    )  # fmt: skip


@njit(cache=True, inline="always")
def backup_arrays(visits, value_sum, q, rsqrt, reward, discount, parent, min_max, node, value):
    """``backup`` on one tree's arrays (what the search loops call)."""
    while True:
        n = visits[node] + 1
        total = value_sum[node] + value
        visits[node], value_sum[node], rsqrt[node] = n, total, 1.0 / math.sqrt(n)
        up = parent[node]
        if up == NO_PARENT:
            return
        edge = reward[node] + discount[node] * (total / n)
        q[node] = edge
        min_max[0] = min(min_max[0], edge)
        min_max[1] = max(min_max[1], edge)
        value = reward[node] + discount[node] * value
        node = up


@compiled_on_first_call(
    types.none(
        BATCHED_TREE_T,
        _array(types.int32, 2),
        _array(types.float64, 2),
        _array(types.float64, 1),
        _array(types.float32, 2),
    )
)
def root_statistics(tree, visits, q, values, priors):
    """Writes the root's visits `[B, A]`, ``Q`` `[B, A]` and priors `[B, A]` per action (0 where
    unvisited, or not a root move) and root value `[B]`."""
    for b in range(visits.shape[0]):
        visits[b, :] = 0
        q[b, :] = 0.0
        priors[b, :] = 0.0
        for k in range(max(tree.node_num_children[b, ROOT_INDEX], 0)):
            a = tree.children_action[b, ROOT_INDEX, k]
            priors[b, a] = tree.children_prior[b, ROOT_INDEX, k]
            child = tree.children_index[b, ROOT_INDEX, k]
            if child != UNVISITED:
                visits[b, a] = tree.node_visits[b, child]
                q[b, a] = tree.node_q[b, child]
        n = tree.node_visits[b, ROOT_INDEX]
        values[b] = tree.node_value_sum[b, ROOT_INDEX] / n if n > 0 else 0.0
