"""The batched search against plain-Python searches (AlphaZero-style with a Python evaluator;
UCT and PUCT with numba evaluators), against itself one tree at a time, and on solved
positions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uct_test_games import index_priors

from lzero.mcts.batched_search import (
    SAME_AS_BELOW,
    BatchedResult,
    BatchedSearch,
    completed_q_policy,
    prune_forced_playouts,
    sample_actions,
    visit_policy,
)
from lzero.mcts.batched_tree import ROOT_INDEX, UNVISITED
from lzero.mcts.python_uct import PythonUCT
from lzero.mcts.rollout import placement_rollout, uniform_rollout

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def ttt_winner(cells: list[int]) -> int:
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return 0


def fake_net(cells: list[int], to_play: int) -> tuple[list[float], float]:
    """A deterministic stand-in for a network: priors and value from a hash of the board."""
    h = sum((i + 3) * (v + 1) * 31 for i, v in enumerate(cells)) + 7 * to_play
    logits = [((h * (a + 5)) % 13) / 4.0 for a in range(9)]
    m = max(logits)
    exp = [math.exp(x - m) for x in logits]
    total = sum(exp)
    return [e / total for e in exp], math.tanh(((h % 17) - 8) / 6.0)


def batch_net(boards, to_play, legal):
    out = [fake_net([int(v) for v in b.ravel()], int(p)) for b, p in zip(boards, to_play)]
    return np.array([o[0] for o in out]), np.array([o[1] for o in out])


def fake_draw(cells: list[int]) -> float:
    """A deterministic stand-in for a network's draw probability, in [0, 1]."""
    return (sum((i + 5) * (v + 2) for i, v in enumerate(cells)) % 11) / 10.0


def batch_net_with_draws(boards, to_play, legal):
    priors, values = batch_net(boards, to_play, legal)
    return priors, values, np.array([fake_draw([int(v) for v in b.ravel()]) for b in boards])


class RefNode:
    def __init__(self, cells, to_play, reward, terminal):
        self.cells, self.to_play, self.reward, self.terminal = cells, to_play, reward, terminal
        self.n, self.w, self.prior, self.children = 0, 0.0, None, {}

    def q(self):  # value of the edge into this node, for its mover
        return self.reward - self.w / self.n


def wins_at(cells: list[int], a: int, player: int) -> bool:
    after = list(cells)
    after[a] = player
    return ttt_winner(after) == player


def tactical_moves(cells: list[int], to_play: int, at_root: bool) -> list[int]:
    """The moves a node keeps under tactics (Teytaud and Teytaud 2010), in plain Python: the
    first winning move alone; else, below the root, the blocks of the opponent's immediate
    wins if any, and at the root, the moves after which the opponent cannot win at once
    (unless none or all are); else every legal move."""
    legal = [a for a in range(9) if cells[a] == 0]
    opponent = 3 - to_play
    for a in legal:
        if wins_at(cells, a, to_play):
            return [a]
    if not at_root:
        blocks = [a for a in legal if wins_at(cells, a, opponent)]
        return blocks or legal
    safe = []
    for a in legal:
        after = list(cells)
        after[a] = to_play
        if not any(wins_at(after, r, opponent) for r in range(9) if after[r] == 0):
            safe.append(a)
    return safe if 0 < len(safe) < len(legal) else legal


def reference_search(
    cells, to_play, sims, rule, c1, c2, tactics=False, contempt=0.0, seen=None, fpu=None,
    root_fpu="same", start=None, forced=0.0,
):  # fmt: skip
    """A plain-Python AlphaZero/UCT search over TicTacToe, written from the papers. With
    ``contempt`` c, the game is scored as Lc0 does: a draw is worth -c to the root's player
    and +c to the other, and a leaf's draw probability d moves its value by c * d likewise.
    ``seen``, if a list, gets one entry per drawn game the search reached. With ``fpu`` r
    (PUCT), a move not yet tried is worth its node's mean value less r times the square root
    of the priors of the node's moves tried (Lc0's first-play urgency reduction); at the root
    ``root_fpu`` instead, unless it is "same". ``start``: a node of an earlier search's tree
    (of ``cells``) to go on from, its statistics kept. With ``forced`` k > 0 (KataGo's forced
    playouts), the root first takes, among its moves searched fewer than sqrt(k * P * T)
    times (T: its simulations so far), the one of highest prior (the lowest move on ties)."""
    root = RefNode(list(cells), to_play, 0.0, False) if start is None else start

    def evaluate(node):
        if node.terminal:
            return 0.0
        priors, value = fake_net(node.cells, node.to_play)
        if contempt:
            sign = 1.0 if node.to_play == root.to_play else -1.0
            value -= sign * contempt * fake_draw(node.cells)
        legal = [a for a in range(9) if node.cells[a] == 0]
        if tactics:
            legal = tactical_moves(node.cells, node.to_play, node is root)
        total = sum(priors[a] for a in legal)
        node.prior = {a: priors[a] / total for a in legal}
        return value

    def select(node):
        best, best_score = None, -math.inf
        if forced > 0 and node is root:
            for a in sorted(node.prior):
                n = node.children[a].n if a in node.children else 0
                if n < math.sqrt(forced * node.prior[a] * (node.n - 1)):
                    if best is None or node.prior[a] > node.prior[best]:
                        best = a
            if best is not None:
                return best
        for a in sorted(node.prior):
            child = node.children.get(a)
            if rule == "puct":
                c = c1 + math.log((node.n + c2 + 1) / c2)
                unvisited = 0.0
                r = root_fpu if node is root and root_fpu != "same" else fpu
                if r is not None:
                    tried = sum(node.prior[t] for t in node.children)
                    unvisited = node.w / node.n - r * math.sqrt(tried)
                q, n = (child.q(), child.n) if child else (unvisited, 0)
                score = q + c * node.prior[a] * math.sqrt(node.n) / (1 + n)
            else:
                if child is None:
                    return a
                score = child.q() + c1 * math.sqrt(math.log(node.n) / child.n)
            if score > best_score:
                best, best_score = a, score
        return best

    if root.prior is None:
        root.n, root.w = 1, evaluate(root)
    for _ in range(sims):
        path, node = [root], root
        while node.prior is not None and not node.terminal:
            a = select(node)
            if a not in node.children:
                cells2 = list(node.cells)
                cells2[a] = node.to_play
                win = ttt_winner(cells2)
                done = bool(win) or all(cells2)
                reward = 1.0 if win else 0.0
                if done and not win:  # a draw, for the mover
                    reward = -contempt if node.to_play == root.to_play else contempt
                    if seen is not None:
                        seen.append(cells2)
                child = RefNode(cells2, 3 - node.to_play, reward, done)
                node.children[a] = child
                path.append(child)
                node = child
                break
            node = node.children[a]
            path.append(node)
        value = evaluate(node) if node.prior is None else 0.0
        for n in reversed(path):
            n.n += 1
            n.w += value
            value = n.reward - value
    return [root.children[a].n if a in root.children else 0 for a in range(9)], root.w / root.n


