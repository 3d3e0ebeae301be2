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
    """

    visits: np.ndarray
    q: np.ndarray
    value: np.ndarray
    priors: np.ndarray


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


def sample_actions(visits: np.ndarray, temperature: float, rng: np.random.Generator) -> np.ndarray:
    """`[B]` actions drawn from :func:`visit_policy` (``T = 0``: the most visited)."""
    probs = visit_policy(visits, temperature)
    if temperature == 0:
        return probs.argmax(axis=1)
    cum = probs.cumsum(axis=1)
    u = rng.random(probs.shape[0]) * cum[:, -1]
    return np.minimum((cum <= u[:, None]).sum(axis=1), probs.shape[1] - 1)
