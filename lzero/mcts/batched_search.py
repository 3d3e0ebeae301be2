"""``BatchedSearch``: one search over ``B`` board positions at once, with a batched Python
evaluator or a numba leaf evaluator.

With a Python evaluator (a network), each simulation step descends all ``B`` trees in one
numba call (``board_select``), hands the ``B`` new leaves to the evaluator in one call, and
expands and backs them up in one numba call (``expand_and_backup``): with ``selection='puct'``
this is AlphaZero's search (Silver et al. 2018). Without one, whole searches run in numba
(``lzero.mcts.batched_loop``) with a numba evaluator, random rollouts by default: with
``selection='ucb1'`` this is UCT (Kocsis and Szepesvari 2006), the rollout bots' search.

Example::

    search = BatchedSearch(kernels, num_simulations=100, seed=0)
    result = search.search(boards, to_play, evaluator, add_noise=True)   # boards [B, H, W]
    actions = sample_actions(result.visits, temperature=1.0, rng=np.random.default_rng(0))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from lzero.mcts import batched_tree as bt
from lzero.mcts.batched_board import (
    board_select,
    copy_subtrees,
    find_subtrees,
    gather_leaves,
    root_moves,
)
from lzero.mcts.batched_loop import prepare_roots, run_simulations
from lzero.mcts.batched_result import (
    BatchedResult,
    completed_q_policy,
    gumbel_action,
    prune_forced_playouts,
    sample_actions,
    visit_policy,
)
from lzero.mcts.game import (
    APPLY_ACTION_T,
    LEGAL_ACTIONS_T,
    PRIORS_T,
    RESULT_AFTER_T,
    uniform_priors,
)
from lzero.mcts.gumbel import NO_GUMBEL, check_gumbel_settings, gumbel_args
from lzero.mcts.jit import NativeFunction
from lzero.mcts.rollout import EVALUATE_T, check_near_width, placement_rollout, uniform_rollout
from lzero.utils.nbrng import make_rng_state

__all__ = [
    "BatchEvaluator",
    "BatchedResult",
    "BatchedSearch",
    "SAME_AS_BELOW",
    "check_forced_playouts",
    "check_fpu_reduction",
    "completed_q_policy",
    "gumbel_action",
    "prune_forced_playouts",
    "sample_actions",
    "visit_policy",
]

#: How many of the last searches made with ``reuse_tree`` keep their trees for the next one:
#: two, so that a player whose moves alternate with another's in one search's batches (an
#: evaluation playing both colours against a bot) finds its last move's tree.
_REUSE_SEARCHES = 2

#: ``BatchedSearch.search``'s default ``root_fpu_reduction``: the root's reduction is the
#: ``fpu_reduction`` of the nodes below it.
SAME_AS_BELOW = "same_as_below"

#: ``(boards [B, H, W] int8, to_play [B] int64, legal [B, A] bool) -> (priors [B, A],
#: values [B])``: move priors and the value for the player to move, in ``[-1, 1]``. For a
#: search with ``contempt``, ``(priors, values, draws [B])``: also each game's probability of
#: ending drawn.
BatchEvaluator = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, ...]]

SELECTIONS = {"puct": bt.PUCT, "ucb1": bt.UCB1, "gumbel": bt.GUMBEL}
#: Simulations per numba call under a time limit at first (doubled up to ``_MAX_CHUNK``).
_FIRST_CHUNK, _MAX_CHUNK = 64, 4096


class BatchedSearch:
    """Monte Carlo tree search on ``B`` positions of one board game at once.

    Args:
        kernels: the game (a ``lzero.mcts.game.GameKernels``).
        num_simulations: simulations per search (with a Python evaluator, the root's own
            evaluation not included).
        selection: ``'puct'`` (AlphaZero), ``'ucb1'`` (UCT) or ``'gumbel'`` (Gumbel
            AlphaZero: Sequential Halving with Gumbel at the root, the improved policy below
            it; ``lzero.mcts.gumbel``; with a Python evaluator only). A Gumbel search's
            ``add_noise`` draws the Gumbel noise (no Dirichlet noise), and its result's
            ``action`` is the halving winner.
        pb_c_base, pb_c_init: PUCT's constants ``c2`` and ``c1`` (AlphaZero's 19652 and 1.25;
            ``pb_c_base=inf`` for the constant ``c1`` of AlphaGo Zero).
        c_uct: UCB1's exploration constant.
        root_dirichlet_alpha, root_noise_weight: Dirichlet noise mixed into the root priors
            when ``search(add_noise=True)``: ``(1 - w) * P + w * Dir(alpha)`` over root moves.
        radius, tactics, tree_tactics: near-stone candidate radius of placement games at most
            ``lzero.mcts.rollout.MAX_NEAR_WIDTH`` (64) columns wide (0: all legal moves); take
            a winning root move and avoid root moves that let the opponent win next; below the
            root, expand to decisive or anti-decisive moves (``lzero.mcts.tactics``). Both
            kinds of search; a Python evaluator is handed the narrowed moves as the legal ones.
        threat_depth, threat_budget: with a Python evaluator, in placement games of a known
            ``kernels.win_length``: search the root for forced wins by continuous threats of
            at most ``threat_depth`` moves (0: off), for the mover (its first move is then
            the only root move) and for the opponent after each root move (moves that leave
            one are dropped unless all do); each such search tries at most
            ``threat_budget`` moves (``lzero.mcts.tactics.root_threats``).
        three_depth, three_budget: with ``threat_depth``, also search for wins by continuous
            threats with threes (``lzero.mcts.tactics.threat_space_win``) of at most
            ``three_depth`` moves (0: off), each search trying at most ``three_budget``
            moves: the mover's (its first move is then the only root move), and the
            opponent's after each root move that leaves it no win by fours (such moves are
            dropped unless all are).
        max_num_considered_actions, gumbel_scale, maxvisit_init, value_scale: Gumbel's root
            moves sampled (at most), the scale of its noise, and ``sigma``'s visit offset and
            scale (mctx's 16, 1, 50 and 0.1; ``lzero.mcts.gumbel``).
        evaluate, priors: for searches with a numba evaluator (``search`` without
            ``evaluator``): the leaf evaluator (``lzero.mcts.rollout.EVALUATE_T``; default the
            game's, else random rollouts); the move priors (``lzero.mcts.game.PRIORS_T``;
            default the game's, else uniform).
        seed: seed of the noise; tree ``b``'s rollouts and slot order draw from ``seed + b``.

    Raises:
        ValueError: a setting out of range.
    """

    def __init__(
        self,
        kernels: Any,
        *,
        num_simulations: int = 50,
        selection: str = "puct",
        pb_c_base: float = 19652.0,
        pb_c_init: float = 1.25,
        c_uct: float = 1.4,
        root_dirichlet_alpha: float = 0.3,
        root_noise_weight: float = 0.25,
        radius: int = 0,
        tactics: bool = False,
        tree_tactics: bool = False,
        threat_depth: int = 0,
        threat_budget: int = 64,
        three_depth: int = 0,
        three_budget: int = 256,
        max_num_considered_actions: int = 16,
        gumbel_scale: float = 1.0,
        maxvisit_init: float = 50.0,
        value_scale: float = 0.1,
        evaluate: Any = None,
        priors: Any = None,
        seed: int = 0,
    ) -> None:
        if isinstance(num_simulations, bool) or int(num_simulations) < 1:
            raise ValueError(f"expected num_simulations >= 1, got {num_simulations!r}")
        if selection not in SELECTIONS:
            raise ValueError(f"expected selection in {sorted(SELECTIONS)}, got {selection!r}")
        for name, value in (
            ("pb_c_base", pb_c_base),
            ("root_dirichlet_alpha", root_dirichlet_alpha),
        ):
            if not value > 0:
                raise ValueError(f"expected {name} > 0, got {value!r}")
        for name, value in (("pb_c_init", pb_c_init), ("c_uct", c_uct)):
            if not value >= 0:
                raise ValueError(f"expected {name} >= 0, got {value!r}")
        check_gumbel_settings(
            max_num_considered_actions=max_num_considered_actions, gumbel_scale=gumbel_scale,
            maxvisit_init=maxvisit_init, value_scale=value_scale,
        )  # fmt: skip
        if not 0 <= root_noise_weight <= 1:
            raise ValueError(f"expected root_noise_weight in [0, 1], got {root_noise_weight!r}")
        if int(radius) < 0 or (radius and not kernels.placement):
            raise ValueError(
                f"expected radius 0, or radius >= 1 for a placement game, got {radius}"
                f" (placement={kernels.placement})"
            )
        check_near_width(radius, kernels.board_shape[1])
        if (tactics or tree_tactics) and not kernels.one_stone:
            raise ValueError(
                "expected tactics and tree_tactics False for a game whose moves change more "
                f"than the cell played (one_stone=False, as Othello), got tactics={tactics!r}, "
                f"tree_tactics={tree_tactics!r}"
            )
        if int(threat_depth) < 0 or (
            threat_depth and not (kernels.placement and kernels.win_length > 0)
        ):
            raise ValueError(
                f"expected threat_depth 0, or threat_depth >= 1 for a placement game with a "
                f"known win_length, got {threat_depth} (placement={kernels.placement}, "
                f"win_length={kernels.win_length})"
            )
        if int(three_depth) < 0 or (three_depth and not threat_depth):
            raise ValueError(
                f"expected three_depth 0, or three_depth >= 1 with threat_depth >= 1, got "
                f"three_depth={three_depth} with threat_depth={threat_depth}"
            )
        if int(threat_budget) < 1 or int(three_budget) < 1:
            raise ValueError(
                f"expected threat_budget >= 1 and three_budget >= 1, got {threat_budget!r} "
                f"and {three_budget!r}"
            )
        self.kernels = kernels
        self.num_simulations = int(num_simulations)
        self.rule = SELECTIONS[selection]
        self.max_considered = int(max_num_considered_actions)
        self.gumbel_scale = float(gumbel_scale)
        self.maxvisit_init, self.value_scale = float(maxvisit_init), float(value_scale)
        if self.rule != bt.UCB1:
            self.c1, self.c2 = float(pb_c_init), float(pb_c_base)
        else:
            self.c1, self.c2 = float(c_uct), 1.0
        self.alpha, self.noise_weight = float(root_dirichlet_alpha), float(root_noise_weight)
        self.radius, self.tactics, self.tree_tactics = (
            int(radius),
            bool(tactics),
            bool(tree_tactics),
        )
        self.threat_depth = int(threat_depth)
        # k of a placement k-in-a-row game, for the tree's decisive-move filter (0: none)
        self._tree_win_length = kernels.win_length if kernels.placement else 0
        self.three_depth = int(three_depth)
        self._threat_budget = np.array([0, int(threat_budget), int(three_budget)], np.int64)
        self.seed = int(seed)
        self.rng = np.random.default_rng(seed)
        evaluate = kernels.evaluate if evaluate is None else evaluate
        priors = kernels.priors if priors is None else priors
        own = evaluate is kernels.evaluate and priors is kernels.priors
        self._bound = kernels.simulations if own else None
        if evaluate is None:
            evaluate = placement_rollout if kernels.placement else uniform_rollout
        self.evaluate, self.priors = evaluate, priors
        self._native_evaluate: NativeFunction | None = None  # bound on first use (compiles it)
        self._native_priors = NativeFunction(priors or uniform_priors, PRIORS_T)
        self.native_kernels = (
            NativeFunction(kernels.legal_actions, LEGAL_ACTIONS_T),
            NativeFunction(kernels.apply_action, APPLY_ACTION_T),
            NativeFunction(kernels.result_after, RESULT_AFTER_T),
        )
        self.tree: bt.BatchedTree | None = None
        self._raw: tuple[np.ndarray, np.ndarray] = (np.empty((0, 0)), np.empty(0))
        self._boards: np.ndarray | None = None
        self._moves: np.ndarray | None = None
        # reuse_tree: the (tree, boards, moves, tree count, contempt) of the last searches
        # made with it, newest first (the newest's arrays are the ones above), and a set of
        # arrays none of them uses, for the next such search to fill
        self._searched: list[tuple] = []
        self._free: tuple = (None, None, None)
        self._queue = np.zeros(1, np.int64)
        self._rngs: np.ndarray | None = None
        self._work = np.zeros(kernels.board_shape, np.int8)
        self._scratch = np.zeros((4, kernels.action_size), np.int64)

    def rngs(self, batch: int) -> np.ndarray:
        """`[B, 1]` uint64 generator states of the numba search's trees (row ``b`` seeded with
        ``seed + b``); they carry on from search to search while ``B`` stays the same."""
        if self._rngs is None or self._rngs.shape[0] != batch:
            self._rngs = np.stack([make_rng_state(self.seed + b) for b in range(batch)])
        return self._rngs

    def rng_state(self) -> dict:
        """The search's random streams (root noise and the trees' numba generators), for a
        training run's checkpoint. The subtrees ``reuse_tree`` keeps are not among them: the
        first such search after :meth:`set_rng_state` starts afresh."""
        rngs = None if self._rngs is None else self._rngs.copy()
        return {"noise": self.rng.bit_generator.state, "trees": rngs}

    def set_rng_state(self, state: dict) -> None:
        """Puts back the streams :meth:`rng_state` returned."""
        self.rng.bit_generator.state = state["noise"]
        self._rngs = None if state["trees"] is None else np.array(state["trees"], np.uint64)
        self._searched, self._free = [], (None, None, None)

    def root_actions(self, b: int) -> np.ndarray:
        """`[C]` the root moves of tree ``b`` of the last search (after the root tactics)."""
        n = max(int(self.tree.node_num_children[b, bt.ROOT_INDEX]), 0)
        return self.tree.children_action[b, bt.ROOT_INDEX, :n].astype(np.int64)

    def _allocate(self, batch: int, capacity: int) -> None:
        tree = self.tree
        if tree is None or tree.num_nodes.shape[0] != batch:
            h, w = self.kernels.board_shape
            self.tree = bt.make_batched_tree(batch, capacity, self.kernels.action_size)
            self._boards = np.zeros((batch, capacity, h, w), np.int8)
            self._moves = np.zeros((batch, capacity), np.int64)
        elif tree.node_visits.shape[1] < capacity:
            old = tree.node_visits.shape[1]
            self.tree = bt.grow_batched_tree(tree, capacity)
            boards = np.zeros((batch, capacity) + self._boards.shape[2:], np.int8)
            moves = np.zeros((batch, capacity), np.int64)
            boards[:, :old], moves[:, :old] = self._boards, self._moves
            self._boards, self._moves = boards, moves

    def search(
        self,
        boards: np.ndarray,
        to_play: np.ndarray,
        evaluator: BatchEvaluator | None = None,
        *,
        add_noise: bool = False,
        num_simulations: int | None = None,
        time_limit_s: float | None = None,
        active: np.ndarray | None = None,
        contempt: float = 0.0,
        fpu_reduction: float | None = None,
        root_fpu_reduction: float | None | str = SAME_AS_BELOW,
        reuse_tree: bool = False,
        forced_playouts: float = 0.0,
    ) -> BatchedResult:
        """Searches from ``B`` positions.

        Args:
            boards: `[B, H, W]` int8 positions of unfinished games.
            to_play: `[B]` player to move in each, 1 or 2.
            evaluator: the batched leaf evaluator (called once per simulation step, with the
                unfinished leaves of the active trees only); None to search in numba with the
                instance's numba evaluator.
            add_noise: mix Dirichlet noise into the root priors (self-play exploration).
            num_simulations: overrides the instance's (None with ``time_limit_s``: no bound).
            time_limit_s: without ``evaluator``, stop after this many seconds (checked between
                chunks of simulations; not reproducible).
            active: `[B]` bool, the positions to search (default all); inactive rows of the
                result are zeros.
            contempt: with a Python evaluator that also returns draw probabilities
                ``d``, in ``[0, 1]``: the search values a draw at ``-contempt`` for the player
                to move at the root and ``+contempt`` for its opponent (Lc0's contempt: a
                player that expects to be stronger avoids draws), a network leaf at ``v -
                contempt * d`` for the root's player (``v + contempt * d`` for the other),
                and a finished drawn game likewise. The result's values include it. 0: the
                plain zero-sum search.
            fpu_reduction: with a Python evaluator and PUCT, the value of a move not yet
                searched (first-play urgency): None for AlphaZero's 0 (a draw), else its
                node's mean value for the mover less ``fpu_reduction * sqrt(P)``, ``P`` the
                prior mass of the node's moves already searched (Leela Chess Zero's and
                KataGo's reduction). A position that looks won then spends its simulations
                on its best lines, and one that looks lost no longer on every untried move.
            root_fpu_reduction: the same at the root: ``SAME_AS_BELOW`` (default) for
                ``fpu_reduction``'s value, None for AlphaZero's 0, or a number (KataGo's
                self-play takes 0 there: the node's value unreduced, so that moves the
                Dirichlet noise favours are still tried).
            reuse_tree: with a Python evaluator, start each tree from earlier statistics
                where they hold (AlphaGo Zero's reuse of the subtree): the trees of the last
                two searches made with ``reuse_tree`` (and no search without it since) are
                kept, and when one of them, of a search with the same ``contempt``, has a
                node one or two moves below its root (two only with ``contempt``: the same
                player's view) with this position, its mover and exactly the root moves this
                search expands, that node's subtree becomes the root's and
                ``num_simulations`` more simulations are added to it (the newest search's
                trees are looked at first, and in each the tree of the same index first).
                The result's visits and value then count the kept simulations too, and its
                ``raw_value`` is NaN for such a tree (the root is not evaluated again). Other
                trees start afresh. False: every tree starts afresh (and nothing is kept).
            forced_playouts: with a Python evaluator and PUCT, KataGo's forced playouts (Wu
                2019) with this ``k`` (KataGo's 2): a root move searched fewer than
                ``sqrt(k * P * T)`` times (``P`` its prior, noise included; ``T`` the
                simulations so far) is taken before the selection rule is asked, the highest
                prior first. Self-play only: the visits then overweight weak moves, which
                ``prune_forced_playouts`` takes back out of the policy target. 0: off.

        Returns:
            The root statistics.

        Raises:
            ValueError: bad shapes or values, an active position without a legal move,
                numba-search settings with a Python evaluator, ``threat_depth``,
                ``contempt``, ``fpu_reduction`` or ``forced_playouts`` without one,
                ``contempt`` out of range, a reduction with UCB1 or not None or a finite
                number >= 0, or ``forced_playouts`` with UCB1 or not a finite number >= 0.
        """
        boards, to_play, active = self._check(boards, to_play, active)
        forced = check_forced_playouts(forced_playouts, "forced_playouts")
        if forced > 0 and (evaluator is None or self.rule != bt.PUCT):
            raise ValueError(
                "expected forced_playouts 0 for a search without a Python evaluator or with "
                f"UCB1 or Gumbel selection (they apply to PUCT over a Python evaluator), got "
                f"{forced_playouts!r}"
            )
        fpu = check_fpu_reduction(fpu_reduction, "fpu_reduction")
        root_fpu = fpu
        if not (isinstance(root_fpu_reduction, str) and root_fpu_reduction == SAME_AS_BELOW):
            root_fpu = check_fpu_reduction(root_fpu_reduction, "root_fpu_reduction")
        if max(fpu, root_fpu) >= 0.0 and (evaluator is None or self.rule != bt.PUCT):
            raise ValueError(
                "expected fpu_reduction and root_fpu_reduction None for a search without a "
                "Python evaluator or with UCB1 or Gumbel selection (they apply to PUCT over a "
                "Python evaluator), "
                f"got {fpu_reduction!r} and {root_fpu_reduction!r}"
            )
        contempt = float(contempt)
        if not 0.0 <= contempt <= 1.0 or (contempt and evaluator is None):
            raise ValueError(
                "expected contempt in [0, 1], and 0 for a search without a Python evaluator "
                f"(it reads the evaluator's draw probabilities), got {contempt!r} with "
                f"evaluator={evaluator!r}"
            )
        sims = num_simulations
        if sims is None and time_limit_s is None:
            sims = self.num_simulations
        gumbel = self.rule == bt.GUMBEL
        if gumbel and (evaluator is None or reuse_tree):
            raise ValueError(
                "expected a Python evaluator and reuse_tree False for a Gumbel search (its "
                "halving schedule counts the root's visits from a fresh root, and it reads "
                f"the evaluator's values), got evaluator={evaluator!r}, reuse_tree={reuse_tree!r}"
            )
        noise = None
        if gumbel:
            noise = np.zeros((boards.shape[0], self.kernels.action_size))
            if add_noise and self.gumbel_scale > 0:
                noise = self.gumbel_scale * self.rng.gumbel(size=noise.shape)
            select_gumbel = gumbel_args(
                noise, self.max_considered, sims, maxvisit_init=self.maxvisit_init,
                value_scale=self.value_scale,
            )  # fmt: skip
        if evaluator is None:
            if self.threat_depth:
                raise ValueError(
                    "expected threat_depth 0 for a search without a Python evaluator (the "
                    f"root's forced-win search runs in the evaluator's search only), got "
                    f"threat_depth={self.threat_depth}"
                )
            if reuse_tree:
                raise ValueError(
                    "expected reuse_tree False for a search without a Python evaluator"
                )
            self._searched, self._free = [], (None, None, None)
            self._search_numba(boards, to_play, active, add_noise, sims, time_limit_s)
        else:
            if time_limit_s is not None:
                raise ValueError(
                    "expected no time_limit_s with a Python evaluator (it applies to numba "
                    f"evaluators), got time_limit_s={time_limit_s}"
                )
            self._search_python(
                boards, to_play, active, add_noise and not gumbel, sims, evaluator, contempt,
                (fpu, root_fpu, forced, select_gumbel if gumbel else NO_GUMBEL), reuse_tree,
            )  # fmt: skip
        batch, a = boards.shape[0], self.kernels.action_size
        visits, q, value = np.empty((batch, a), np.int32), np.empty((batch, a)), np.empty(batch)
        priors = np.empty((batch, a), np.float32)  # the root slots' priors stay as set up
        bt.root_statistics(self.tree, visits, q, value, priors)
        raw_priors, raw_value = self._raw
        if np.count_nonzero(active) < batch:
            visits[~active], q[~active], value[~active], priors[~active] = 0, 0.0, 0.0, 0.0
            raw_priors[~active], raw_value[~active] = 0.0, 0.0
        result = BatchedResult(visits, q, value, priors, raw_priors, raw_value)
        if gumbel:
            action = gumbel_action(
                result, noise, c_visit=self.maxvisit_init, c_scale=self.value_scale
            )
        else:
            action = visits.argmax(axis=1).astype(np.int64)
        return result._replace(action=action)

    def _root_snapshot(self, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """The roots' priors `[B, A]` and values `[B]` as they stand (before the noise)."""
        a = self.kernels.action_size
        visits, q, value = np.empty((batch, a), np.int32), np.empty((batch, a)), np.empty(batch)
        priors = np.empty((batch, a), np.float32)
        bt.root_statistics(self.tree, visits, q, value, priors)
        return priors, value

    def _search_python(
        self, boards, to_play, active, add_noise, sims, evaluator, contempt, select_args, reuse
    ):  # fmt: skip
        batch = boards.shape[0]
        stones = np.count_nonzero(boards.reshape(batch, -1), axis=1)
        legal = self._root_moves(boards[:, None], to_play, active, stones.copy())
        found = self._find_subtrees(boards, to_play, stones, legal, active, contempt, reuse)
        kept = np.zeros(batch, np.bool_)
        if reuse:  # the searched trees stay as they are: this one fills another set
            need = max(
                (s[0].node_visits[t[t >= 0], n[t >= 0]].max(initial=0) for s, t, n in found),
                default=0,
            )
            self.tree, self._boards, self._moves = self._free
            self._free = (None, None, None)
            self._allocate(batch, int(need) + sims + 1)
        else:
            self._searched, self._free = [], (None, None, None)
            self._allocate(batch, sims + 1)
        tree, store, moves = self.tree, self._boards, self._moves
        bt.reset_roots(tree, to_play)
        store[:, 0] = boards
        moves[:, 0] = stones
        for (old_tree, old_boards, old_moves, _, _), src_tree, src_node in found:
            copy_subtrees(
                old_tree, old_boards, old_moves, src_tree, src_node, tree, store, moves,
                self._queue,
            )  # fmt: skip
            kept |= src_tree >= 0
        leaves = np.zeros(batch, np.int64)
        first = active & ~kept  # the roots to evaluate
        self._evaluate(evaluator, leaves, first, contempt, *self._gather(leaves, legal, first))
        self._raw = self._root_snapshot(batch)  # one visit each: the evaluator's value
        self._raw[1][kept] = np.nan  # not evaluated again
        if reuse:
            self._searched.insert(0, (tree, store, moves, batch, contempt))
            if len(self._searched) > _REUSE_SEARCHES:
                self._free = self._searched.pop()[:3]
        if add_noise and self.noise_weight > 0:
            self._add_noise(active)
        ask, rows, step_boards, step_to_play, step_legal = self._leaf_arrays(batch, sims)
        for i in range(sims):
            ask_boards, ask_to_play, ask_legal = step_boards[i], step_to_play[i], step_legal[i]
            m = board_select(
                tree, store, moves, self.rule, self.c1, self.c2, *select_args, active, leaves, ask,
                rows, ask_boards, ask_to_play, ask_legal, self._scratch, self.radius,
                self.tree_tactics, self._tree_win_length, *self.native_kernels,
            )  # fmt: skip
            self._evaluate(
                evaluator, leaves, active, contempt, m, ask, rows, ask_boards, ask_to_play,
                ask_legal,
            )  # fmt: skip

    def _find_subtrees(self, boards, to_play, stones, legal, active, contempt, reuse):
        """``find_subtrees`` over the kept searches' trees, newest first: a list of
        ``(searched, src_tree, src_node)``, ``src_*`` `[B]` the tree and node of each position
        found in that search (-1 elsewhere); a position is taken from the first that has it.
        Empty unless ``reuse``."""
        batch, out = boards.shape[0], []
        looking = active.copy()
        for searched in self._searched if reuse else ():
            old_tree, old_boards, old_moves, count, kept_contempt = searched
            if kept_contempt != contempt or not looking.any():
                continue
            if self._queue.shape[0] < old_tree.node_visits.shape[1]:
                self._queue = np.zeros(old_tree.node_visits.shape[1], np.int64)
            src_tree, src_node = np.empty(batch, np.int64), np.empty(batch, np.int64)
            find_subtrees(
                old_tree, old_boards, old_moves, count, boards, to_play.astype(np.int64), stones,
                legal, looking, 2 if contempt else 1, 2, src_tree, src_node, self._queue,
            )  # fmt: skip
            looking &= src_tree < 0
            out.append((searched, src_tree, src_node))
        return out

    def root_moves(
        self, boards: np.ndarray, to_play: np.ndarray, active: np.ndarray | None = None
    ) -> np.ndarray:
        """`[B, A]` bool, the moves a search with a Python evaluator would expand at each root:
        the legal moves narrowed by ``radius``, ``tactics``, ``threat_depth`` and
        ``three_depth``, without searching (a MuZero search takes them as its root's legal
        moves). Inactive rows are all False.

        Raises:
            ValueError: as :meth:`search` does, for bad shapes or values or an active position
                without a legal move.
        """
        boards, to_play, active = self._check(boards, to_play, active)
        moves = np.count_nonzero(boards.reshape(boards.shape[0], -1), axis=1)
        legal = self._root_moves(boards[:, None], to_play, active, moves)
        legal[~active] = False
        return legal

    def _root_moves(self, roots, to_play, active, num_moves) -> np.ndarray:
        """The root moves of ``roots`` `[B, >= 1, H, W]` (each root at ``[b, 0]``), whose
        stones ``num_moves`` `[B]` int64 counts (a copy the kernels may use as scratch)."""
        legal = root_legal(
            roots[:, 0], to_play, self.kernels.legal_actions, self.kernels.action_size
        )
        _check_moves(active & legal.any(axis=1), active)
        if self.radius or self.tactics or self.threat_depth:
            root_moves(
                roots, to_play.astype(np.int64), num_moves, active, legal, self._scratch,
                self.radius, self.tactics, self.threat_depth, self.three_depth,
                self.kernels.win_length, self._threat_budget, *self.native_kernels,
            )  # fmt: skip
        return legal

    def _search_numba(self, boards, to_play, active, add_noise, sims, limit) -> None:
        batch = boards.shape[0]
        start = time.perf_counter()
        self._allocate(batch, (sims or 4 * _MAX_CHUNK) + 1)
        rngs = self.rngs(batch)
        prepare_roots(
            self.tree, self._boards, self._moves, boards, to_play.astype(np.int64), self.radius,
            self.tactics, active, rngs, self._scratch, *self.native_kernels, self._native_priors,
        )  # fmt: skip
        _check_moves(self.tree.node_num_children[:, bt.ROOT_INDEX] > 0, active)
        self._raw = (self._root_snapshot(batch)[0], np.full(batch, np.nan))  # root not evaluated
        if add_noise and self.noise_weight > 0:
            self._add_noise(active)
        if limit is None:  # one call: the tree has room for every simulation
            self._simulate(sims, active, rngs)
            return
        done, chunk = 0, _FIRST_CHUNK
        while sims is None or done < sims:
            want = chunk if sims is None else min(sims - done, chunk)
            self._allocate(batch, int(self.tree.num_nodes.max()) + want + 1)
            done += self._simulate(want, active, rngs)
            if time.perf_counter() - start >= limit:
                break
            chunk = min(chunk * 2, _MAX_CHUNK)

    def _simulate(self, n: int, active: np.ndarray, rngs: np.ndarray) -> int:
        args = (
            self.tree, self._boards, self._moves, n, self.rule, self.c1, self.c2, False,
            self.radius, self.tree_tactics, active, rngs, self._work, self._scratch,
        )  # fmt: skip
        if self._bound is not None:
            return self._bound(*args)
        if self._native_evaluate is None:
            self._native_evaluate = NativeFunction(self.evaluate, EVALUATE_T)
        return run_simulations(
            *args, self._native_evaluate, *self.native_kernels, self.kernels.placement,
            self._native_priors,
        )  # fmt: skip

    def _leaf_arrays(self, batch: int, steps: int) -> tuple[np.ndarray, ...]:
        """`[B]` ``ask`` and ``rows`` for the leaves of a simulation step, and for each of
        ``steps`` steps its own `[steps, B, H, W]` boards, `[steps, B]` movers and `[steps, B,
        A]` legal moves (its own: an evaluator may keep its inputs), allocated once a
        search."""
        return (
            np.empty(batch, np.int64), np.empty(batch, np.int64),
            np.empty((steps, batch, *self._boards.shape[2:]), np.int8),
            np.empty((steps, batch), np.int64),
            np.empty((steps, batch, self.kernels.action_size), np.bool_),
        )  # fmt: skip

    def _gather(self, leaves, legal, active) -> tuple:
        """``gather_leaves`` of the leaves whose moves ``legal`` `[B, A]` gives: ``(m, ask,
        rows, boards, to_play, legal)`` as :meth:`_evaluate` takes them."""
        ask, rows, boards, to_play, ask_legal = self._leaf_arrays(leaves.shape[0], 1)
        boards, to_play, ask_legal = boards[0], to_play[0], ask_legal[0]
        m = gather_leaves(
            self.tree.node_terminal, self.tree.node_to_play, self._boards, legal, leaves, active,
            ask, rows, boards, to_play, ask_legal,
        )  # fmt: skip
        return m, ask, rows, boards, to_play, ask_legal

    def _evaluate(
        self, evaluator, leaves, active, contempt, m, ask, rows, boards, to_play, legal
    ) -> None:
        """Evaluates the ``m`` gathered leaves (``ask``, ``boards``, ``to_play`` and ``legal``
        in their first ``m`` rows; ``rows`` `[B]` each tree's row) and expands and backs up
        every active tree's leaf."""
        tree, batch, a = self.tree, leaves.shape[0], legal.shape[1]
        if m:
            out = evaluator(boards[:m], to_play[:m], legal[:m])
            if contempt and len(out) != 3:
                raise ValueError(
                    "expected an evaluator returning (priors, values, draws) for a search "
                    f"with contempt={contempt}, got {len(out)} outputs"
                )
            p = np.ascontiguousarray(out[0], np.float32)
            v = np.ascontiguousarray(out[1], np.float64)
            if p.shape != (m, a) or v.shape != (m,):
                raise ValueError(
                    f"expected evaluator outputs of shapes ({m}, {a}) and ({m},), got {p.shape} "
                    f"and {v.shape}"
                )
            if contempt:
                d = np.asarray(out[2], np.float64)
                if d.shape != (m,):
                    raise ValueError(f"expected draw probabilities of shape ({m},), got {d.shape}")
                root_player = to_play[:m] == tree.node_to_play[ask[:m], bt.ROOT_INDEX]
                v = v - contempt * d * np.where(root_player, 1.0, -1.0)
        else:
            p, v = np.empty((0, a), np.float32), np.empty(0)
        if contempt:  # a drawn game's edge, first reached: -contempt for the root's player
            drawn = np.flatnonzero(active & tree.node_terminal[np.arange(batch), leaves])
            drawn = drawn[tree.node_visits[drawn, leaves[drawn]] == 0]
            drawn = drawn[tree.node_reward[drawn, leaves[drawn]] == 0]
            if drawn.size:
                node = leaves[drawn]
                mover = tree.node_to_play[drawn, tree.node_parent[drawn, node]]
                root_player = mover == tree.node_to_play[drawn, bt.ROOT_INDEX]
                tree.node_reward[drawn, node] = np.where(root_player, -contempt, contempt)
        bt.expand_and_backup(tree, leaves, rows, p, legal, v, active)

    def _add_noise(self, active: np.ndarray) -> None:
        roots = np.flatnonzero(active)
        slots = self.tree.node_num_children[roots, bt.ROOT_INDEX]
        if self.alpha >= 0.1:  # the gammas Generator.dirichlet draws, for all roots in one call
            draws = self.rng.standard_gamma(self.alpha, int(slots.sum()))
        else:  # dirichlet draws stick-breaking betas: its draws, which normalising only rounds
            draws = np.concatenate(
                [np.empty(0)] + [self.rng.dirichlet([self.alpha] * n) for n in slots]
            )
        bt.mix_root_noise(self.tree, roots, draws, self.noise_weight)

    def _check(self, boards, to_play, active):
        h, w = self.kernels.board_shape
        boards = np.asarray(boards)
        if boards.ndim != 3 or boards.shape[1:] != (h, w) or boards.shape[0] < 1:
            raise ValueError(
                f"expected boards of shape [B, {h}, {w}] with B >= 1, got {boards.shape}"
            )
        # count_nonzero, not min/max/all: ufunc reductions cost microseconds each, a share of
        # a small search
        if np.count_nonzero((boards < 0) | (boards > 2)):
            raise ValueError(f"expected board values in {{0, 1, 2}}, got {np.unique(boards)}")
        to_play = np.asarray(to_play)
        if to_play.shape != (boards.shape[0],) or np.count_nonzero(
            (to_play == 1) | (to_play == 2)
        ) != len(to_play):
            raise ValueError(
                f"expected to_play of shape ({boards.shape[0]},) with values 1 or 2, got {to_play!r}"
            )
        if active is None:
            active = np.ones(boards.shape[0], np.bool_)
        active = np.ascontiguousarray(active, dtype=np.bool_)
        if active.shape != (boards.shape[0],):
            raise ValueError(f"expected active of shape ({boards.shape[0]},), got {active.shape}")
        return np.ascontiguousarray(boards, np.int8), to_play.astype(np.int8), active


def check_fpu_reduction(value: Any, name: str) -> float:
    """``value`` as the search's ``fpu_reduction`` argument of the numba step: -1.0 for None
    (off), else the float. Raises ValueError, naming ``name``, unless it is None or a finite
    number >= 0."""
    if value is None:
        return -1.0
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise ValueError(f"expected {name} None or a number >= 0, got {value!r}")
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"expected {name} None or a finite number >= 0, got {value!r}")
    return float(value)


def check_forced_playouts(value: Any, name: str) -> float:
    """``value`` as the search's ``forced_playouts`` ``k``. Raises ValueError, naming
    ``name``, unless it is a finite number >= 0 (0: off)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        raise ValueError(f"expected {name} a number >= 0 (0: off), got {value!r}")
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"expected {name} a finite number >= 0 (0: off), got {value!r}")
    return float(value)


def root_legal(
    boards: np.ndarray, to_play: np.ndarray, legal_actions: Any, action_size: int
) -> np.ndarray:
    """`[B, A]` bool legal moves of ``boards`` `[B, H, W]` for the players ``to_play`` `[B]`
    (1 or 2), by the game's ``legal_actions``."""
    out = np.zeros((boards.shape[0], action_size), np.bool_)
    scratch = np.zeros(action_size, np.int64)
    for b in range(boards.shape[0]):
        out[b, scratch[: legal_actions(boards[b], int(to_play[b]), scratch)]] = True
    return out


def _check_moves(has_moves: np.ndarray, active: np.ndarray) -> None:
    if np.count_nonzero(active & ~has_moves):
        raise ValueError("expected every searched position to have a legal move, got a full board")