def random_positions(draw_moves, count, seed):
    rng = np.random.default_rng(seed)
    boards, to_play = [], []
    while len(boards) < count:
        cells, player = [0] * 9, 1
        for _ in range(rng.integers(0, draw_moves + 1)):
            if ttt_winner(cells) or all(cells):
                break
            free = [a for a in range(9) if cells[a] == 0]
            cells[int(rng.choice(free))] = player
            player = 3 - player
        if not ttt_winner(cells) and not all(cells):
            boards.append(np.array(cells, np.int8).reshape(3, 3))
            to_play.append(player)
    return np.stack(boards), np.array(to_play)


@pytest.mark.parametrize("rule", ["puct", "ucb1"])
def test_batched_search_equals_plain_python_reference(ttt, rule):
    boards, to_play = random_positions(6, 12, seed=1)
    search = BatchedSearch(ttt, num_simulations=60, selection=rule, pb_c_init=1.25, c_uct=1.4)
    result = search.search(boards, to_play, batch_net)
    c1 = 1.25 if rule == "puct" else 1.4
    for b in range(len(boards)):
        visits, value = reference_search(
            boards[b].ravel().tolist(), int(to_play[b]), 60, rule, c1, 19652.0
        )
        assert result.visits[b].tolist() == visits
        assert result.value[b] == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("contempt", [0.25, 1.0])
def test_contempt_equals_the_plain_python_reference(ttt, contempt):
    # Positions of 4-7 stones, so that many searches reach drawn games as well as leaves.
    boards, to_play = random_positions(7, 40, seed=3)
    keep = np.count_nonzero(boards.reshape(len(boards), -1), axis=1) >= 4
    boards, to_play = boards[keep], to_play[keep]
    search = BatchedSearch(ttt, num_simulations=80, pb_c_init=1.25)
    result = search.search(boards, to_play, batch_net_with_draws, contempt=contempt)
    plain = search.search(boards, to_play, batch_net)
    drawn, changed = [], 0
    for b in range(len(boards)):
        visits, value = reference_search(
            boards[b].ravel().tolist(), int(to_play[b]), 80, "puct", 1.25, 19652.0,
            contempt=contempt, seen=drawn,
        )  # fmt: skip
        assert result.visits[b].tolist() == visits
        assert result.value[b] == pytest.approx(value, abs=1e-9)
        changed += result.visits[b].tolist() != plain.visits[b].tolist()
    assert len(drawn) >= 10 and changed >= 3  # the drawn games and the leaves both count


@pytest.mark.parametrize(
    "fpu, root_fpu",
    [(0.0, "same"), (0.2, "same"), (1.0, "same"), (0.2, 0.0), (None, 0.3), (0.5, None)],
)
def test_fpu_reduction_equals_the_plain_python_reference(ttt, fpu, root_fpu):
    boards, to_play = random_positions(6, 20, seed=5)
    search = BatchedSearch(ttt, num_simulations=70, pb_c_init=1.25)
    root = SAME_AS_BELOW if root_fpu == "same" else root_fpu
    result = search.search(boards, to_play, batch_net, fpu_reduction=fpu, root_fpu_reduction=root)
    plain = search.search(boards, to_play, batch_net)
    changed = 0
    for b in range(len(boards)):
        visits, value = reference_search(
            boards[b].ravel().tolist(), int(to_play[b]), 70, "puct", 1.25, 19652.0, fpu=fpu,
            root_fpu=root_fpu,
        )  # fmt: skip
        assert result.visits[b].tolist() == visits
        assert result.value[b] == pytest.approx(value, abs=1e-9)
        changed += visits != plain.visits[b].tolist()
    assert changed >= 5  # the first-play value changes which moves get searched


@pytest.mark.parametrize("forced, fpu", [(1.0, None), (2.0, None), (2.0, 0.2), (8.0, None)])
def test_forced_playouts_equal_the_plain_python_reference(ttt, forced, fpu):
    boards, to_play = random_positions(6, 20, seed=9)
    search = BatchedSearch(ttt, num_simulations=70, pb_c_init=1.25)
    result = search.search(
        boards, to_play, batch_net, fpu_reduction=fpu, root_fpu_reduction=None,
        forced_playouts=forced,
    )  # fmt: skip
    plain = search.search(boards, to_play, batch_net, fpu_reduction=fpu, root_fpu_reduction=None)
    changed = 0
    for b in range(len(boards)):
        visits, value = reference_search(
            boards[b].ravel().tolist(), int(to_play[b]), 70, "puct", 1.25, 19652.0, fpu=fpu,
            root_fpu=None, forced=forced,
        )  # fmt: skip
        assert result.visits[b].tolist() == visits
        assert result.value[b] == pytest.approx(value, abs=1e-9)
        changed += visits != plain.visits[b].tolist()
    assert changed >= 5  # the forcing moves visits to moves the rule would not search


def test_forced_playouts_are_refused_with_bad_values_or_without_a_python_evaluator(ttt):
    boards, to_play = random_positions(4, 3, seed=2)
    search = BatchedSearch(ttt, num_simulations=10, pb_c_init=1.25)
    for bad in (-1.0, math.nan, math.inf, "2", True, None):
        with pytest.raises(ValueError, match="expected forced_playouts a"):
            search.search(boards, to_play, batch_net, forced_playouts=bad)
    with pytest.raises(ValueError, match="forced_playouts 0 for a search without a Python"):
        search.search(boards, to_play, forced_playouts=2.0)
    ucb = BatchedSearch(ttt, num_simulations=10, selection="ucb1", c_uct=1.4)
    with pytest.raises(ValueError, match="with UCB1"):
        ucb.search(boards, to_play, batch_net, forced_playouts=2.0)


