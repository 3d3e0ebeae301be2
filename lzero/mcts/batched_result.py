"""What a search reports: root statistics of ``B`` searches (``BatchedResult``) or of one
(``SearchResult``, the bots'), and the moves taken from them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class BatchedResult(NamedTuple):
    """Root statistics of ``B`` searches.

    Attributes:
        visits: `[B, A]` int32, visits of each root action.
        q: `[B, A]` float64, value of each root action for the player to move (0 if unvisited).
        value: `[B]` float64, the root's mean value for the player to move.
        priors: `[B, A]` float32, the root priors the search used (with noise if added).
        raw_priors: `[B, A]` float32, the root priors before any noise.
        raw_value: `[B]` float64, the evaluator's value of the root for the player to move
            (NaN where the search does not evaluate its roots: numba evaluators).
        action: `[B]` int64, the move the search recommends: the most visited (the lowest on
            ties), or with Gumbel selection the Sequential Halving winner
            (:func:`gumbel_action`); None where a caller built the result without it.
    """

    visits: np.ndarray
    q: np.ndarray
    value: np.ndarray
    priors: np.ndarray
    raw_priors: np.ndarray
    raw_value: np.ndarray
    action: np.ndarray | None = None


class SearchResult(NamedTuple):
    """What one search found at the root, from the view of the player to move.

    Attributes:
        action_visits: `[A]` int64 visits of each action (0 for actions not searched).
        action_values: `[A]` float64 mean value of each action in ``[-1, 1]``, NaN if unvisited.
        root_value: mean value of the root.
        num_simulations: simulations behind these figures.
        candidates: `[C]` int64 the root's candidate actions after tactical filtering.
    """

    action_visits: np.ndarray
    action_values: np.ndarray
    root_value: float
    num_simulations: int
    candidates: np.ndarray


def one_result(result: BatchedResult, b: int, candidates: np.ndarray) -> SearchResult:
    """Row ``b`` of ``result`` as a ``SearchResult``, with the root's ``candidates`` `[C]`."""
    visits = result.visits[b].astype(np.int64)
    values = np.where(visits > 0, result.q[b], np.nan)
    return SearchResult(
        visits, values, float(result.value[b]), int(visits.sum()), candidates.astype(np.int64)
    )


def best_action(result: SearchResult) -> int:
    """The most visited root action (ties: higher value, then the lowest action); the first
    candidate if nothing was visited."""
    if result.action_visits.sum() == 0:
        return int(result.candidates[0])
    values = np.nan_to_num(result.action_values, nan=-2.0)
    order = np.lexsort((-values, -result.action_visits))
    return int(order[0])


def visit_policy(visits: np.ndarray, temperature: float) -> np.ndarray:
    """`[B, A]` probabilities ``visits ** (1 / T)`` normalised; ``T = 0`` puts all on the most
    visited action (the lowest on ties). Rows without visits stay zero."""
    visits = np.asarray(visits, np.float64)
    if temperature < 0:
        raise ValueError(f"expected temperature >= 0, got {temperature}")
    if temperature == 0:
        out = np.zeros_like(visits)
        has = visits.max(axis=1) > 0
        out[np.flatnonzero(has), visits[has].argmax(axis=1)] = 1.0
        return out
    powered = visits ** (1.0 / temperature)
    total = powered.sum(axis=1, keepdims=True)
    return np.divide(powered, total, out=np.zeros_like(powered), where=total > 0)


def prune_forced_playouts(result: BatchedResult, k: float, c1: float, c2: float) -> np.ndarray:
    """The root visits `[B, A]` float64 of a search with forced playouts ``k`` (PUCT constants
    ``c1``, ``c2``), less the playouts the forcing spent: KataGo's policy target pruning (Wu
    2019, section 3.1). Every root move but the most visited one ``c*`` loses up to ``sqrt(k *
    P * T)`` visits (``P`` its prior as searched, ``T`` the root's visits to its moves) as
    long as its PUCT score stays below ``c*``'s, and a move left with one visit or none loses
    all; ``c*``'s stay. A row without visits stays zero."""
    visits = np.asarray(result.visits, np.float64)
    prior = np.asarray(result.priors, np.float64)
    q = np.asarray(result.q, np.float64)
    total = visits.sum(axis=1, keepdims=True)
    parent = total + 1.0  # the root's visits: its own evaluation and its moves'
    scale = (c1 + np.log1p((parent + 1.0) / c2)) * np.sqrt(parent)
    rows, best = np.arange(visits.shape[0]), visits.argmax(axis=1)
    n_best = visits[rows, best]
    best_puct = q[rows, best] + scale[:, 0] * prior[rows, best] / (1.0 + n_best)
    gap = best_puct[:, None] - q
    # the fewest visits n that keep q + scale * P / (1 + n) below c*'s score: floor(scale * P /
    # gap); none can go where the move's q alone reaches it
    needed = np.floor(scale * prior / np.where(gap > 0, gap, 1.0))
    needed = np.where(gap > 0, needed, visits)
    kept = np.minimum(visits, np.maximum(np.ceil(visits - np.sqrt(k * prior * total)), needed))
    kept[kept <= 1.0] = 0.0
    kept[rows, best] = n_best
    return kept


