"""Numba kernels of the batched MuZero search tree: pUCT selection and backup on arrays.

The tree of every env in the batch lives in preallocated arrays (mctx-style). Node 0 is
the root; simulation ``s`` (0-based) always creates node ``s + 1``, because MuZero expands
exactly one new latent state per simulation. So node ``n`` of batch entry ``b`` holds the
latent state the model produced at simulation ``n - 1`` for ``b``, and the caller can keep
latent states in a ``[N, B, D]`` buffer indexed by node.

Arrays (``B`` batch, ``N = num_simulations + 1`` nodes, ``A`` actions):

* ``children`` `[B, N, A]` int32: node index of child ``a`` of node ``n``, ``UNVISITED``
  if not expanded yet.
* ``prior`` `[B, N, A]` float64: prior of action ``a`` at node ``n`` (set on expansion).
* ``visit`` `[B, N]` int32, ``value_sum`` `[B, N]` float64, ``reward`` `[B, N]` float64
  (reward of the transition into the node; 0 at the root).
* ``legal`` `[B, A]` bool: legal actions at the root (every action is legal below it).
* ``minmax`` `[B, 2]` float64: running ``(min, max)`` of Q values in each tree.

Formulas follow the MuZero pseudocode (Schrittwieser et al. 2020, Appendix B):
``pUCT(s, a) = Qn(s, a) + P(s, a) sqrt(N(s)) / (1 + N(s, a)) (c1 + log((N(s) + c2 + 1) / c2))``
with ``Qn`` the min-max normalised ``r(s, a) + discount * V(child)`` (0 for unvisited
children). Ties go to the lowest action index. Kernels do no argument checking; the
Python driver in :mod:`lzero.mcts.ctree.mcts_muzero` validates once.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

UNVISITED = -1
ROOT_INDEX = 0


@njit(cache=True)
def _normalize(value, minmax, b):
    lo = minmax[b, 0]
    hi = minmax[b, 1]
    if hi > lo:
        return (value - lo) / (hi - lo)
    return value


@njit(cache=True)
def prepare_roots(
    children,
    prior,
    visit,
    value_sum,
    reward,
    legal,
    minmax,
    root_prior,
    root_value,
    noise,
    noise_frac,
):
    """Resets the trees and expands every root.

    The root starts with one visit worth the network's value, as in LightZero's ctree.
    Dirichlet noise is mixed into the legal actions' priors:
    ``P = (1 - noise_frac) * P + noise_frac * noise``.

    Args:
        root_prior: `[B, A]` priors, already 0 on illegal actions.
        root_value: `[B]` network values of the roots.
        noise: `[B, A]` Dirichlet samples over the legal actions (0 elsewhere).
        noise_frac: weight of the noise; 0 disables it.
    """
    n_batch, _, n_act = children.shape
    children[:] = UNVISITED
    prior[:] = 0.0
    visit[:] = 0
    value_sum[:] = 0.0
    reward[:] = 0.0
    for b in range(n_batch):
        minmax[b, 0] = np.inf
        minmax[b, 1] = -np.inf
        for a in range(n_act):
            if legal[b, a]:
                prior[b, ROOT_INDEX, a] = (1.0 - noise_frac) * root_prior[
                    b, a
                ] + noise_frac * noise[b, a]
        visit[b, ROOT_INDEX] = 1
        value_sum[b, ROOT_INDEX] = root_value[b]


@njit(cache=True)
def _select_child(
    children,
    prior,
    visit,
    value_sum,
    reward,
    legal,
    minmax,
    b,
    node,
    pb_c_base,
    pb_c_init,
    discount,
):
    n_act = children.shape[2]
    parent_visit = visit[b, node]
    pb_c = math.log((parent_visit + pb_c_base + 1.0) / pb_c_base) + pb_c_init
    pb_c *= math.sqrt(parent_visit)
    best_a = -1
    best = -np.inf
    for a in range(n_act):
        if node == ROOT_INDEX and not legal[b, a]:
            continue
        child = children[b, node, a]
        if child == UNVISITED:
            score = pb_c * prior[b, node, a]
        else:
            n_child = visit[b, child]
            score = pb_c / (n_child + 1.0) * prior[b, node, a]
            if n_child > 0:
                q = reward[b, child] + discount * value_sum[b, child] / n_child
                score += _normalize(q, minmax, b)
        if score > best:
            best = score
            best_a = a
    return best_a


@njit(cache=True)
def traverse(
    children,
    prior,
    visit,
    value_sum,
    reward,
    legal,
    minmax,
    path,
    path_len,
    parent_out,
    action_out,
    pb_c_base,
    pb_c_init,
    discount,
):
    """Descends every tree by pUCT until an unexpanded edge.

    Args:
        path: `[B, N]` int32 output: nodes from the root to the parent of the new leaf.
        path_len: `[B]` int32 output: number of valid entries in ``path``.
        parent_out: `[B]` int32 output: node whose edge is expanded next.
        action_out: `[B]` int32 output: action of that edge.
    """
    for b in range(children.shape[0]):
        node = ROOT_INDEX
        depth = 0
        while True:
            path[b, depth] = node
            depth += 1
            a = _select_child(
                children,
                prior,
                visit,
                value_sum,
                reward,
                legal,
                minmax,
                b,
                node,
                pb_c_base,
                pb_c_init,
                discount,
            )
            child = children[b, node, a]
            if child == UNVISITED:
                parent_out[b] = node
                action_out[b] = a
                break
            node = child
        path_len[b] = depth


@njit(cache=True)
def expand_and_backup(
    children,
    prior,
    visit,
    value_sum,
    reward,
    minmax,
    path,
    path_len,
    parent,
    action,
    new_node,
    leaf_reward,
    leaf_value,
    leaf_prior,
    discount,
):
    """Creates node ``new_node`` under ``(parent, action)`` and backs its value up the path.

    Args:
        new_node: index of the node to create (``simulation + 1``).
        leaf_reward: `[B]` predicted rewards of the expanded edges.
        leaf_value: `[B]` predicted values of the new nodes.
        leaf_prior: `[B, A]` predicted priors at the new nodes.
    """
    n_batch, _, n_act = children.shape
    for b in range(n_batch):
        children[b, parent[b], action[b]] = new_node
        reward[b, new_node] = leaf_reward[b]
        for a in range(n_act):
            prior[b, new_node, a] = leaf_prior[b, a]
        value = leaf_value[b]
        node = new_node
        depth = path_len[b]
        while True:
            value_sum[b, node] += value
            visit[b, node] += 1
            q = reward[b, node] + discount * value_sum[b, node] / visit[b, node]
            if q < minmax[b, 0]:
                minmax[b, 0] = q
            if q > minmax[b, 1]:
                minmax[b, 1] = q
            value = reward[b, node] + discount * value
            if depth == 0:
                break
            depth -= 1
            node = path[b, depth]


@njit(cache=True)
def root_visits(children, visit, out):
    """Writes the visit counts of the root's children into ``out`` `[B, A]` (int32)."""
    for b in range(children.shape[0]):
        for a in range(children.shape[2]):
            child = children[b, ROOT_INDEX, a]
            out[b, a] = visit[b, child] if child != UNVISITED else 0