def reference_pruning(visits, q, priors, k, c1, c2):
    """KataGo's policy target pruning (Wu 2019, section 3.1) one visit at a time: each move
    but the most visited c* gives up visits, at most sqrt(k * P * T) of them, while its PUCT
    score with one visit fewer stays below c*'s; a move left with at most one visit is
    dropped."""
    total = sum(visits)
    parent = total + 1
    scale = (c1 + math.log((parent + 1 + c2) / c2)) * math.sqrt(parent)
    best = max(range(len(visits)), key=lambda a: (visits[a], -a))
    best_score = q[best] + scale * priors[best] / (1 + visits[best])
    out = list(map(float, visits))
    for a in range(len(visits)):
        if a == best or visits[a] == 0:
            continue
        budget = math.sqrt(k * priors[a] * total)
        n = visits[a]
        while n > 0 and visits[a] - (n - 1) <= budget + 1e-12:
            if q[a] + scale * priors[a] / n >= best_score:  # the score at n - 1 visits
                break
            n -= 1
        out[a] = float(n) if n > 1 else 0.0
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 60), min_size=2, max_size=9),
    st.integers(0, 2**31 - 1),
    st.sampled_from([0.5, 2.0, 6.0]),
)
def test_policy_target_pruning_equals_the_one_visit_at_a_time_reference(visits, seed, k):
    rng = np.random.default_rng(seed)
    a = len(visits)
    priors = rng.dirichlet(np.ones(a)).astype(np.float32)
    q = np.where(np.array(visits) > 0, rng.uniform(-1, 1, a), 0.0)
    result = BatchedResult(
        np.array([visits], np.int32), q[None], np.zeros(1), priors[None], priors[None],
        np.zeros(1),
    )  # fmt: skip
    pruned = prune_forced_playouts(result, k, 1.25, 19652.0)
    expected = reference_pruning(
        visits, q.tolist(), priors.astype(np.float64).tolist(), k, 1.25, 19652.0
    )
    assert pruned[0].tolist() == pytest.approx(expected)


def test_pruning_keeps_the_best_move_and_takes_back_what_the_forcing_spent(ttt):
    boards, to_play = random_positions(4, 30, seed=11)
    search = BatchedSearch(ttt, num_simulations=200, pb_c_init=1.25)
    forced = search.search(boards, to_play, batch_net, add_noise=True, forced_playouts=2.0)
    pruned = prune_forced_playouts(forced, 2.0, 1.25, 19652.0)
    rows = np.arange(len(boards))
    best = forced.visits.argmax(axis=1)
    assert (pruned <= forced.visits).all() and (
        pruned[rows, best] == forced.visits[rows, best]
    ).all()
    assert ((pruned == 0) | (pruned > 1)).all()
    assert (pruned.sum(axis=1) < forced.visits.sum(axis=1)).sum() >= 20  # most lose some


def test_a_large_fpu_reduction_searches_one_line_and_bad_values_are_refused(ttt):
    # With a reduction far beyond the value range, a move is tried only while none of its
    # node's moves has been: every simulation after the root's first one follows one line.
    boards, to_play = random_positions(0, 1, seed=0)
    result = BatchedSearch(ttt, num_simulations=30).search(
        boards, to_play, batch_net, fpu_reduction=50.0
    )
    assert np.count_nonzero(result.visits[0]) == 1 and result.visits[0].sum() == 30
    # AlphaZero's rule at the root alone: the root spreads its simulations again.
    result = BatchedSearch(ttt, num_simulations=30).search(
        boards, to_play, batch_net, fpu_reduction=50.0, root_fpu_reduction=None
    )
    assert np.count_nonzero(result.visits[0]) >= 5
    search = BatchedSearch(ttt, num_simulations=20)
    before = search.search(boards, to_play, batch_net).visits.copy()
    for bad in (-0.1, float("nan"), float("inf"), True, "0.2"):
        with pytest.raises(ValueError, match="expected fpu_reduction None or a"):
            search.search(boards, to_play, batch_net, fpu_reduction=bad)
        with pytest.raises(ValueError, match="expected root_fpu_reduction None or a"):
            search.search(boards, to_play, batch_net, fpu_reduction=0.2, root_fpu_reduction=bad)
    with pytest.raises(ValueError, match="without a Python evaluator or with UCB1"):
        search.search(boards, to_play, fpu_reduction=0.2)
    with pytest.raises(ValueError, match="without a Python evaluator or with UCB1"):
        search.search(boards, to_play, root_fpu_reduction=0.0)
    ucb1 = BatchedSearch(ttt, num_simulations=20, selection="ucb1")
    with pytest.raises(ValueError, match="without a Python evaluator or with UCB1"):
        ucb1.search(boards, to_play, batch_net, fpu_reduction=0.2)
    assert (search.search(boards, to_play, batch_net).visits == before).all()


def _two_moves_on(root, visits):
    """The root's most visited move, then its node's most visited reply, if that reply's node
    is expanded and the game goes on there: ``(a, b, node)``, else None."""
    a = int(np.argmax(visits))
    child = root.children[a]
    if child.terminal or not child.children:
        return None
    b = max(sorted(child.children), key=lambda r: child.children[r].n)
    node = child.children[b]
    return (a, b, node) if node.prior is not None and not node.terminal else None


