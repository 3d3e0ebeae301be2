"""Gumbel search on the batched tree: Sequential Halving with Gumbel at the root, the improved
policy's deterministic selection below it (Danihelka et al. 2022, "Policy improvement by
planning with Gumbel", sections 3-5 and appendix D; mctx's ``gumbel_muzero_policy``).

It is a selection rule of ``lzero.mcts.batched_tree`` (``GUMBEL``), not a second tree: the
board search's ``board_select`` and MuZero's ``latent_select`` call :func:`gumbel_descend`
instead of ``descend`` and share everything else (expansion, backup, the root's statistics).

At the root, with ``m = min(max_num_considered_actions, root moves)`` and a budget of ``n``
simulations, simulation ``i`` takes, among the moves searched exactly
``considered_visits_table(M, n)[m, i]`` times, the one with the highest ``g(a) + log p(a) +
sigma(completedQ(a))``; the Gumbel draws ``g`` make the first ``m`` picks a sample of ``m``
moves without replacement from the prior (Gumbel-top-k), and the table is Sequential
Halving's schedule (Karnin et al. 2013). Below the root a node takes the slot maximising
``pi'(a) - N(a) / (1 + sum_b N(b))``, ``pi' = softmax(log p + sigma(completedQ))`` the
improved policy (eq. 11), so that its visits follow ``pi'``.

``completedQ(a)`` is the edge's ``Q`` where searched, else the node's mixed value ``(v + N *
sum_b p(b) q(b) / sum_b p(b)) / (1 + N)`` (sums over the searched moves, ``v`` the
evaluator's value of the node, ``N`` its moves' visits); the completed values are min-max
rescaled to ``[0, 1]`` over the node's moves and ``sigma(q) = (maxvisit_init + max_b N(b)) *
value_scale * q`` (eq. 8; mctx's ``qtransform_completed_by_mix_value``). A node's moves are its
slots: the legal moves (board games) or every action (MuZero below the root), so the min-max
range is over those moves only (mctx's also counts an invalid root action's mixed value,
which changes the range only when every valid root move has been searched).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numba
import numpy as np
from numba import njit

from lzero.mcts.batched_tree import ROOT_INDEX, UNVISITED

__all__ = [
    "GumbelArgs",
    "considered_visits",
    "considered_visits_table",
    "gumbel_args",
    "gumbel_descend",
]

_TINY = np.finfo(np.float32).tiny  # the priors' dtype: mctx's floor under a probability
_LOW_LOGIT = -1e9  # mctx's floor under a root score, so a -inf logit still ranks


def considered_visits(max_num_considered_actions: int, num_simulations: int) -> tuple:
    """Sequential Halving's visit schedule: entry ``i`` is how many visits the move that
    simulation ``i`` searches already has (Danihelka et al. 2022, section 3; mctx's
    ``get_sequence_of_considered_visits``).

    With ``m`` considered moves, each phase gives every move still considered
    ``max(1, floor(n / (ceil(log2 m) * m_phase)))`` more visits, then keeps the better half
    (at least two); the schedule is cut at ``n`` entries. ``m <= 1``: ``0, 1, 2, ...``.
    """
    m, n = int(max_num_considered_actions), int(num_simulations)
    if m <= 1:
        return tuple(range(n))
    log2m = math.ceil(math.log2(m))
    sequence: list[int] = []
    visits = [0] * m
    considered = m
    while len(sequence) < n:
        extra = max(1, int(n / (log2m * considered)))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:n])


@functools.lru_cache(maxsize=64)
def considered_visits_table(max_num_considered_actions: int, num_simulations: int) -> np.ndarray:
    """`[M + 1, n]` int64, row ``m`` the schedule of :func:`considered_visits` with ``m``
    considered moves (``M = max_num_considered_actions``); read-only (it is cached)."""
    table = np.array(
        [considered_visits(m, num_simulations) for m in range(max_num_considered_actions + 1)],
        np.int64,
    ).reshape(max_num_considered_actions + 1, num_simulations)
    table.setflags(write=False)
    return table


class GumbelArgs(NamedTuple):
    """What a Gumbel descent reads besides the tree.

    Attributes:
        noise: `[B, A]` float64, each root's Gumbel draws by action, times ``gumbel_scale``
            (zeros: no noise, as in evaluation).
        table: `[M + 1, n]` int64, :func:`considered_visits_table` of the search's budget.
        maxvisit_init: ``sigma``'s visit offset (mctx's 50).
        value_scale: ``sigma``'s scale (mctx's 0.1).
    """

    noise: np.ndarray
    table: np.ndarray
    maxvisit_init: float
    value_scale: float


def gumbel_args(
    noise: np.ndarray, max_num_considered_actions: int, num_simulations: int, *,
    maxvisit_init: float, value_scale: float,
) -> GumbelArgs:  # fmt: skip
    """A :class:`GumbelArgs` for a search of ``num_simulations`` with these settings."""
    table = considered_visits_table(int(max_num_considered_actions), int(num_simulations))
    return GumbelArgs(
        np.ascontiguousarray(noise, np.float64), np.ascontiguousarray(table),
        float(maxvisit_init), float(value_scale),
    )  # fmt: skip


#: The argument a search with another selection rule passes in its place.
NO_GUMBEL = gumbel_args(np.zeros((1, 1)), 1, 1, maxvisit_init=0.0, value_scale=0.0)
GUMBEL_ARGS_T = numba.typeof(NO_GUMBEL)


@njit(cache=True, inline="always")
def _completed_q(visits, q, raw_value, children, prior, n, node, out):
    """Writes into ``out[:n]`` the completed ``Q`` of ``node``'s slots, rescaled to ``[0, 1]``
    over them (the module's docstring), on one tree's arrays; returns ``(max_b N(b), sum_b
    N(b))`` over the slots."""
    total, most = 0, 0
    p_sum, pq = 0.0, 0.0
    for k in range(n):
        child = children[node, k]
        if child != UNVISITED:
            v = visits[child]
            total += v
            most = max(most, v)
            p = max(np.float64(prior[node, k]), _TINY)
            p_sum += p
            pq += p * q[child]
    weighted = pq / p_sum if p_sum > 0 else 0.0
    mixed = (raw_value[node] + total * weighted) / (total + 1.0)
    lo, hi = math.inf, -math.inf
    for k in range(n):
        child = children[node, k]
        c = q[child] if child != UNVISITED else mixed
        out[k] = c
        lo, hi = min(lo, c), max(hi, c)
    scale = 1.0 / max(hi - lo, 1e-8)
    for k in range(n):
        out[k] = (out[k] - lo) * scale
    return most, total


@njit(cache=True, inline="always")
def _interior_slot(visits, q, raw_value, children, prior, n, node, c_visit, c_scale, work):
    """The slot maximising ``pi'(a) - N(a) / (1 + sum_b N(b))`` (section 5); ties: the first."""
    most, total = _completed_q(visits, q, raw_value, children, prior, n, node, work)
    sigma = (c_visit + most) * c_scale
    top = -math.inf
    for k in range(n):
        work[k] = math.log(max(np.float64(prior[node, k]), _TINY)) + sigma * work[k]
        top = max(top, work[k])
    norm = 0.0
    for k in range(n):
        work[k] = math.exp(work[k] - top)
        norm += work[k]
    share = 1.0 / (1.0 + total)
    best, best_score = 0, -math.inf
    for k in range(n):
        child = children[node, k]
        searched = visits[child] if child != UNVISITED else 0
        score = work[k] / norm - searched * share
        if score > best_score:
            best, best_score = k, score
    return best


@njit(cache=True, inline="always")
def _root_slot(visits, q, raw_value, children, prior, actions, n, noise, g, work):
    """Sequential Halving's slot at the root (the module's docstring); ties: the first. Past
    the schedule (more simulations than it has), the interior rule."""
    most, total = _completed_q(visits, q, raw_value, children, prior, n, ROOT_INDEX, work)
    sigma = (g.maxvisit_init + most) * g.value_scale
    table = g.table
    if total >= table.shape[1]:
        return _interior_slot(
            visits, q, raw_value, children, prior, n, ROOT_INDEX, g.maxvisit_init,
            g.value_scale, work,
        )  # fmt: skip
    considered = table[min(table.shape[0] - 1, n), total]
    top = -math.inf
    for k in range(n):
        top = max(top, math.log(max(np.float64(prior[ROOT_INDEX, k]), _TINY)))
    best, best_score = 0, -math.inf
    for k in range(n):
        child = children[ROOT_INDEX, k]
        searched = visits[child] if child != UNVISITED else 0
        if searched != considered:
            continue
        logit = math.log(max(np.float64(prior[ROOT_INDEX, k]), _TINY)) - top
        score = max(_LOW_LOGIT, noise[actions[ROOT_INDEX, k]] + logit + sigma * work[k])
        if score > best_score:
            best, best_score = k, score
    return best


@njit(cache=True, inline="always")
def gumbel_descend(tree, b, g, work):
    """``batched_tree.descend`` with the Gumbel rule: from the root of tree ``b`` to an edge
    not taken before, ``g`` a :class:`GumbelArgs`, ``work`` `[>= A]` float64 scratch.

    Returns:
        ``(node, slot)`` as ``descend``: ``slot`` -1 when the descent ended on a terminal or
        unexpanded node.
    """
    visits, q, raw_value = tree.node_visits[b], tree.node_q[b], tree.node_raw_value[b]
    children, prior = tree.children_index[b], tree.children_prior[b]
    num_children, terminal = tree.node_num_children[b], tree.node_terminal[b]
    node = ROOT_INDEX
    while num_children[node] >= 0 and not terminal[node]:
        n = num_children[node]
        if node == ROOT_INDEX:
            slot = _root_slot(
                visits, q, raw_value, children, prior, tree.children_action[b], n, g.noise[b],
                g, work,
            )  # fmt: skip
        else:
            slot = _interior_slot(
                visits, q, raw_value, children, prior, n, node, g.maxvisit_init, g.value_scale,
                work,
            )  # fmt: skip
        child = children[node, slot]
        if child == UNVISITED:
            return node, slot
        node = child
    return node, -1


def check_gumbel_settings(
    *,
    max_num_considered_actions: object,
    maxvisit_init: object,
    value_scale: object,
    gumbel_scale: object = 0.0,
) -> None:
    """The settings of a Gumbel search, every layer's one check (the searches raise its
    ValueError, the configs the same message as a ConfigError).

    Raises:
        ValueError: ``max_num_considered_actions`` not an int >= 1, or one of the others not
            a finite number >= 0.
    """
    m = max_num_considered_actions
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"expected max_num_considered_actions >= 1, got {m!r}")
    for name, value in (
        ("gumbel_scale", gumbel_scale), ("maxvisit_init", maxvisit_init),
        ("value_scale", value_scale),
    ):  # fmt: skip
        number = isinstance(value, (int, float, np.integer, np.floating))
        if isinstance(value, bool) or not number or not (np.isfinite(value) and value >= 0):
            raise ValueError(f"expected {name} a finite number >= 0, got {value!r}")
