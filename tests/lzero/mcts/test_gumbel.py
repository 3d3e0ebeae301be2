"""Gumbel search (``lzero.mcts.gumbel``) on the batched tree: against the plain-Python search of
``gumbel_reference`` on board positions and latent trees, against mctx's
``gumbel_muzero_policy`` where mctx is installed, Sequential Halving's schedule against the
paper's phases, and a bandit whose answer is known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from gumbel_reference import GumbelSearch, schedule
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.mcts.batched_search import BatchedSearch
from lzero.mcts.gumbel import considered_visits, considered_visits_table
from lzero.mcts.latent_search import MuZeroMCTS

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(cells) -> int:
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


def net(cells, to_play: int, salt: int = 0) -> tuple[list[float], float]:
    """A deterministic stand-in for a network: priors over all 9 cells and a value."""
    h = sum((i + 3) * (v + 1) * 31 for i, v in enumerate(cells)) + 7 * to_play + 101 * salt
    logits = [((h * (a + 5)) % 13) / 4.0 for a in range(9)]
    top = max(logits)
    e = [math.exp(x - top) for x in logits]
    return [x / sum(e) for x in e], math.tanh(((h % 17) - 8) / 6.0)


def ttt_model(salt: int):
    """``gumbel_reference``'s ``evaluate`` and ``step`` for TicTacToe with :func:`net`."""

    def evaluate(state):
        cells, to_play = state
        priors, value = net(cells, to_play, salt)
        return {a: priors[a] for a in range(9) if cells[a] == 0}, value

    def step(state, action):
        cells, to_play = state
        child = list(cells)
        child[action] = to_play
        won = winner(child) == to_play
        full = all(child)
        return (tuple(child), 3 - to_play), 1.0 if won else 0.0, -1.0, won or full

    return evaluate, step


def batch_net(salt: int):
    def evaluate(boards, to_play, legal):
        out = [net([int(v) for v in b.ravel()], int(p), salt) for b, p in zip(boards, to_play)]
        return np.array([o[0] for o in out]), np.array([o[1] for o in out])

    return evaluate


def random_position(rng: np.random.Generator, plies: int) -> tuple[list[int], int]:
    """A position after up to ``plies`` random moves that is not over."""
    cells, to_play = [0] * 9, 1
    for _ in range(plies):
        empty = [i for i in range(9) if cells[i] == 0]
        a = int(rng.choice(empty))
        trial = list(cells)
        trial[a] = to_play
        if winner(trial) or all(trial):
            break
        cells, to_play = trial, 3 - to_play
    return cells, to_play


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 5),
    sims=st.integers(1, 40),
    m=st.integers(1, 9),
    scale=st.sampled_from([0.0, 1.0]),
)
def test_board_search_equals_the_reference(seed, plies, sims, m, scale):
    """Visits, Q, the chosen move and the improved policy of a TicTacToe Gumbel search equal
    the plain-Python search's, with and without Gumbel noise, terminal nodes included."""
    rng = np.random.default_rng(seed)
    positions = [random_position(rng, plies) for _ in range(3)]
    search = BatchedSearch(
        ttt_kernels(), num_simulations=sims, selection="gumbel", max_num_considered_actions=m,
        gumbel_scale=scale, seed=seed,
    )  # fmt: skip
    boards = np.array([np.array(c, np.int8).reshape(3, 3) for c, _ in positions])
    to_play = np.array([p for _, p in positions])
    result = search.search(boards, to_play, batch_net(seed % 5), add_noise=True)
    noise = scale * np.random.default_rng(seed).gumbel(size=(3, 9))  # the search's draws
    evaluate, step = ttt_model(seed % 5)
    ref = GumbelSearch(evaluate, step, num_simulations=sims, max_considered=m)
    improved = search_policy(search, result)
    for b, (cells, p) in enumerate(positions):
        root, action, pi = ref.run((tuple(cells), p), dict(enumerate(noise[b])))
        visits = np.zeros(9, np.int64)
        q = np.zeros(9)
        for a, child in root.children.items():
            visits[a], q[a] = child.visits, child.q()
        np.testing.assert_array_equal(result.visits[b], visits)
        np.testing.assert_allclose(result.q[b], q, atol=1e-12)
        assert result.action[b] == action
        want = np.zeros(9)
        want[list(pi)] = list(pi.values())
        np.testing.assert_allclose(improved[b], want, rtol=1e-5, atol=1e-7)