@pytest.mark.parametrize("contempt", [0.0, 0.3])
def test_reuse_tree_goes_on_from_the_kept_subtree_as_the_reference_does(ttt, contempt):
    """``reuse_tree``: after two moves, each tree goes on from the node of the new position
    with its statistics (the reference search continued from that node) and adds
    ``num_simulations``; a position the last search did not reach starts afresh."""
    boards, to_play = random_positions(3, 16, seed=11)
    search = BatchedSearch(ttt, num_simulations=60, pb_c_init=1.25)
    net = batch_net_with_draws if contempt else batch_net
    first = search.search(boards, to_play, net, contempt=contempt, reuse_tree=True)
    roots, after, movers = [], [], []
    for b in range(len(boards)):
        root = RefNode(boards[b].ravel().tolist(), int(to_play[b]), 0.0, False)
        visits, _ = reference_search(
            root.cells, root.to_play, 60, "puct", 1.25, 19652.0, contempt=contempt, start=root
        )
        assert first.visits[b].tolist() == visits
        moves = _two_moves_on(root, visits)
        if moves is None:  # continue from a fresh position instead: nothing kept
            cells = [0] * 9
            roots.append(RefNode(cells, 1, 0.0, False))
        else:
            roots.append(moves[2])
        after.append(np.array(roots[-1].cells, np.int8).reshape(3, 3))
        movers.append(roots[-1].to_play)
    second = search.search(np.array(after), np.array(movers), net, num_simulations=40,
                           contempt=contempt, reuse_tree=True)  # fmt: skip
    went_on = 0
    for b, root in enumerate(roots):
        kept = root.n
        visits, value = reference_search(
            root.cells, root.to_play, 40, "puct", 1.25, 19652.0, contempt=contempt, start=root
        )
        assert second.visits[b].tolist() == visits
        # The tree keeps edge rewards (a draw's -contempt) in float32: 1e-8 each.
        assert second.value[b] == pytest.approx(value, abs=1e-7 if contempt else 1e-9)
        assert sum(visits) == max(kept - 1, 0) + 40  # the root's own visit is not a move's
        went_on += kept > 0
        assert np.isnan(second.raw_value[b]) == (kept > 0)
    assert went_on >= 10


def _check_visited_mass(tree):
    """Every node's ``node_visited_mass`` is the sum of the priors of its slots with a child."""
    checked = 0
    for b in range(tree.num_nodes.shape[0]):
        for node in range(tree.num_nodes[b]):
            n = max(int(tree.node_num_children[b, node]), 0)
            taken = tree.children_index[b, node, :n] != UNVISITED
            want = float(np.sum(tree.children_prior[b, node, :n][taken], dtype=np.float64))
            assert tree.node_visited_mass[b, node] == pytest.approx(want, rel=1e-12, abs=1e-15)
            checked += bool(taken.any())
    return checked


def test_visited_mass_follows_the_slots_taken_through_noise_and_kept_trees(ttt):
    """The first-play reduction reads each node's visited prior mass from the tree; it must
    equal the sum over the slots taken, also at a kept root whose priors the noise changed."""
    boards, to_play = random_positions(3, 16, seed=11)
    search = BatchedSearch(ttt, num_simulations=60, pb_c_init=1.25, root_noise_weight=0.25, seed=2)
    first = search.search(
        boards, to_play, batch_net, fpu_reduction=0.2, add_noise=True, reuse_tree=True
    )
    assert _check_visited_mass(search.tree) >= 100
    after, movers = [], []
    for b in range(len(boards)):  # two moves on: the most visited, then a legal reply
        board = boards[b].copy().ravel()
        a = int(np.argmax(first.visits[b]))
        board[a] = to_play[b]
        if not ttt_winner(board.tolist()) and (board == 0).any():
            board[int(np.flatnonzero(board == 0)[0])] = 3 - to_play[b]
        after.append(board.reshape(3, 3))
        movers.append(int(to_play[b]))
    search.search(
        np.array(after), np.array(movers), batch_net, fpu_reduction=0.2, add_noise=True,
        reuse_tree=True, active=np.array([not ttt_winner(c.ravel().tolist()) and (c == 0).any()
                                          for c in after]),
    )  # fmt: skip
    kept = search.tree.node_visits[:, ROOT_INDEX] > 61  # roots that went on from a kept node
    assert kept.any()
    assert _check_visited_mass(search.tree) >= 100
    rollouts = BatchedSearch(ttt, num_simulations=60)  # the numba loop keeps it too
    rollouts.search(boards, to_play)
    assert _check_visited_mass(rollouts.tree) >= 100


def test_reuse_tree_finds_positions_in_other_trees_and_starts_afresh_otherwise(ttt):
    """A position is looked for in every tree of the last two searches made with
    ``reuse_tree`` (one move down here); an old root is not one; with contempt only two moves
    down (the same player's view); a numba search or one without ``reuse_tree`` in between,
    two more searches, or other root moves (tactics) keep nothing."""
    corner, centre = np.zeros((3, 3), np.int8), np.zeros((3, 3), np.int8)
    corner[0, 0], centre[1, 1] = 1, 1
    roots, movers = np.stack([corner, centre]), np.array([2, 2])
    search = BatchedSearch(ttt, num_simulations=200)
    first = search.search(roots, movers, batch_net, reuse_tree=True)
    on = centre.copy()  # game 1 one move on; every node of tree 0 has a stone in the corner
    on.flat[int(first.visits[1].argmax())] = 2
    boards, to_play = np.stack([on, corner]), np.array([1, 2])
    fresh = BatchedSearch(ttt, num_simulations=30).search(boards, to_play, batch_net)
    # The trees of the last two searches made with reuse_tree are looked at: a player
    # whose turns alternate with another's in the batches finds its own.
    other = np.zeros((1, 3, 3), np.int8)
    other[0, 2, 2] = 1
    search.search(other, np.array([2]), batch_net, reuse_tree=True)
    kept = search.search(boards, to_play, batch_net, num_simulations=30, reuse_tree=True)
    assert kept.visits[0].sum() == first.visits[1].max() - 1 + 30 and np.isnan(kept.raw_value[0])
    assert kept.visits[1].tolist() == fresh.visits[1].tolist()  # an old root: not looked at
    assert kept.raw_value[1] == fresh.raw_value[1]
    for between in ("numba", "no reuse", "two more"):
        search.search(roots, movers, batch_net, reuse_tree=True)
        if between == "numba":
            search.search(roots, movers)
        elif between == "no reuse":
            search.search(other, np.array([2]), batch_net)
        else:
            for _ in range(2):
                search.search(other, np.array([2]), batch_net, reuse_tree=True)
        again = search.search(boards, to_play, batch_net, num_simulations=30, reuse_tree=True)
        assert again.visits.tolist() == fresh.visits.tolist(), between
    with pytest.raises(ValueError, match="expected reuse_tree False for a search without"):
        search.search(boards, to_play, reuse_tree=True)
    # Contempt: one move down is the other player's view of the draws: not kept.
    search.search(roots, movers, batch_net_with_draws, contempt=0.3, reuse_tree=True)
    again = search.search(boards, to_play, batch_net_with_draws, num_simulations=30,
                          contempt=0.3, reuse_tree=True)  # fmt: skip
    want = BatchedSearch(ttt, num_simulations=30).search(
        boards, to_play, batch_net_with_draws, contempt=0.3
    )
    assert again.visits.tolist() == want.visits.tolist()
    # Tactics: X to move, O threatens two lines. Below the root the node keeps the two
    # blocks; as a root, no move stops both, so it keeps all three: not kept.
    earlier = np.array([[0, 1, 0], [1, 0, 2], [2, 0, 0]], np.int8)
    target = np.array([[1, 1, 2], [1, 0, 2], [2, 0, 0]], np.int8)  # X 0, then O's block 2
    tactical = BatchedSearch(ttt, num_simulations=300, tactics=True, tree_tactics=True)
    tactical.search(earlier[None], np.array([1]), batch_net, reuse_tree=True)
    tree = tactical.tree
    slot = list(tree.children_action[0, 0, : tree.node_num_children[0, 0]]).index(0)
    node = tree.children_index[0, 0, slot]
    assert tree.children_action[0, node, 0] == 2 and tree.node_num_children[0, node] == 1
    node = tree.children_index[0, node, 0]
    assert tree.node_num_children[0, node] == 2  # reached: the two blocks
    again = tactical.search(target[None], np.array([1]), batch_net, reuse_tree=True)
    want = BatchedSearch(ttt, num_simulations=300, tactics=True, tree_tactics=True).search(
        target[None], np.array([1]), batch_net
    )
    assert np.count_nonzero(want.visits[0]) == 3
    assert again.visits.tolist() == want.visits.tolist() and not np.isnan(again.raw_value[0])


