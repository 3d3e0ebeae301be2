"""The numba batched tree against a plain-Python tree written from the MuZero pseudocode."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.mcts.ctree import MuZeroMCTS, select_action
from lzero.mcts.ctree import tree_muzero as kernels


class FakeModel:
    """Deterministic random rewards, values and priors keyed by the action path."""

    def __init__(self, seed: int, n_act: int) -> None:
        self.seed, self.n_act, self.cache = seed, n_act, {}

    def __call__(self, path: tuple) -> tuple[float, float, np.ndarray]:
        if path not in self.cache:
            rng = np.random.default_rng([self.seed, len(path), *path])
            prior = rng.dirichlet(np.ones(self.n_act))
            self.cache[path] = (float(rng.normal()), float(rng.normal()), prior)
        return self.cache[path]


class Node:
    def __init__(self, prior: float) -> None:
        self.prior, self.visit_count, self.value_sum, self.reward = prior, 0, 0.0, 0.0
        self.children: dict[int, Node] = {}

    def value(self) -> float:
        return self.value_sum / self.visit_count if self.visit_count else 0.0


class MinMax:
    def __init__(self) -> None:
        self.lo, self.hi = math.inf, -math.inf

    def update(self, v: float) -> None:
        self.lo, self.hi = min(self.lo, v), max(self.hi, v)

    def normalize(self, v: float) -> float:
        return (v - self.lo) / (self.hi - self.lo) if self.hi > self.lo else v


def reference_search(model, root_prior, root_value, legal, n_sims, discount, c1=1.25, c2=19652.0):
    """MuZero pseudocode (Appendix B), root starting with one visit worth its value."""
    n_act = len(legal)
    root = Node(1.0)
    root.visit_count, root.value_sum = 1, root_value
    for a in range(n_act):
        if legal[a]:
            root.children[a] = Node(root_prior[a])
    mm = MinMax()

    def ucb(parent, child):
        pb_c = (math.log((parent.visit_count + c2 + 1) / c2) + c1) * math.sqrt(parent.visit_count)
        score = pb_c / (child.visit_count + 1) * child.prior
        if child.visit_count > 0:
            score += mm.normalize(child.reward + discount * child.value())
        return score

    for _ in range(n_sims):
        node, path, actions = root, [root], []
        while node.children:  # expanded
            best, best_a = -math.inf, None
            for a in sorted(node.children):
                s = ucb(node, node.children[a])
                if s > best:
                    best, best_a = s, a
            actions.append(best_a)
            node = node.children[best_a]
            path.append(node)
        reward, value, prior = model(tuple(actions))
        node.reward = reward
        for a in range(n_act):
            node.children[a] = Node(prior[a])
        for n in reversed(path):
            n.value_sum += value
            n.visit_count += 1
            mm.update(n.reward + discount * n.value())
            value = n.reward + discount * value
    counts = np.array(
        [root.children[a].visit_count if a in root.children else 0 for a in range(n_act)]
    )
    return counts, root.value()


def batched_search(
    models, root_prior, root_value, legal, n_sims, discount, noise=None, c1=1.25, c2=19652.0
):
    b, n_act = legal.shape
    paths = [[() for _ in range(n_sims + 1)] for _ in range(b)]

    def recurrent_fn(parent, action, new_node):
        out = []
        for i in range(b):
            paths[i][new_node] = paths[i][parent[i]] + (int(action[i]),)
            out.append(models[i](paths[i][new_node]))
        r, v, p = zip(*out)
        return np.array(r), np.array(v), np.stack(p)

    mcts = MuZeroMCTS(
        num_simulations=n_sims,
        action_space_size=n_act,
        discount_factor=discount,
        pb_c_init=c1,
        pb_c_base=c2,
    )
    return mcts.search(root_prior, root_value, legal, recurrent_fn, noise=noise)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_act=st.integers(2, 5),
    n_sims=st.integers(1, 40),
    batch=st.integers(1, 3),
    discount=st.sampled_from([1.0, 0.997, 0.9]),
    constants=st.sampled_from([(1.25, 19652.0), (0.5, 3.0)]),
)
def test_batched_tree_matches_reference(seed, n_act, n_sims, batch, discount, constants):
    c1, c2 = constants
    rng = np.random.default_rng(seed)
    legal = rng.random((batch, n_act)) < 0.7
    legal[np.arange(batch), rng.integers(0, n_act, batch)] = True
    prior = np.where(legal, rng.dirichlet(np.ones(n_act), batch), 0.0)
    prior /= prior.sum(axis=1, keepdims=True)
    value = rng.normal(size=batch)
    models = [FakeModel(seed * 10 + i, n_act) for i in range(batch)]
    out = batched_search(models, prior, value, legal, n_sims, discount, c1=c1, c2=c2)
    for i in range(batch):
        counts, root_v = reference_search(
            models[i], prior[i], value[i], legal[i], n_sims, discount, c1, c2
        )
        np.testing.assert_array_equal(out.visit_counts[i], counts)
        assert out.root_value[i] == pytest.approx(root_v, rel=1e-12, abs=1e-12)
        assert (
            select_action(out.visit_counts[i : i + 1], 1.0, None, deterministic=True)[0]
            == counts.argmax()
        )
    assert (out.visit_counts[~legal] == 0).all()
    assert out.visit_counts.sum() == batch * n_sims


def test_jitted_kernel_equals_py_func():
    rng = np.random.default_rng(0)
    n_act, n_sims = 3, 12
    legal = np.ones((2, n_act), bool)
    prior = rng.dirichlet(np.ones(n_act), 2)
    results = []
    for use_py in (False, True):
        saved = {k: getattr(kernels, k) for k in ("prepare_roots", "traverse", "expand_and_backup")}
        try:
            if use_py:
                for k, f in saved.items():
                    setattr(kernels, k, f.py_func)
            models = [FakeModel(i, n_act) for i in range(2)]
            results.append(
                batched_search(models, prior, np.zeros(2), legal, n_sims, 0.99).visit_counts
            )
        finally:
            for k, f in saved.items():
                setattr(kernels, k, f)
    np.testing.assert_array_equal(results[0], results[1])


def test_bandit_search_prefers_the_best_arm():
    # One-step bandit: rewards known in closed form, values 0; the best arm gets most visits.
    rewards = np.array([0.1, 0.9, 0.5])

    def recurrent_fn(parent, action, new_node):
        return rewards[action], np.zeros(len(action)), np.full((len(action), 3), 1 / 3)

    mcts = MuZeroMCTS(num_simulations=50, action_space_size=3, discount_factor=1.0)
    out = mcts.search(np.full((1, 3), 1 / 3), np.zeros(1), np.ones((1, 3)), recurrent_fn)
    assert out.visit_counts[0].argmax() == 1
    assert out.visit_counts[0, 1] > 25


def test_noise_is_mixed_into_legal_root_priors_only():
    mcts = MuZeroMCTS(num_simulations=1, action_space_size=4, discount_factor=1.0)
    legal = np.array([[1, 0, 1, 1]])
    noise = mcts.root_noise(legal, np.random.default_rng(0))
    assert noise[0, 1] == 0 and noise.sum() == pytest.approx(1.0)
    mcts.search(
        np.full((1, 4), 0.25),
        np.zeros(1),
        legal,
        lambda p, a, n: (np.zeros(1), np.zeros(1), np.full((1, 4), 0.25)),
        noise=noise,
    )
    expected = 0.75 * np.array([1 / 3, 0, 1 / 3, 1 / 3]) + 0.25 * noise[0]
    np.testing.assert_allclose(mcts.prior[0, 0], expected)


def test_search_rejects_bad_inputs():
    mcts = MuZeroMCTS(num_simulations=2, action_space_size=3, discount_factor=1.0)
    with pytest.raises(ValueError, match=r"expected root_prior and legal of shape \(B, 3\)"):
        mcts.search(np.ones((1, 2)), np.zeros(1), np.ones((1, 2)), None)
    with pytest.raises(ValueError, match="expected at least one legal action per root, got rows"):
        mcts.search(np.ones((1, 3)), np.zeros(1), np.zeros((1, 3)), None)
    with pytest.raises(ValueError, match="expected num_simulations >= 1, got 0"):
        MuZeroMCTS(num_simulations=0, action_space_size=3, discount_factor=1.0)


def test_select_action_temperature():
    counts = np.array([[0, 10, 30]])
    rng = np.random.default_rng(0)
    picks = np.array([select_action(counts, 1.0, rng)[0] for _ in range(2000)])
    assert (picks != 0).all()
    assert abs((picks == 2).mean() - 0.75) < 0.05
    picks_cold = np.array([select_action(counts, 0.25, rng)[0] for _ in range(500)])
    assert (picks_cold == 2).mean() > 0.95
