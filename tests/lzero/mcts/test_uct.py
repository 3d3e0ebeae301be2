"""The array UCT search on the test games of ``conftest.py``: tree invariants, agreement with
the plain-Python implementation, selection formulas, tactics, budgets, reuse and errors."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from uct_test_games import board_from, index_priors

from lzero.mcts.jit import NativeFunction
from lzero.mcts.network import descend_once
from lzero.mcts.python_uct import PythonUCT
from lzero.mcts.rollout import candidate_actions, placement_rollout, uniform_rollout
from lzero.mcts.search import GameKernels, UCTSearch
from lzero.mcts.selection import PUCT, UCB1, puct_select, ucb1_select
from lzero.mcts.tree import (
    APPLY_ACTION_T,
    LEGAL_ACTIONS_T,
    NO_PARENT,
    RESULT_AFTER_T,
    ROOT_INDEX,
    UNVISITED,
    make_tree,
)
from lzero.utils.nbrng import make_rng_state

KERNEL_TYPES = (LEGAL_ACTIONS_T, APPLY_ACTION_T, RESULT_AFTER_T)


def _random_position(kernels: GameKernels, seed: int, max_moves: int) -> tuple[np.ndarray, int]:
    """A position after up to ``max_moves`` random moves, stopped before the game ends."""
    rng = np.random.default_rng(seed)
    board = np.zeros(kernels.board_shape, np.int8)
    player, buf = 1, np.zeros(kernels.action_size, np.int64)
    for moves in range(1, int(rng.integers(0, max_moves + 1)) + 1):
        trial = board.copy()
        action = rng.choice(buf[: kernels.legal_actions(trial, buf)])
        cell = kernels.apply_action(trial, int(action), player)
        if kernels.result_after(trial, cell, player, moves) != 0:
            break
        board, player = trial, 3 - player
    return board, player


def _check_tree(tree, num_simulations: int, root_own: int = 0) -> None:
    """Checks links, players and visit counts (``root_own``: 1 if the root was a leaf once)."""
    n = int(tree.meta[0])
    assert 1 < n <= num_simulations + 1
    assert tree.node_visits[ROOT_INDEX] == num_simulations
    assert np.all(np.abs(tree.node_value_sum[:n]) <= tree.node_visits[:n] + 1e-9)
    for node in range(n):
        kids = tree.children_index[node, : max(tree.node_num_children[node], 0)]
        kids = kids[kids != UNVISITED]
        assert np.all(tree.node_parent[kids] == node)
        assert np.all(tree.node_to_play[kids] == 3 - tree.node_to_play[node])
        if tree.node_result[node] == 0:  # one visit created the node, the rest went down
            own = root_own if node == ROOT_INDEX else 1
            assert tree.node_visits[node] == own + tree.node_visits[kids].sum()
        else:
            assert tree.node_num_children[node] == -1
    assert tree.node_parent[ROOT_INDEX] == NO_PARENT


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), game=st.sampled_from(["ttt", "c4"]))
def test_tree_invariants_hold_after_a_search(seed, game, request):
    kernels = request.getfixturevalue(game)
    board, player = _random_position(kernels, seed, 6)
    search = UCTSearch(kernels, num_simulations=200, seed=seed, tactics=False)
    result = search.search(board, player)
    _check_tree(search.tree, 200)
    assert result.action_visits.sum() == 200 == result.num_simulations
    assert np.all(np.isnan(result.action_values) == (result.action_visits == 0))


@pytest.mark.parametrize(("game", "radius"), [("ttt", 0), ("c4", 0), ("ttt9", 2)])
@pytest.mark.parametrize(("seed", "tree_tactics"), [(0, False), (7, False), (3, True)])
def test_same_visits_as_the_plain_python_uct(game, radius, seed, tree_tactics, ttt, c4):
    kernels = {"ttt": ttt, "c4": c4, "ttt9": ttt._replace(action_size=81, board_shape=(9, 9))}[game]
    board, player = _random_position(kernels, seed, 4)
    kwargs = dict(seed=seed, radius=radius, tree_tactics=tree_tactics)
    ours = UCTSearch(kernels, num_simulations=300, **kwargs).search(board, player)
    reference = PythonUCT(kernels, **kwargs).search(board, player, 300)
    assert ours.action_visits.tolist() == reference.tolist()


def test_same_seed_same_search_and_seeds_differ(c4):
    board = np.zeros((6, 7), np.int8)
    runs = [UCTSearch(c4, num_simulations=300, seed=s).search(board, 1) for s in (1, 1, 2)]
    assert runs[0].action_visits.tolist() == runs[1].action_visits.tolist()
    assert runs[0].action_visits.tolist() != runs[2].action_visits.tolist()


def _tree_with_children(visits, value_sums, priors, parent_visits):
    tree = make_tree(len(visits) + 1, len(visits), (1, 1))
    tree.meta[0] = len(visits) + 1
    tree.node_visits[0] = parent_visits
    tree.node_num_children[0] = len(visits)
    for k, (n, w, p) in enumerate(zip(visits, value_sums, priors)):
        tree.children_index[0, k] = k + 1 if n else UNVISITED
        tree.children_prior[0, k] = p
        tree.node_visits[k + 1], tree.node_value_sum[k + 1] = n, w
        tree.node_mean[k + 1], tree.node_rsqrt_visits[k + 1] = (
            w / max(n, 1),
            1 / math.sqrt(max(n, 1)),
        )
    return tree


def _ucb_arrays(tree):
    return (tree.children_index, tree.node_mean, tree.node_rsqrt_visits, tree.node_visits,
            tree.node_num_children)  # fmt: skip


def _puct_arrays(tree):
    return (tree.children_index, tree.node_mean, tree.children_prior, tree.node_visits,
            tree.node_num_children)  # fmt: skip


def test_ucb1_and_puct_pick_the_argmax_of_their_formulas():
    visits, sums, priors = [10, 3, 30, 5], [5.0, -1.0, 21.0, 4.5], [0.1, 0.6, 0.2, 0.1]
    tree = _tree_with_children(visits, sums, priors, 48)
    for c in (0.0, 0.5, 1.4, 4.0):
        ucb = [w / n + c * math.sqrt(math.log(48) / n) for n, w in zip(visits, sums)]
        puct = [w / n + c * p * math.sqrt(48) / (1 + n) for n, w, p in zip(visits, sums, priors)]
        assert ucb1_select(*_ucb_arrays(tree), 0, c) == int(np.argmax(ucb))
        assert puct_select(*_puct_arrays(tree), 0, c) == int(np.argmax(puct))
    tree = _tree_with_children([4, 0, 2], [1.0, 0.0, 2.0], [0.3, 0.4, 0.3], 6)
    assert ucb1_select(*_ucb_arrays(tree), 0, 1.4) == 1  # an unvisited move first


@pytest.mark.parametrize("selection", ["ucb1", "puct"])
def test_the_loop_selects_as_the_selection_rules(ttt, selection):
    rule, arrays = {"ucb1": (ucb1_select, _ucb_arrays), "puct": (puct_select, _puct_arrays)}[
        selection
    ]
    rng = np.random.default_rng(0)
    for seed in range(10):
        search = UCTSearch(ttt, num_simulations=60, seed=seed, selection=selection, tactics=False)
        search.search(np.zeros((3, 3), np.int8), 1)
        tree = search.tree
        tree.children_prior[0, :9] = rng.dirichlet(np.ones(9))
        expected = tree.children_index[0, rule(*arrays(tree), 0, search.c_uct)]
        node, _ = descend_once(
            tree, search.c_uct, search.rule, 0, False, search.rng, search.work_board,
            search.work_scratch, *search.native_kernels,
        )  # fmt: skip
        while tree.node_parent[node] != ROOT_INDEX:
            node = tree.node_parent[node]
        assert node == expected


def test_priors_are_set_at_every_expansion_and_followed_by_puct(ttt, c4):
    for kernels in (ttt, c4):
        board, player = _random_position(kernels, 0, 2)
        search = UCTSearch(kernels, num_simulations=300, seed=0, selection="puct",
                           priors=index_priors)  # fmt: skip
        result = search.search(board, player)
        tree, expanded = search.tree, 0
        for node in range(int(tree.meta[0])):
            n = int(tree.node_num_children[node])
            if n <= 0:
                continue
            actions = tree.children_action[node, :n].astype(np.float64)
            expected = (actions + 1) / (actions + 1).sum()
            np.testing.assert_allclose(tree.children_prior[node, :n], expected, rtol=1e-6)
            expanded += 1
        assert expanded > 10 and result.action_visits.sum() == 300
    assert UCTSearch(ttt, priors=index_priors).rule == PUCT  # the default rule with priors
    assert UCTSearch(ttt._replace(priors=index_priors)).rule == PUCT
    assert UCTSearch(ttt).rule == UCB1
    # With a large exploration constant PUCT's visits follow the priors (AlphaZero's formula
    # gives n_k ~ P_k * N when c dominates the values).
    empty = np.zeros((3, 3), np.int8)
    for priors, most in ((index_priors, 8), (None, None)):
        search = UCTSearch(ttt, num_simulations=900, seed=0, selection="puct", c_uct=100.0,
                           priors=priors, tactics=False)  # fmt: skip
        visits = search.search(empty, 1).action_visits
        if most is None:
            assert visits.max() - visits.min() <= 10  # uniform priors: even visits
        else:
            assert np.all(np.diff(visits) >= 0) and int(np.argmax(visits)) == most


def test_rollouts_and_candidates_equal_their_python_functions(ttt, c4):
    for kernels, rollout in ((ttt, placement_rollout), (c4, uniform_rollout)):
        for seed in range(20):
            board, player = _random_position(kernels, seed, 3)
            args = (player, int(np.count_nonzero(board)), 0)
            scratch = [np.zeros((4, kernels.action_size), np.int64) for _ in range(2)]
            fns = (kernels.legal_actions, kernels.apply_action, kernels.result_after)
            native = [NativeFunction(f, t) for f, t in zip(fns, KERNEL_TYPES)]
            jitted = rollout(board.copy(), *args, make_rng_state(seed), scratch[0], *native)
            plain = rollout.py_func(board.copy(), *args, make_rng_state(seed), scratch[1], *fns)
            assert jitted == plain
    board = np.zeros((9, 9), np.int8)
    board[0, 0], board[4, 4] = 1, 2
    out, scratch = np.zeros(81, np.int64), np.zeros((4, 81), np.int64)
    n = candidate_actions(board, 1, scratch, out, ttt.legal_actions)
    assert sorted(out[:n]) == [1, 9, 10, 30, 31, 32, 39, 41, 48, 49, 50]


def test_near_stone_candidates_at_the_root(ttt):
    big = ttt._replace(action_size=225, board_shape=(15, 15))
    board = np.zeros((15, 15), np.int8)
    board[7, 7] = 1
    for radius, count in ((0, 224), (1, 8), (2, 24)):
        result = UCTSearch(big, num_simulations=50, radius=radius).search(board, 2)
        assert len(result.candidates) == count
        rows, cols = np.divmod(result.candidates, 15)
        assert np.all(np.maximum(abs(rows - 7), abs(cols - 7)) <= (radius or 14))


@pytest.mark.parametrize(
    ("game", "rows", "player", "best"),
    [
        ("ttt", ["xx.", "oo.", "..."], 2, 5),  # O wins at once rather than block
        ("ttt", ["xx.", "o..", "..."], 2, 2),  # O blocks
        ("c4", [".......", ".......", ".......", "o......", "o......", "oxxx..."], 1, 4),
        ("c4", [".......", ".......", ".......", ".......", "x......", "xoo.o.."], 1, 3),
    ],
)
def test_one_simulation_takes_a_win_and_blocks_a_loss(game, rows, player, best, request):
    kernels = request.getfixturevalue(game)
    search = UCTSearch(kernels, num_simulations=1, seed=0)
    assert search.best_action(search.search(board_from(rows), player)) == best


def test_a_winning_move_backs_up_a_winning_value(ttt):
    board = board_from(["xx.", "oo.", "..."])
    search = UCTSearch(ttt, num_simulations=500, seed=0, tactics=False)
    result = search.search(board, 1)
    assert result.action_values[2] == 1.0
    assert search.best_action(result) == 2
    assert result.root_value > 0.5


def test_time_limit_grows_the_tree(c4):
    search = UCTSearch(c4, num_simulations=None, time_limit_s=0.05, seed=0)
    start = time.perf_counter()
    result = search.search(np.zeros((6, 7), np.int8), 1)
    assert time.perf_counter() - start < 2.0
    assert result.num_simulations > 1024  # more than the first allocation held
    _check_tree(search.tree, result.num_simulations)


def test_the_subtree_of_the_position_reached_is_reused(c4):
    search = UCTSearch(c4, num_simulations=400, seed=0, reuse_tree=True)
    board = np.zeros((6, 7), np.int8)
    first = search.search(board, 1)
    a = search.best_action(first)
    c4.apply_action(board, a, 1)
    child = search.tree.children_index[0, list(search.tree.children_action[0]).index(a)]
    reply = search.tree.children_action[child, 0]
    grandchild = search.tree.children_index[child, 0]
    kept = int(search.tree.node_visits[grandchild])
    c4.apply_action(board, int(reply), 2)
    second = search.search(board, 1)
    assert kept > 0 and second.num_simulations == kept + 400
    _check_tree(search.tree, kept + 400, root_own=1)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(num_simulations=0), "expected num_simulations >= 1, got 0"),
        (dict(num_simulations=None), "expected num_simulations or time_limit_s, got neither"),
        (dict(time_limit_s=-1.0), "expected time_limit_s > 0, got -1.0"),
        (dict(c_uct=-0.1), "expected c_uct >= 0, got -0.1"),
        (dict(radius=2), "radius >= 1 for a placement game, got 2"),
        (dict(selection="ucb"), r"expected selection in \['puct', 'ucb1'\], got 'ucb'"),
    ],
)
def test_invalid_settings_are_rejected(c4, kwargs, match):
    with pytest.raises(ValueError, match=match):
        UCTSearch(c4, **kwargs)


@pytest.mark.parametrize(
    ("board", "to_play", "match"),
    [
        (np.zeros((3, 3), np.int8), 1, r"shape \(6, 7\), got \(3, 3\)"),
        (np.full((6, 7), 4, np.int8), 1, r"values in \{0, 1, 2\}"),
        (np.zeros((6, 7), np.int8), 0, "expected to_play 1 or 2, got 0"),
        (np.ones((6, 7), np.int8), 1, "got a full board"),
    ],
)
def test_invalid_positions_are_rejected(c4, board, to_play, match):
    with pytest.raises(ValueError, match=match):
        UCTSearch(c4).search(board, to_play)


def test_a_python_leaf_evaluator_sets_priors_and_values(ttt):
    calls = []

    def evaluator(board, to_play):
        calls.append(board.copy())
        # All prior on the centre at the root, zero priors (so uniform) below it.
        return (np.zeros(9) if board.any() else np.eye(9)[4]), 0.0

    search = UCTSearch(ttt, num_simulations=200, seed=0, selection="puct", leaf_evaluator=evaluator)
    result = search.search(np.zeros((3, 3), np.int8), 1)
    tree = search.tree
    n = int(tree.meta[0])
    assert result.action_visits[4] >= 160 and result.action_visits.sum() == 200
    assert tree.children_prior[0, list(tree.children_action[0, :9]).index(4)] == 1.0
    ongoing = int((tree.node_result[1:n] == 0).sum())
    assert len(calls) == 1 + ongoing  # the root, then each new unfinished leaf once
    _check_tree(tree, 200)


def test_leaf_evaluator_priors_must_cover_the_actions(ttt):
    search = UCTSearch(ttt, num_simulations=5, leaf_evaluator=lambda b, p: (np.ones(4), 0.0))
    with pytest.raises(ValueError, match=r"expected evaluator priors of shape \(9,\), got \(4,\)"):
        search.search(np.zeros((3, 3), np.int8), 1)