def test_contempt_zero_ignores_the_draws_and_bad_contempt_is_refused(ttt):
    boards, to_play = random_positions(5, 6, seed=4)
    search = BatchedSearch(ttt, num_simulations=40)
    a = search.search(boards, to_play, batch_net_with_draws)
    b = search.search(boards, to_play, batch_net)
    assert (a.visits == b.visits).all() and np.array_equal(a.value, b.value)
    before = search.search(boards, to_play, batch_net).visits.copy()
    with pytest.raises(ValueError, match=r"\(priors, values, draws\).*got 2 outputs"):
        search.search(boards, to_play, batch_net, contempt=0.5)
    with pytest.raises(ValueError, match=r"contempt in \[0, 1\]"):
        search.search(boards, to_play, batch_net_with_draws, contempt=1.5)
    with pytest.raises(ValueError, match="without a Python evaluator"):
        search.search(boards, to_play, contempt=0.5)
    assert (search.search(boards, to_play, batch_net).visits == before).all()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["puct", "ucb1"]))
def test_python_evaluator_tactics_equal_the_plain_python_reference(ttt, seed, rule):
    # Positions of 2-6 stones: most have a win to take or a threat to block somewhere in
    # the tree, and some at the root.
    boards, to_play = random_positions(6, 8, seed)
    search = BatchedSearch(ttt, num_simulations=60, selection=rule, tactics=True, tree_tactics=True)
    result = search.search(boards, to_play, batch_net)
    c1 = 1.25 if rule == "puct" else 1.4
    for b in range(len(boards)):
        cells = boards[b].ravel().tolist()
        visits, value = reference_search(cells, int(to_play[b]), 60, rule, c1, 19652.0, True)
        assert result.visits[b].tolist() == visits
        assert result.value[b] == pytest.approx(value, abs=1e-9)
        kept = tactical_moves(cells, int(to_play[b]), at_root=True)
        assert set(np.flatnonzero(result.visits[b])) <= set(kept)


def test_python_evaluator_tactics_take_the_win_and_block(ttt):
    win = np.array([[1, 1, 0], [2, 2, 0], [0, 0, 0]], np.int8)  # X wins at 2, O would at 5
    block = np.array([[1, 1, 0], [0, 2, 0], [0, 0, 0]], np.int8)  # O must block at 2
    asked = []

    def recording(boards, to_play, legal):
        asked.append(legal.copy())
        return batch_net(boards, to_play, legal)

    plain = BatchedSearch(ttt, num_simulations=30).search(
        np.stack([win, block]), np.array([1, 2]), batch_net
    )
    assert np.count_nonzero(plain.visits, axis=1).min() > 1  # without tactics: several moves
    result = BatchedSearch(ttt, num_simulations=30, tactics=True).search(
        np.stack([win, block]), np.array([1, 2]), recording
    )
    assert result.visits[:, 2].tolist() == [30, 30]  # every simulation on the one kept move
    assert asked[0].sum(axis=1).tolist() == [1, 1]  # the evaluator is told the narrowed moves


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 2**31 - 1), st.integers(1, 6))
def test_batched_equals_one_tree_at_a_time(ttt, seed, batch):
    boards, to_play = random_positions(7, batch, seed)
    search = BatchedSearch(ttt, num_simulations=40)
    together = search.search(boards, to_play, batch_net)
    for b in range(batch):
        alone = BatchedSearch(ttt, num_simulations=40).search(
            boards[b : b + 1], to_play[b : b + 1], batch_net
        )
        np.testing.assert_array_equal(alone.visits[0], together.visits[b])
        np.testing.assert_allclose(alone.q[0], together.q[b])
        assert alone.value[0] == pytest.approx(together.value[b])


def test_inactive_trees_are_not_searched_or_evaluated(ttt):
    boards, to_play = random_positions(4, 4, seed=3)
    asked = []

    def counting(b, p, legal):
        asked.append(len(b))
        return batch_net(b, p, legal)

    active = np.array([True, False, True, False])
    result = BatchedSearch(ttt, num_simulations=10).search(boards, to_play, counting, active=active)
    assert max(asked) <= 2
    assert result.visits[~active].sum() == 0
    assert (result.visits[active].sum(axis=1) == 10).all()


