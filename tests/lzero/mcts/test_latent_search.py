"""MuZero's search on the batched tree against a plain-Python tree written from the MuZero
pseudocode (with LightZero's value for unvisited edges), for one-player tasks and two-player
games."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.mcts.latent_search import MuZeroMCTS, select_action


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
    """Values are kept from player 1's view (or the one player's), unlike the kernels, which
    keep each node's value for its own mover."""

    def __init__(self, prior: float, to_play: int) -> None:
        self.prior, self.to_play = prior, to_play
        self.visit_count, self.value_sum, self.reward = 0, 0.0, 0.0
        self.children: dict[int, Node] = {}

    def value(self) -> float:
        return self.value_sum / self.visit_count if self.visit_count else 0.0


def sign(to_play: int) -> float:
    return -1.0 if to_play == 2 else 1.0


class MinMax:
    def __init__(self) -> None:
        self.lo, self.hi = math.inf, -math.inf

    def update(self, v: float) -> None:
        self.lo, self.hi = min(self.lo, v), max(self.hi, v)

    def normalize(self, v: float) -> float:
        return (v - self.lo) / (self.hi - self.lo) if self.hi > self.lo else v


def reference_search(
    model, root_prior, root_value, legal, n_sims, discount, c1=1.25, c2=19652.0, to_play=-1,
    unvisited="zero",
):  # fmt: skip
    """MuZero pseudocode (appendix B), the root starting with one visit worth its value.

    Min-max statistics cover the edges' values and the root's discounted value. An unvisited
    edge is worth 0 as in the pseudocode, or with ``unvisited='mean_q'`` its node's mean ``Q``
    (LightZero's and EfficientZero's ``compute_mean_q``): at the root the mean of its visited
    edges (0 if none), below the mean of those and the parent's mean, turned to this node's
    mover; normalised and clipped to ``[0, 1]`` once the statistics have a spread. In a
    two-player game (``to_play`` 1 or 2) players alternate, rewards are for the mover and the
    model's values for the player to move; values are stored from player 1's view here and
    turned to the selecting player's view in ``ucb``.
    """
    n_act = len(legal)
    two = to_play > 0
    root = Node(1.0, to_play)
    root.visit_count, root.value_sum = 1, sign(to_play) * root_value if two else root_value
    for a in range(n_act):
        if legal[a]:
            root.children[a] = Node(root_prior[a], 3 - to_play if two else -1)
    mm = MinMax()

    def edge_value(parent, child):  # for the player to move at ``parent``
        view = sign(parent.to_play) if two else 1.0
        return child.reward + discount * view * child.value()

    def mean_q(node, parent_mean):
        visited = [edge_value(node, c) for c in node.children.values() if c.visit_count]
        if node is root:
            return sum(visited) / len(visited) if visited else 0.0
        inherited = -parent_mean if two else parent_mean  # the parent's mover is the opponent
        return (inherited + sum(visited)) / (len(visited) + 1)

    def ucb(parent, child, mean):
        pb_c = (math.log((parent.visit_count + c2 + 1) / c2) + c1) * math.sqrt(parent.visit_count)
        score = pb_c / (child.visit_count + 1) * child.prior
        if child.visit_count > 0:
            score += mm.normalize(edge_value(parent, child))
        elif unvisited == "zero":
            pass
        elif mm.hi > mm.lo:
            score += min(max(mm.normalize(mean), 0.0), 1.0)
        else:
            score += mean
        return score

    for _ in range(n_sims):
        node, path, actions = root, [root], []
        mean = 0.0
        while node.children:  # expanded
            mean = mean_q(node, mean)
            best, best_a = -math.inf, None
            for a in sorted(node.children):
                s = ucb(node, node.children[a], mean)
                if s > best:
                    best, best_a = s, a
            actions.append(best_a)
            node = node.children[best_a]
            path.append(node)
        reward, value, prior = model(tuple(actions))
        node.reward = reward
        for a in range(n_act):
            node.children[a] = Node(prior[a], 3 - node.to_play if two else -1)
        value = sign(node.to_play) * value if two else value  # player 1's view
        for depth in range(len(path) - 1, -1, -1):
            n = path[depth]
            n.value_sum += value
            n.visit_count += 1
            if depth > 0:
                parent = path[depth - 1]
                mm.update(edge_value(parent, n))
                value = (sign(parent.to_play) if two else 1.0) * n.reward + discount * value
            else:  # the root's value, for its mover
                mm.update(discount * (sign(root.to_play) if two else 1.0) * root.value())
    counts = np.array(
        [root.children[a].visit_count if a in root.children else 0 for a in range(n_act)]
    )
    return counts, (sign(to_play) if two else 1.0) * root.value()