def ttt_kernels():
    from uct_test_games import ttt_apply_action, ttt_legal_actions, ttt_result_after

    from lzero.mcts.game import GameKernels

    return GameKernels(ttt_legal_actions, ttt_apply_action, ttt_result_after, 9, (3, 3), True)


def search_policy(search: BatchedSearch, result) -> np.ndarray:
    from lzero.mcts.batched_result import completed_q_policy

    return completed_q_policy(result, c_visit=search.maxvisit_init, c_scale=search.value_scale)


class LatentModel:
    """A model over integer embeddings: the child of ``e`` by ``a`` is ``(e * A + a + 1) % S``,
    and tables give every embedding's reward, prior logits and value."""

    def __init__(self, rng: np.random.Generator, actions: int, size: int = 997):
        self.a, self.size = actions, size
        self.reward = rng.normal(size=size) * 0.3
        self.logits = rng.normal(size=(size, actions)) * 1.5
        self.value = np.tanh(rng.normal(size=size))

    def child(self, e: int, a: int) -> int:
        return (e * self.a + a + 1) % self.size

    def probs(self, e: int) -> np.ndarray:
        x = np.exp(self.logits[e] - self.logits[e].max())
        return x / x.sum()


def latent_reference(model, roots, legal, sims, m, gumbel, discount):
    """The reference search of each root embedding: a list of ``(root, action, pi)``. A root
    is the state ``(e, b)``: embedding ``e`` whose moves are ``legal[b]``; a node below it is
    its embedding."""

    def evaluate(state):
        e, moves = (state[0], np.flatnonzero(legal[state[1]])) if isinstance(state, tuple) else (
            state, range(model.a))  # fmt: skip
        p = model.probs(e)
        return {int(a): p[a] for a in moves}, float(model.value[e])

    def step(state, a):
        c = model.child(state[0] if isinstance(state, tuple) else state, a)
        return c, float(model.reward[c]), discount, False

    ref = GumbelSearch(evaluate, step, num_simulations=sims, max_considered=m)
    return [ref.run((int(e), b), dict(enumerate(gumbel[b]))) for b, e in enumerate(roots)]