def test_solved_positions_with_rollouts(ttt):
    # X (1) to move wins at cell 2; O (2) to move must block cell 2.
    win = np.array([[1, 1, 0], [2, 2, 0], [0, 0, 0]], np.int8)
    block = np.array([[1, 1, 0], [0, 2, 0], [0, 0, 0]], np.int8)
    search = BatchedSearch(ttt, num_simulations=400, selection="ucb1", seed=0)
    result = search.search(np.stack([win, block]), np.array([1, 2]))
    assert result.visits[0].argmax() == 2 and result.q[0, 2] == 1.0
    assert result.visits[1].argmax() == 2


def test_search_is_reproducible_from_its_seed(ttt):
    boards, to_play = random_positions(3, 5, seed=4)
    runs = [
        BatchedSearch(ttt, num_simulations=50, seed=7).search(boards, to_play, add_noise=True)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0].visits, runs[1].visits)
    np.testing.assert_array_equal(runs[0].priors, runs[1].priors)


def test_root_noise_mixes_a_dirichlet_draw_over_legal_moves(ttt):
    board = np.array([[[1, 2, 0], [0, 0, 0], [0, 0, 0]]], np.int8)
    plain = BatchedSearch(ttt, num_simulations=1).search(board, np.array([1]), batch_net)
    noisy = BatchedSearch(ttt, num_simulations=1, root_noise_weight=0.25, seed=3).search(
        board, np.array([1]), batch_net, add_noise=True
    )
    noise = (noisy.priors[0] - 0.75 * plain.priors[0]) / 0.25
    assert noisy.priors[0, :2].tolist() == [0.0, 0.0]
    assert noise.sum() == pytest.approx(1.0, abs=1e-5)
    assert (noise[2:] > -1e-6).all() and not np.allclose(noisy.priors, plain.priors)


@pytest.mark.parametrize("alpha", [0.3, 0.05])
def test_root_noise_is_numpys_dirichlet_drawn_root_by_root(ttt, alpha):
    """The root priors after the noise against NumPy's ``Generator.dirichlet``, drawn root by
    root from a generator of the search's seed and mixed in by the definition: equal to
    float32 rounding (for alpha 0.3 the kernel normalises the same gamma draws; for 0.05
    dirichlet's own draws, renormalised)."""
    boards = np.array(
        [[[1, 2, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0], [0, 0, 2]], [[0] * 3] * 3]
    ).astype(np.int8)
    to_play, w = np.array([1, 2, 1]), 0.25
    plain = BatchedSearch(ttt, num_simulations=1).search(boards, to_play, batch_net)
    noisy = BatchedSearch(
        ttt, num_simulations=1, root_noise_weight=w, root_dirichlet_alpha=alpha, seed=11
    ).search(boards, to_play, batch_net, add_noise=True)
    rng = np.random.default_rng(11)
    for b in range(3):
        legal = boards[b].ravel() == 0
        noise = np.zeros(9)
        noise[legal] = rng.dirichlet(np.full(legal.sum(), alpha))
        want = np.where(legal, (1 - w) * plain.priors[b] + w * noise, 0.0)
        np.testing.assert_allclose(noisy.priors[b], want, rtol=1e-6, atol=1e-9)


def test_raw_priors_and_value_are_the_evaluators_before_the_noise(ttt):
    boards = np.array([[[1, 2, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0], [0, 0, 2]]])
    boards, to_play = boards.astype(np.int8), np.array([1, 2])
    result = BatchedSearch(ttt, num_simulations=8, seed=3).search(
        boards, to_play, batch_net, add_noise=True
    )
    for b in range(2):
        cells = [int(v) for v in boards[b].ravel()]
        prior, value = fake_net(cells, int(to_play[b]))
        legal = np.where(np.array(cells) == 0, prior, 0.0)  # expansion renormalises over these
        np.testing.assert_allclose(result.raw_priors[b], legal / legal.sum(), rtol=1e-6)
        assert result.raw_value[b] == pytest.approx(value)
    assert not np.allclose(result.priors, result.raw_priors)  # the noise went elsewhere
    rollouts = BatchedSearch(ttt, num_simulations=8).search(boards, to_play)
    assert np.isnan(rollouts.raw_value).all()
    np.testing.assert_allclose(rollouts.raw_priors, rollouts.priors)


def reference_completed_q(visits, q, prior, raw_value, c_visit=50.0, c_scale=0.1):
    """Gumbel MuZero's improved policy of one root (Danihelka et al. 2022, eqs. 10-11 and
    Appendix D), written out move by move."""
    moves = [a for a in range(len(prior)) if prior[a] > 0]
    seen = [a for a in moves if visits[a] > 0]
    total = sum(visits[a] for a in seen)
    mass = sum(prior[a] for a in seen)
    mean = sum(prior[a] * q[a] for a in seen) / mass if seen else 0.0
    v = mean if math.isnan(raw_value) else raw_value
    mixed = (v + total * mean) / (1 + total)
    completed = {a: (q[a] if visits[a] > 0 else mixed) for a in moves}
    low, high = min(completed.values()), max(completed.values())
    scale = (c_visit + max(visits)) * c_scale
    logit = {
        a: math.log(prior[a]) + scale * (completed[a] - low) / max(high - low, 1e-8) for a in moves
    }
    top = max(logit.values())
    total_weight = sum(math.exp(x - top) for x in logit.values())
    return [
        math.exp(logit[a] - top) / total_weight if a in logit else 0.0 for a in range(len(prior))
    ]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), size=st.integers(1, 7))
def test_completed_q_policy_equals_the_plain_python_reference(data, size):
    visits = data.draw(st.lists(st.integers(0, 60), min_size=size, max_size=size))
    q = [data.draw(st.floats(-1, 1)) if n else 0.0 for n in visits]
    weights = data.draw(st.lists(st.floats(0, 1), min_size=size, max_size=size))
    total = sum(weights)
    prior = [w / total if total > 0 else 0.0 for w in weights]
    prior32 = np.array(prior, np.float32).astype(np.float64)
    visits = [n if p > 0 else 0 for n, p in zip(visits, prior32)]
    raw_value = data.draw(st.one_of(st.floats(-1, 1), st.just(math.nan)))
    result = BatchedResult(
        np.array([visits], np.int32), np.array([q]), np.zeros(1), np.zeros((1, size), np.float32),
        np.array([prior], np.float32), np.array([raw_value]),
    )  # fmt: skip
    got = completed_q_policy(result)[0]
    if not prior32.any():
        assert (got == 0).all()
        return
    want = reference_completed_q(visits, q, prior32, raw_value)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    assert got.sum() == pytest.approx(1.0)