def _improved_logits(result: BatchedResult, c_visit: float, c_scale: float) -> np.ndarray:
    """`[B, A]` ``log raw_priors + sigma(completedQ)`` over the root moves (those with a
    positive raw prior), -inf elsewhere: the logits of :func:`completed_q_policy`."""
    prior = np.asarray(result.raw_priors, np.float64)
    moves = prior > 0
    visits = np.where(moves, result.visits, 0).astype(np.float64)
    q = np.asarray(result.q, np.float64)
    visited = visits > 0
    total = visits.sum(axis=1)
    p_visited = np.where(visited, prior, 0.0).sum(axis=1)
    weighted_q = np.divide(
        np.where(visited, prior * q, 0.0).sum(axis=1), p_visited,
        out=np.zeros_like(total), where=p_visited > 0,
    )  # fmt: skip
    raw = np.asarray(result.raw_value, np.float64)
    raw = np.where(np.isnan(raw), weighted_q, raw)
    mixed = (raw + total * weighted_q) / (1.0 + total)
    completed = np.where(visited, q, mixed[:, None])
    low = np.where(moves, completed, np.inf).min(axis=1, keepdims=True)
    high = np.where(moves, completed, -np.inf).max(axis=1, keepdims=True)
    has = moves.any(axis=1, keepdims=True)
    span = np.where(has, np.maximum(high - low, 1e-8), 1.0)
    scaled = np.where(moves, (completed - np.where(has, low, 0.0)) / span, 0.0)
    sigma = (c_visit + visits.max(axis=1, keepdims=True)) * c_scale * scaled
    return np.where(moves, np.log(np.where(moves, prior, 1.0)) + sigma, -np.inf)


def completed_q_policy(
    result: BatchedResult, *, c_visit: float = 50.0, c_scale: float = 0.1
) -> np.ndarray:
    """`[B, A]` Gumbel MuZero's improved policy (Danihelka et al. 2022, eq. 11 with the
    completed Q of eq. 10 and Appendix D's mixed value): ``softmax(log raw_priors +
    sigma(completedQ))`` over the root moves (those with a positive raw prior).

    ``completedQ(a)`` is ``q(a)`` for a visited move, else the mixed value ``(v + N / sum_b
    p(b) * sum_b p(b) q(b)) / (1 + N)`` (sums over the visited moves ``b``, ``v`` the raw
    value, ``N`` the root's visits to its moves); the completed values are min-max
    normalised over the root moves and scaled by ``sigma(q) = (c_visit + max_b n(b)) *
    c_scale * q``, mctx's defaults (``maxvisit_init`` and ``value_scale``). Unlike visit
    counts it ranks moves by what the search found them worth, so a move the search refuted
    loses its share even when visited often. Rows without root moves stay zero; a NaN raw
    value counts as the visited moves' mean; visits of a move whose prior underflowed to 0
    are left out.
    """
    logits = _improved_logits(result, c_visit, c_scale)
    has = np.isfinite(logits).any(axis=1, keepdims=True)
    top = np.where(
        has, np.where(np.isfinite(logits), logits, -np.inf).max(axis=1, keepdims=True), 0.0
    )
    weights = np.where(np.isfinite(logits), np.exp(logits - top), 0.0)
    norm = weights.sum(axis=1, keepdims=True)
    return np.divide(weights, norm, out=np.zeros_like(weights), where=norm > 0)


def gumbel_action(
    result: BatchedResult, noise: np.ndarray, *, c_visit: float = 50.0, c_scale: float = 0.1
) -> np.ndarray:
    """`[B]` int64 the Sequential Halving winner of Gumbel searches (mctx's
    ``gumbel_muzero_policy`` action): among the root moves searched most, the one with the
    highest ``noise(a) + log raw_priors(a) + sigma(completedQ(a))`` (:func:`completed_q_policy`'s
    logits), ``noise`` `[B, A]` the Gumbel draws the search used (zeros: none). Ties: the
    lowest action; a row without root moves gives 0."""
    logits = _improved_logits(result, c_visit, c_scale)
    moves = np.isfinite(logits)
    visits = np.where(moves, result.visits, -1)
    most = visits == visits.max(axis=1, keepdims=True)
    score = np.where(moves & most, np.asarray(noise, np.float64) + logits, -np.inf)
    return score.argmax(axis=1).astype(np.int64)


def sample_actions(visits: np.ndarray, temperature: float, rng: np.random.Generator) -> np.ndarray:
    """`[B]` actions drawn from :func:`visit_policy` (``T = 0``: the most visited)."""
    probs = visit_policy(visits, temperature)
    if temperature == 0:
        return probs.argmax(axis=1)
    cum = probs.cumsum(axis=1)
    u = rng.random(probs.shape[0]) * cum[:, -1]
    return np.minimum((cum <= u[:, None]).sum(axis=1), probs.shape[1] - 1)