def latent_search(model, roots, legal, sims, m, gumbel, to_play, gamma=1.0):
    """Our ``MuZeroMCTS`` Gumbel search of the root embeddings ``roots`` `[B]`."""
    b = len(roots)
    mcts = MuZeroMCTS(
        num_simulations=sims, action_space_size=model.a, discount_factor=gamma,
        selection="gumbel", max_num_considered_actions=m,
    )  # fmt: skip
    embeddings = np.zeros((sims + 1, b), np.int64)
    embeddings[0] = roots

    def recurrent_fn(parent, action, new_node):
        e = np.array([model.child(int(embeddings[p, i]), int(x)) for i, (p, x) in
                      enumerate(zip(parent, action))])  # fmt: skip
        embeddings[new_node] = e
        return model.reward[e], model.value[e], np.stack([model.probs(int(x)) for x in e])

    root_prior = np.stack([model.probs(int(e)) for e in roots])
    return mcts.search(
        root_prior, model.value[roots], legal, recurrent_fn, to_play=to_play, gumbel=gumbel
    )


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    actions=st.integers(2, 7),
    sims=st.integers(1, 48),
    m=st.integers(1, 8),
    two_player=st.booleans(),
)
def test_latent_search_equals_the_reference(seed, actions, sims, m, two_player):
    """MuZero's Gumbel search on a table model equals the plain-Python search: visits,
    chosen action and improved policy, one- and two-player, with masked root moves."""
    rng = np.random.default_rng(seed)
    model = LatentModel(rng, actions)
    roots = rng.integers(0, model.size, 3)
    legal = rng.random((3, actions)) < 0.7
    legal[np.arange(3), rng.integers(0, actions, 3)] = True
    gumbel = rng.gumbel(size=(3, actions))
    to_play = np.full(3, 1) if two_player else np.full(3, -1)
    out = latent_search(model, roots, legal, sims, m, gumbel, to_play)
    refs = latent_reference(model, roots, legal, sims, m, gumbel, -1.0 if two_player else 1.0)
    for b, (root, action, pi) in enumerate(refs):
        visits = np.zeros(actions, np.int64)
        for a, child in root.children.items():
            visits[a] = child.visits
        np.testing.assert_array_equal(out.visit_counts[b], visits)
        assert out.action[b] == action
        want = np.zeros(actions)
        want[list(pi)] = list(pi.values())
        np.testing.assert_allclose(out.improved_policy[b], want, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("m", range(2, 17))
def test_schedule_is_the_papers_phases(m):
    """Sequential Halving's schedule for budgets 2..200 equals the phases the paper gives
    (``gumbel_reference.schedule``), and each move's final visits follow it: the ``s`` moves
    of a phase each get ``max(1, floor(n / (ceil(log2 m) * s)))`` more visits."""
    for n in range(2, 201):
        got = considered_visits(m, n)
        assert list(got) == schedule(m, n)
        assert len(got) == n and got[:m] == tuple([0] * min(m, n))
        np.testing.assert_array_equal(considered_visits_table(m, n)[m], got)
    assert considered_visits(1, 5) == (0, 1, 2, 3, 4)


def test_schedule_budget_per_phase():
    """With 16 moves and 64 simulations: 16 x 1, 8 x 2, 4 x 4, 2 x 8 visits (a quarter of the
    budget a phase, log2 16 = 4 phases), as the paper's example allots it."""
    seq = considered_visits(16, 64)
    assert seq[:16] == (0,) * 16
    assert seq[16:32] == (1,) * 8 + (2,) * 8
    assert seq[32:48] == (3,) * 4 + (4,) * 4 + (5,) * 4 + (6,) * 4
    assert seq[48:64] == tuple(v for v in range(7, 15) for _ in range(2))


def test_two_simulations_move_the_policy_to_the_better_action():
    """A bandit: two moves with priors 0.5/0.5 and one-step rewards 0 and 1. With two
    simulations both are tried once, and the improved policy gives the rewarding move
    ``sigmoid((50 + 1) * 0.1 * 1)`` of the mass, whatever the Gumbel draws."""
    mcts = MuZeroMCTS(
        num_simulations=2, action_space_size=2, discount_factor=1.0, selection="gumbel",
        max_num_considered_actions=2,
    )  # fmt: skip
    for g in ([0.0, 0.0], [3.0, -1.0], [-2.0, 2.5]):

        def recurrent_fn(parent, action, new_node):
            return action.astype(np.float64), np.zeros(1), np.full((1, 2), 0.5)

        out = mcts.search(
            np.full((1, 2), 0.5), np.zeros(1), np.ones((1, 2)), recurrent_fn,
            gumbel=np.array([g]),
        )  # fmt: skip
        np.testing.assert_array_equal(out.visit_counts, [[1, 1]])
        want = 1.0 / (1.0 + math.exp(-(50 + 1) * 0.1))
        assert out.improved_policy[0, 1] == pytest.approx(want, rel=1e-9)
        assert out.action[0] == (0 if g[0] > g[1] + 5.1 else 1)


def test_gumbel_search_errors():
    with pytest.raises(ValueError, match="expected max_num_considered_actions >= 1, got 0"):
        BatchedSearch(ttt_kernels(), selection="gumbel", max_num_considered_actions=0)
    with pytest.raises(ValueError, match="expected gumbel_scale a finite number >= 0"):
        BatchedSearch(ttt_kernels(), selection="gumbel", gumbel_scale=-1.0)
    search = BatchedSearch(ttt_kernels(), selection="gumbel", num_simulations=4)
    boards, to_play = np.zeros((1, 3, 3), np.int8), np.array([1])
    with pytest.raises(ValueError, match="expected a Python evaluator and reuse_tree False"):
        search.search(boards, to_play, batch_net(0), reuse_tree=True)
    with pytest.raises(ValueError, match="expected a Python evaluator and reuse_tree False"):
        search.search(boards, to_play)
    with pytest.raises(ValueError, match="UCB1 or Gumbel selection"):
        search.search(boards, to_play, batch_net(0), fpu_reduction=0.2)
    mcts = MuZeroMCTS(
        num_simulations=2, action_space_size=2, discount_factor=1.0, selection="gumbel"
    )
    with pytest.raises(ValueError, match="expected noise None with Gumbel selection"):
        mcts.search(np.full((1, 2), 0.5), np.zeros(1), np.ones((1, 2)), None, noise=np.ones((1, 2)))
    with pytest.raises(ValueError, match="expected selection in"):
        MuZeroMCTS(num_simulations=2, action_space_size=2, discount_factor=1.0, selection="x")


def _mctx():
    try:
        import jax  # noqa: F401
        import mctx
    except ImportError:
        pytest.skip("mctx is not installed (pip install -e '.[bench]')")
    return mctx


@pytest.mark.parametrize(
    ("masked", "two_player", "sims", "m"),
    [(False, False, 32, 4), (False, True, 50, 16), (True, True, 24, 4), (True, False, 7, 3)],
)
def test_latent_search_equals_mctx(masked, two_player, sims, m):
    """Our MuZero Gumbel search equals mctx's ``gumbel_muzero_policy`` on the same model,
    root priors and Gumbel draws: visit counts, the chosen action and the policy target
    (``action_weights``). Masked roots keep an unsearched valid move, where mctx's min-max
    range (which counts invalid moves' mixed value) is ours."""
    mctx = _mctx()
    import jax
    import jax.numpy as jnp

    batch, actions = 4, 6
    rng = np.random.default_rng(7)
    model = LatentModel(rng, actions)
    for name in ("reward", "logits", "value"):  # mctx computes in float32: the same inputs
        setattr(model, name, getattr(model, name).astype(np.float32).astype(np.float64))
    roots = rng.integers(0, model.size, batch)
    legal = np.ones((batch, actions), bool)
    if masked:
        legal[:, 2] = False
    discount = -1.0 if two_player else 1.0
    tables = [jnp.asarray(getattr(model, n), jnp.float32) for n in ("reward", "logits", "value")]

    def recurrent_fn(params, key, action, embedding):
        child = (embedding * actions + action + 1) % model.size
        out = mctx.RecurrentFnOutput(
            reward=tables[0][child], discount=jnp.full(batch, discount, jnp.float32),
            prior_logits=tables[1][child], value=tables[2][child],
        )  # fmt: skip
        return out, child

    root = mctx.RootFnOutput(
        prior_logits=tables[1][roots], value=tables[2][roots],
        embedding=jnp.asarray(roots, jnp.int32),
    )  # fmt: skip
    key = jax.random.PRNGKey(11)
    policy = mctx.gumbel_muzero_policy(
        params=(), rng_key=key, root=root, recurrent_fn=recurrent_fn, num_simulations=sims,
        invalid_actions=jnp.asarray(~legal), max_num_considered_actions=m,
    )  # fmt: skip
    _, gumbel_key = jax.random.split(key)  # the draws gumbel_muzero_policy makes
    gumbel = np.asarray(jax.random.gumbel(gumbel_key, (batch, actions), jnp.float32), np.float64)
    to_play = np.full(batch, 1 if two_player else -1)
    ours = latent_search(model, roots, legal, sims, m, gumbel, to_play)
    np.testing.assert_array_equal(
        ours.visit_counts, np.asarray(policy.search_tree.summary().visit_counts)
    )
    np.testing.assert_array_equal(ours.action, np.asarray(policy.action))
    np.testing.assert_allclose(
        ours.improved_policy, np.asarray(policy.action_weights), rtol=2e-4, atol=1e-6
    )