def test_completed_q_policy_ranks_by_value_not_visits():
    """A move visited most but refuted gives way to a better one: the target the visit
    counts cannot express (Danihelka et al. 2022)."""
    result = BatchedResult(
        np.array([[30, 10, 0]], np.int32), np.array([[-0.5, 0.6, 0.0]]), np.zeros(1),
        np.zeros((1, 3), np.float32), np.array([[0.6, 0.3, 0.1]], np.float32), np.array([0.0]),
    )  # fmt: skip
    got = completed_q_policy(result)[0]
    assert got[1] > 0.99 and visit_policy(result.visits, 1.0)[0, 0] == 0.75
    same = result._replace(q=np.array([[0.2, 0.2, 0.0]]), raw_value=np.array([0.2]))
    np.testing.assert_allclose(completed_q_policy(same)[0], [0.6, 0.3, 0.1], rtol=1e-6)


def test_bad_input_is_refused_with_what_was_expected(ttt):
    search = BatchedSearch(ttt, num_simulations=5)
    with pytest.raises(ValueError, match=r"expected boards of shape \[B, 3, 3\]"):
        search.search(np.zeros((2, 4, 4), np.int8), np.ones(2), batch_net)
    with pytest.raises(ValueError, match="expected to_play"):
        search.search(np.zeros((2, 3, 3), np.int8), np.array([1, 3]), batch_net)
    full = np.array([[[1, 2, 1], [1, 2, 2], [2, 1, 1]]], np.int8)
    with pytest.raises(ValueError, match="legal move"):
        search.search(full, np.array([2]), batch_net)
    with pytest.raises(ValueError, match="expected selection in"):
        BatchedSearch(ttt, selection="uct")
    with pytest.raises(ValueError, match="expected evaluator outputs"):
        search.search(
            np.zeros((1, 3, 3), np.int8), np.ones(1), lambda b, p, m: (np.ones((1, 4)), np.zeros(1))
        )


def test_visit_policy_and_sampling():
    visits = np.array([[1, 3, 0], [2, 2, 4]])
    np.testing.assert_allclose(visit_policy(visits, 1.0), [[0.25, 0.75, 0], [0.25, 0.25, 0.5]])
    np.testing.assert_allclose(visit_policy(visits, 0.5)[0], [0.1, 0.9, 0])
    assert visit_policy(visits, 0).tolist() == [[0, 1, 0], [0, 0, 1]]
    rng = np.random.default_rng(0)
    draws = np.stack([sample_actions(visits, 1.0, rng) for _ in range(4000)])
    assert 0.7 < (draws[:, 0] == 1).mean() < 0.8 and (draws[:, 0] != 2).all()
    with pytest.raises(ValueError, match="temperature"):
        visit_policy(visits, -1)


def kernel_positions(kernels, seed, count, max_moves):
    """``count`` positions after up to ``max_moves`` random moves each, before the game ends."""
    rng = np.random.default_rng(seed)
    boards, to_play, buf = [], [], np.zeros(kernels.action_size, np.int64)
    for _ in range(count):
        board, player = np.zeros(kernels.board_shape, np.int8), 1
        for moves in range(1, int(rng.integers(0, max_moves + 1)) + 1):
            trial = board.copy()
            action = rng.choice(buf[: kernels.legal_actions(trial, player, buf)])
            cell = kernels.apply_action(trial, int(action), player)
            if kernels.result_after(trial, cell, player, moves) != 0:
                break
            board, player = trial, 3 - player
        boards.append(board)
        to_play.append(player)
    return np.stack(boards), np.array(to_play)


def _games(ttt, c4):
    return {"ttt": ttt, "c4": c4, "ttt9": ttt._replace(action_size=81, board_shape=(9, 9))}


@pytest.mark.parametrize(("game", "radius"), [("ttt", 0), ("c4", 0), ("ttt9", 2)])
@pytest.mark.parametrize(
    ("seed", "tactics", "tree_tactics"), [(0, True, False), (7, False, False), (3, True, True)]
)
def test_numba_uct_equals_the_plain_python_uct(game, radius, seed, tactics, tree_tactics, ttt, c4):
    """UCB1 with random rollouts, three trees at once: tree ``b`` draws from ``seed + b``."""
    kernels = _games(ttt, c4)[game]
    boards, to_play = kernel_positions(kernels, seed, 3, 4)
    kwargs = dict(radius=radius, tactics=tactics, tree_tactics=tree_tactics)
    search = BatchedSearch(kernels, num_simulations=300, selection="ucb1", seed=seed, **kwargs)
    result = search.search(boards, to_play)
    for b in range(3):
        reference = PythonUCT(kernels, seed=seed + b, **kwargs)
        visits = reference.search(boards[b], int(to_play[b]), 300)
        assert result.visits[b].tolist() == visits.tolist()
    assert (result.visits.sum(axis=1) == 300).all()


@pytest.mark.parametrize("c2", [math.inf, 19652.0, 10.0])
@pytest.mark.parametrize("game", ["ttt", "c4"])
def test_numba_puct_equals_the_plain_python_puct(game, c2, ttt, c4):
    """PUCT over numba priors with a numba evaluator (the generic, FunctionType loop)."""
    kernels = _games(ttt, c4)[game]
    evaluate = placement_rollout if kernels.placement else uniform_rollout
    boards, to_play = kernel_positions(kernels, 5, 2, 3)
    search = BatchedSearch(
        kernels, num_simulations=200, selection="puct", pb_c_init=1.5, pb_c_base=c2,
        tactics=True, evaluate=evaluate, priors=index_priors, seed=11,
    )  # fmt: skip
    result = search.search(boards, to_play)
    for b in range(2):
        reference = PythonUCT(
            kernels, c_uct=1.5, c2=c2, selection="puct", evaluate=evaluate, priors=index_priors,
            seed=11 + b,
        )  # fmt: skip
        assert (
            result.visits[b].tolist() == reference.search(boards[b], int(to_play[b]), 200).tolist()
        )


