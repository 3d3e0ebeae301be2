"""The batched tree's selection kernels against plain-Python definitions."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lzero.mcts.batched_tree import PUCT, UNVISITED, _reduced_q, select_slot


def reduced_q_slot_reference(visits, value_sum, q_of, children, prior, node, c1, c2, reduction):
    """PUCT with a reduced first-play ``Q``, as written down: the prior mass of the visited
    slots first, then every slot's score in turn; ties go to the first slot."""
    parent_visits = max(int(visits[node]), 1)
    scale = (c1 + math.log1p((parent_visits + 1.0) / c2)) * math.sqrt(parent_visits)
    slots = range(len(children[node]))
    mass = 0.0
    for k in slots:
        if children[node][k] != UNVISITED:
            mass += float(prior[node][k])
    unvisited_q = float(value_sum[node]) / parent_visits - reduction * math.sqrt(mass)
    best, best_score = 0, -math.inf
    for k in slots:
        child = int(children[node][k])
        q, n = (unvisited_q, 0) if child == UNVISITED else (float(q_of[child]), int(visits[child]))
        score = q + scale * float(prior[node][k]) / (1.0 + n)
        if score > best_score:
            best, best_score = k, score
    return best


# Few distinct priors (repeats tie), tiny ones and a large node value (their scores round to
# the same float), so that ties are exercised.
PRIORS = st.sampled_from([0.0, 1e-12, 2e-12, 0.1, 0.1000001, 0.5])


@settings(max_examples=300, deadline=None)
@example(  # a visited and an unvisited slot score 0: the first, unvisited, is taken
    slots=[(0.0, False), (0.0, True)],
    values=[0.0] * 12,
    node_value=0.0,
    node_visits=1,
    reduction=0.2,
    c2=19652.0,
)
@example(  # the same, visited slot first: the first, visited, is taken
    slots=[(0.0, True), (0.0, False)],
    values=[0.0] * 12,
    node_value=0.0,
    node_visits=1,
    reduction=0.2,
    c2=19652.0,
)
@example(  # 2e-12 after 1e-12, both lost against a node value of 1e6: the first is taken
    slots=[(0.1, True), (1e-12, False), (2e-12, False)],
    values=[0.0] * 12,
    node_value=1e6,
    node_visits=3,
    reduction=0.2,
    c2=19652.0,
)
@given(
    slots=st.lists(st.tuples(PRIORS, st.booleans()), min_size=1, max_size=12),
    values=st.lists(st.sampled_from([-1.0, 0.0, 0.5]), min_size=12, max_size=12),
    node_value=st.sampled_from([0.0, -0.5, 1e6]),
    node_visits=st.integers(0, 40),
    reduction=st.sampled_from([0.0, 0.1, 0.2, 1.0, 5.0]),
    c2=st.sampled_from([19652.0, math.inf]),
)
def test_reduced_q_slot_equals_the_two_pass_definition(
    slots, values, node_value, node_visits, reduction, c2
):
    a = len(slots)
    n_nodes = a + 1
    children = np.full((n_nodes, a), UNVISITED, np.int32)
    prior = np.zeros((n_nodes, a), np.float32)
    visits = np.zeros(n_nodes, np.int32)
    q_of = np.zeros(n_nodes)
    for k, (p, visited) in enumerate(slots):
        prior[0, k] = p
        if visited:
            children[0, k] = k + 1
            visits[k + 1] = 1 + k % 3
            q_of[k + 1] = values[k]
    visits[0] = node_visits
    value_sum = np.zeros(n_nodes)
    value_sum[0] = node_value * max(node_visits, 1)
    num_children = np.full(n_nodes, -1, np.int32)
    num_children[0] = a
    min_max = np.array([math.inf, -math.inf])
    visited_mass = np.zeros(n_nodes)  # as add_child keeps it, in the order the slots were taken
    for k in sorted(range(a), key=lambda k: -k):
        if slots[k][1]:
            visited_mass[0] += prior[0, k]
    unvisited_q = _reduced_q(visits, value_sum, visited_mass, 0, reduction)
    rsqrt = np.zeros(n_nodes)  # UCB1's; PUCT does not read it
    got = select_slot(
        visits, q_of, rsqrt, children, prior, num_children, min_max, 0, PUCT, 1.25, c2, False,
        unvisited_q,
    )  # fmt: skip
    want = reduced_q_slot_reference(
        visits, value_sum, q_of, children, prior, 0, 1.25, c2, reduction
    )
    assert got == want