def batched_search(
    models, root_prior, root_value, legal, n_sims, discount, noise=None, c1=1.25, c2=19652.0,
    to_play=None, unvisited="zero",
):  # fmt: skip
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
        unvisited_value=unvisited,
    )
    return mcts.search(root_prior, root_value, legal, recurrent_fn, noise=noise, to_play=to_play)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_act=st.integers(2, 5),
    n_sims=st.integers(1, 40),
    players=st.lists(st.sampled_from([-1, 1, 2]), min_size=1, max_size=3),
    discount=st.sampled_from([1.0, 0.997, 0.9]),
    constants=st.sampled_from([(1.25, 19652.0), (0.5, 3.0)]),
    unvisited=st.sampled_from(["zero", "mean_q"]),
)
def test_batched_tree_matches_reference(
    seed, n_act, n_sims, players, discount, constants, unvisited
):
    # One-player rows (-1) and two-player rows (1, 2) in one batch: each tree keeps its own
    # discount sign.
    c1, c2 = constants
    batch = len(players)
    rng = np.random.default_rng(seed)
    legal = rng.random((batch, n_act)) < 0.7
    legal[np.arange(batch), rng.integers(0, n_act, batch)] = True
    prior = np.where(legal, rng.dirichlet(np.ones(n_act), batch), 0.0)
    prior /= prior.sum(axis=1, keepdims=True)
    value = rng.normal(size=batch)
    models = [FakeModel(seed * 10 + i, n_act) for i in range(batch)]
    out = batched_search(
        models, prior, value, legal, n_sims, discount, c1=c1, c2=c2, to_play=np.array(players),
        unvisited=unvisited,
    )  # fmt: skip
    for i in range(batch):
        counts, root_v = reference_search(
            models[i], prior[i], value[i], legal[i], n_sims, discount, c1, c2, players[i],
            unvisited,
        )  # fmt: skip
        np.testing.assert_array_equal(out.visit_counts[i], counts)
        assert out.root_value[i] == pytest.approx(root_v, rel=1e-5, abs=1e-5)
        assert (
            select_action(out.visit_counts[i : i + 1], 1.0, None, deterministic=True)[0]
            == counts.argmax()
        )
    assert (out.visit_counts[~legal] == 0).all()
    assert out.visit_counts.sum() == batch * n_sims


def test_two_player_tree_takes_the_win_and_avoids_the_loss():
    # Action 0 wins at once (reward 1 for the mover); action 1 hands the opponent a move worth
    # +1 to them. A two-player search must prefer 0; read as one player (no sign flip), the
    # opponent's +1 would look like ours and action 1 would be as good.
    def recurrent_fn(parent, action, new_node):
        b = len(action)
        at_root = parent == 0
        reward = np.where(at_root & (action == 0), 1.0, 0.0)
        value = np.where(at_root & (action == 1), 1.0, 0.0)
        return reward, value, np.full((b, 2), 0.5)

    mcts = MuZeroMCTS(num_simulations=60, action_space_size=2, discount_factor=1.0)
    out = mcts.search(
        np.full((2, 2), 0.5), np.zeros(2), np.ones((2, 2)), recurrent_fn, to_play=np.array([1, 2])
    )
    assert (out.visit_counts[:, 0] > 50).all()
    assert (out.q[:, 1] < 0).all()  # the opponent's +1, seen from the root's mover
    np.testing.assert_allclose(out.q[:, 0], 1.0)


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
    expected = 0.75 * np.array([1 / 3, 1 / 3, 1 / 3]) + 0.25 * noise[0, [0, 2, 3]]
    tree = mcts.tree
    assert tree.node_num_children[0, 0] == 3
    np.testing.assert_array_equal(tree.children_action[0, 0, :3], [0, 2, 3])
    np.testing.assert_allclose(tree.children_prior[0, 0, :3], expected, rtol=1e-6)


def test_search_rejects_bad_inputs():
    mcts = MuZeroMCTS(num_simulations=2, action_space_size=3, discount_factor=1.0)
    with pytest.raises(ValueError, match=r"expected root_prior and legal of shape \(B, 3\)"):
        mcts.search(np.ones((1, 2)), np.zeros(1), np.ones((1, 2)), None)
    with pytest.raises(ValueError, match="expected at least one legal action per root, got rows"):
        mcts.search(np.ones((1, 3)), np.zeros(1), np.zeros((1, 3)), None)
    with pytest.raises(ValueError, match=r"expected to_play of shape \(1,\) in \{-1, 1, 2\}"):
        mcts.search(np.ones((1, 3)), np.zeros(1), np.ones((1, 3)), None, to_play=np.array([0]))
    with pytest.raises(ValueError, match="expected num_simulations >= 1, got 0"):
        MuZeroMCTS(num_simulations=0, action_space_size=3, discount_factor=1.0)
    with pytest.raises(ValueError, match=r"expected unvisited_value in \['zero', 'mean_q'\]"):
        MuZeroMCTS(
            num_simulations=2, action_space_size=3, discount_factor=1.0, unvisited_value="mean"
        )


def test_select_action_temperature():
    counts = np.array([[0, 10, 30]])
    rng = np.random.default_rng(0)
    picks = np.array([select_action(counts, 1.0, rng)[0] for _ in range(2000)])
    assert (picks != 0).all()
    assert abs((picks == 2).mean() - 0.75) < 0.05
    picks_cold = np.array([select_action(counts, 0.25, rng)[0] for _ in range(500)])
    assert (picks_cold == 2).mean() > 0.95


def test_a_search_of_fewer_simulations_spends_that_many():
    """A playout-capped fast search: ``num_simulations`` below the instance's, visits and
    recurrent calls that many; out of range or not an int, refused."""
    calls = []

    def recurrent_fn(parent, action, new_node):
        calls.append(new_node)
        return np.zeros(len(action)), np.zeros(len(action)), np.full((len(action), 3), 1 / 3)

    mcts = MuZeroMCTS(num_simulations=10, action_space_size=3, discount_factor=1.0)
    args = (np.full((2, 3), 1 / 3), np.zeros(2), np.ones((2, 3)), recurrent_fn)
    out = mcts.search(*args, num_simulations=3)
    assert calls == [1, 2, 3] and (out.visit_counts.sum(axis=1) == 3).all()
    for bad in (0, 11, 2.5, True):
        with pytest.raises(ValueError, match="expected num_simulations"):
            mcts.search(*args, num_simulations=bad)