def test_numba_search_one_tree_at_a_time_and_in_chunks(c4):
    boards, to_play = kernel_positions(c4, 2, 4, 6)
    together = BatchedSearch(c4, num_simulations=150, selection="ucb1", tactics=True, seed=4)
    result = together.search(boards, to_play, active=np.array([True, True, False, True]))
    assert result.visits[2].sum() == 0
    for b in (0, 1, 3):
        alone = BatchedSearch(c4, num_simulations=150, selection="ucb1", tactics=True, seed=4 + b)
        one = alone.search(boards[b : b + 1], to_play[b : b + 1])
        np.testing.assert_array_equal(one.visits[0], result.visits[b])
        np.testing.assert_allclose(one.q[0], result.q[b])
    timed = BatchedSearch(c4, num_simulations=1, selection="ucb1", seed=0)
    # Warm up on the timed path itself: compiling inside the clock would end it early.
    timed.search(boards, to_play, num_simulations=None, time_limit_s=0.05)
    timed_result = timed.search(boards, to_play, num_simulations=None, time_limit_s=0.2)
    assert (timed_result.visits.sum(axis=1) > 64).all()  # more than the first chunk


def test_numba_search_takes_the_win_and_blocks_with_one_simulation(ttt, c4):
    win = np.array([[1, 1, 0], [2, 2, 0], [0, 0, 0]], np.int8)  # X wins at 2, O would at 5
    block = np.array([[1, 1, 0], [0, 2, 0], [0, 0, 0]], np.int8)  # O must block at 2
    for seed in range(3):
        search = BatchedSearch(ttt, num_simulations=1, selection="ucb1", tactics=True, seed=seed)
        result = search.search(np.stack([win, block]), np.array([1, 2]))
        assert result.visits[0].argmax() == 2 and result.visits[1].argmax() == 2
        assert search.root_actions(0).tolist() == [2] and search.root_actions(1).tolist() == [2]
    c4_block = np.zeros((6, 7), np.int8)
    c4_block[5, :3] = 1  # X threatens column 3
    c4_block[5, 5:] = 2
    result = BatchedSearch(c4, num_simulations=1, selection="ucb1", tactics=True).search(
        c4_block[None], np.array([2])
    )
    assert result.visits[0].argmax() == 3


def near_stones(board: np.ndarray, radius: int) -> set[int]:
    """Empty cells within Chebyshev ``radius`` of a stone (every empty cell on an empty
    board), in plain Python."""
    h, w = board.shape
    stones = [(r, c) for r in range(h) for c in range(w) if board[r, c]]
    empty = {r * w + c for r in range(h) for c in range(w) if not board[r, c]}
    if not stones:
        return empty
    near = {
        r * w + c
        for r in range(h)
        for c in range(w)
        if any(max(abs(r - sr), abs(c - sc)) <= radius for sr, sc in stones)
    }
    return (empty & near) or empty


@pytest.mark.parametrize("radius", [1, 2])
def test_python_evaluator_gets_the_moves_near_stones(ttt, radius):
    """With ``radius`` every position the network is asked about (roots and new leaves)
    comes with exactly its empty cells near a stone as the legal moves, and the root's
    visits stay on them."""
    ttt9 = ttt._replace(action_size=81, board_shape=(9, 9))
    boards, to_play = kernel_positions(ttt9, 4, 3, 6)
    asked = []

    def recording(b, p, legal):
        for board, row in zip(b, legal):
            asked.append((board.copy(), row.copy()))
        return np.full(legal.shape, 1.0 / 81), np.zeros(len(b))

    result = BatchedSearch(ttt9, num_simulations=40, radius=radius).search(
        boards, to_play, recording
    )
    assert len(asked) > 3 * 20
    for board, row in asked:
        assert set(np.flatnonzero(row)) == near_stones(board, radius)
    for b in range(3):
        assert set(np.flatnonzero(result.visits[b])) <= near_stones(boards[b], radius)


def test_python_evaluator_refuses_numba_only_settings(ttt):
    search = BatchedSearch(ttt, num_simulations=5)
    with pytest.raises(ValueError, match="with a Python evaluator"):
        search.search(np.zeros((1, 3, 3), np.int8), np.ones(1), batch_net, time_limit_s=1.0)
    with pytest.raises(ValueError, match=r"expected radius 0, or radius >= 1 for a placement"):
        BatchedSearch(ttt._replace(placement=False), radius=2)


@pytest.mark.parametrize("seed", range(3))
def test_root_moves_are_the_plain_python_tactics_and_the_searched_root(ttt, seed):
    """``root_moves`` (what a MuZero root searches) keeps exactly the plain-Python reference's
    root moves, which are also the root's children after a search with a Python evaluator;
    inactive rows keep none."""
    boards, to_play = random_positions(6, 24, seed)
    search = BatchedSearch(ttt, num_simulations=3, tactics=True)
    active = np.arange(len(boards)) % 5 != 4
    kept = search.root_moves(boards, to_play, active)
    assert not kept[~active].any()
    narrowed = 0
    for b in np.flatnonzero(active):
        cells = boards[b].ravel().tolist()
        ref = tactical_moves(cells, int(to_play[b]), at_root=True)
        assert set(np.flatnonzero(kept[b])) == set(ref)
        narrowed += len(ref) < cells.count(0)
    assert narrowed >= 3  # the sample holds wins to take and threats to block
    search.search(boards, to_play, batch_net, active=active)
    for b in np.flatnonzero(active):
        assert set(search.root_actions(b).tolist()) == set(np.flatnonzero(kept[b]))


@pytest.mark.parametrize("radius", [1, 2])
def test_root_moves_with_a_radius_are_the_empty_cells_near_stones(ttt, radius):
    ttt9 = ttt._replace(action_size=81, board_shape=(9, 9))
    boards, to_play = kernel_positions(ttt9, 7, 6, 6)
    kept = BatchedSearch(ttt9, radius=radius).root_moves(boards, to_play)
    for b in range(len(boards)):
        assert set(np.flatnonzero(kept[b])) == near_stones(boards[b], radius)
    with pytest.raises(ValueError, match="expected every searched position to have a legal"):
        BatchedSearch(ttt).root_moves(np.ones((1, 3, 3), np.int8), np.ones(1))
