"""``SearchResult``: what a search reports, read off the root of its tree, and the move it
recommends."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from lzero.mcts.tree import ROOT_INDEX, UNVISITED, Tree


class SearchResult(NamedTuple):
    """What one search found at the root, from the view of the player to move.

    Attributes:
        action_visits: `[A]` int64 visits of each action (0 for actions not searched).
        action_values: `[A]` float64 mean value of each action in ``[-1, 1]``, NaN if unvisited.
        root_value: mean value of the root.
        num_simulations: simulations behind these figures (including reused ones).
        candidates: `[C]` int64 the root's candidate actions after tactical filtering.
    """

    action_visits: np.ndarray
    action_values: np.ndarray
    root_value: float
    num_simulations: int
    candidates: np.ndarray


def root_result(tree: Tree, action_size: int) -> SearchResult:
    """The root statistics of ``tree``, over ``action_size`` (``A``) actions."""
    a = action_size
    visits = np.zeros(a, np.int64)
    values = np.full(a, np.nan)
    n = int(tree.node_num_children[ROOT_INDEX])
    actions = tree.children_action[ROOT_INDEX, :n].astype(np.int64)
    children = tree.children_index[ROOT_INDEX, :n]
    seen = children != UNVISITED
    visits[actions[seen]] = tree.node_visits[children[seen]]
    values[actions[seen]] = tree.node_value_sum[children[seen]] / visits[actions[seen]]
    root_visits = int(tree.node_visits[ROOT_INDEX])
    root_value = -float(tree.node_value_sum[ROOT_INDEX]) / max(root_visits, 1)
    return SearchResult(visits, values, root_value, root_visits, actions)


def best_action(result: SearchResult) -> int:
    """The most visited root action (ties: higher value, then first candidate)."""
    if result.action_visits.sum() == 0:
        return int(result.candidates[0])
    values = np.nan_to_num(result.action_values, nan=-2.0)
    order = np.lexsort((-values, -result.action_visits))
    return int(order[0])
