"""``BatchedSearch``: one search over ``B`` board positions at once, with a batched evaluator.

Each simulation step descends all ``B`` trees in one numba call (``board_select``), hands the
``B`` new leaves to the evaluator in one call (a network's forward pass, or numba rollouts),
and expands and backs them up in one numba call (``expand_and_backup``). With
``selection='puct'`` and a network this is AlphaZero's search (Silver et al. 2018); with
``selection='ucb1'`` and :class:`RolloutEvaluator` it is UCT (Kocsis and Szepesvari 2006).

Example::

    search = BatchedSearch(kernels, num_simulations=100, seed=0)
    result = search.search(boards, to_play, evaluator, add_noise=True)   # boards [B, H, W]
    actions = sample_actions(result.visits, temperature=1.0, rng=np.random.default_rng(0))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import types

from lzero.mcts import batched_tree as bt
from lzero.mcts.batched_board import board_select
from lzero.mcts.jit import NativeFunction, compiled_on_first_call
from lzero.mcts.rollout import EVALUATE_T, uniform_rollout
from lzero.mcts.tree import APPLY_ACTION_T, KERNELS_T, LEGAL_ACTIONS_T, RESULT_AFTER_T, RNG_T
from lzero.utils.nbrng import make_rng_state

#: ``(boards [B, H, W] int8, to_play [B] int64, legal [B, A] bool) -> (priors [B, A],
#: values [B])``: move priors and the value for the player to move, in ``[-1, 1]``.
BatchEvaluator = Callable[[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]

SELECTIONS = {"puct": bt.PUCT, "ucb1": bt.UCB1}


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


class BatchedSearch:
    """Monte Carlo tree search on ``B`` positions of one board game at once.

    Args:
        kernels: the game (a ``lzero.mcts.GameKernels``; its rules kernels and sizes are used).
        num_simulations: simulations per search, the root's evaluation not included.
        selection: ``'puct'`` (AlphaZero) or ``'ucb1'`` (UCT).
        pb_c_base, pb_c_init: PUCT's constants ``c2`` and ``c1`` (AlphaZero's 19652 and 1.25).
        c_uct: UCB1's exploration constant.
        root_dirichlet_alpha, root_noise_weight: Dirichlet noise mixed into the root priors
            when ``search(add_noise=True)``: ``(1 - w) * P + w * Dir(alpha)`` over legal moves.
        seed: seed of the noise.

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
        if not 0 <= root_noise_weight <= 1:
            raise ValueError(f"expected root_noise_weight in [0, 1], got {root_noise_weight!r}")
        self.kernels = kernels
        self.num_simulations = int(num_simulations)
        self.rule = SELECTIONS[selection]
        if self.rule == bt.PUCT:
            self.c1, self.c2 = float(pb_c_init), float(pb_c_base)
        else:
            self.c1, self.c2 = float(c_uct), 1.0
        self.alpha, self.noise_weight = float(root_dirichlet_alpha), float(root_noise_weight)
        self.rng = np.random.default_rng(seed)
        self.native_kernels = (
            NativeFunction(kernels.legal_actions, LEGAL_ACTIONS_T),
            NativeFunction(kernels.apply_action, APPLY_ACTION_T),
            NativeFunction(kernels.result_after, RESULT_AFTER_T),
        )
        self.tree: bt.BatchedTree | None = None
        self._boards: np.ndarray | None = None
        self._moves: np.ndarray | None = None
        self._scratch = np.zeros(kernels.action_size, np.int64)

    def _allocate(self, batch: int, capacity: int) -> None:
        if self.tree is None or self.tree.node_visits.shape != (batch, capacity):
            h, w = self.kernels.board_shape
            self.tree = bt.make_batched_tree(batch, capacity, self.kernels.action_size)
            self._boards = np.zeros((batch, capacity, h, w), np.int8)
            self._moves = np.zeros((batch, capacity), np.int64)

    def search(
        self,
        boards: np.ndarray,
        to_play: np.ndarray,
        evaluator: BatchEvaluator,
        *,
        add_noise: bool = False,
        num_simulations: int | None = None,
        active: np.ndarray | None = None,
    ) -> BatchedResult:
        """Searches from ``B`` positions.

        Args:
            boards: `[B, H, W]` int8 positions of unfinished games.
            to_play: `[B]` player to move in each, 1 or 2.
            evaluator: the batched leaf evaluator (called once per simulation step, with the
                unfinished leaves of the active trees only).
            add_noise: mix Dirichlet noise into the root priors (self-play exploration).
            num_simulations: overrides the instance's.
            active: `[B]` bool, the positions to search (default all); inactive rows of the
                result are zeros.

        Returns:
            The root statistics.

        Raises:
            ValueError: bad shapes or values, or an active position without a legal move.
        """
        boards, to_play, active = self._check(boards, to_play, active)
        sims = self.num_simulations if num_simulations is None else int(num_simulations)
        batch = boards.shape[0]
        self._allocate(batch, sims + 1)
        tree, store, moves = self.tree, self._boards, self._moves
        bt.reset_roots(tree, to_play)
        store[:, 0] = boards
        moves[:, 0] = np.count_nonzero(boards.reshape(batch, -1), axis=1)
        legal = root_legal(boards, self.kernels.legal_actions, self.kernels.action_size)
        if (active & ~legal.any(axis=1)).any():
            raise ValueError(
                "expected every searched position to have a legal move, got a full board"
            )
        leaves = np.zeros(batch, np.int64)
        self._evaluate(evaluator, leaves, legal, active)
        if add_noise and self.noise_weight > 0:
            self._add_noise(active)
        roots_priors = tree.children_prior[:, bt.ROOT_INDEX].copy()
        for _ in range(sims):
            board_select(
                tree, store, moves, self.rule, self.c1, self.c2, active, leaves, legal,
                self._scratch, *self.native_kernels,
            )  # fmt: skip
            self._evaluate(evaluator, leaves, legal, active)
        a = self.kernels.action_size
        visits, q, value = np.zeros((batch, a), np.int32), np.zeros((batch, a)), np.zeros(batch)
        bt.root_statistics(tree, visits, q, value)
        visits[~active], q[~active], value[~active] = 0, 0.0, 0.0
        return BatchedResult(visits, q, value, roots_priors)

    def _evaluate(self, evaluator, leaves, legal, active) -> None:
        tree, batch = self.tree, leaves.shape[0]
        rows = np.arange(batch)
        ask = np.flatnonzero(active & ~tree.node_terminal[rows, leaves])
        priors = np.zeros(legal.shape, np.float32)
        values = np.zeros(batch, np.float64)
        if ask.size:
            p, v = evaluator(
                self._boards[ask, leaves[ask]],
                tree.node_to_play[ask, leaves[ask]].astype(np.int64),
                legal[ask],
            )
            p, v = np.asarray(p), np.asarray(v)
            if p.shape != (ask.size, legal.shape[1]) or v.shape != (ask.size,):
                raise ValueError(
                    f"expected evaluator outputs of shapes ({ask.size}, {legal.shape[1]}) and "
                    f"({ask.size},), got {p.shape} and {v.shape}"
                )
            priors[ask], values[ask] = p, v
        bt.expand_and_backup(tree, leaves, priors, legal, values, active)

    def _add_noise(self, active: np.ndarray) -> None:
        prior = self.tree.children_prior[:, bt.ROOT_INDEX]
        legal = self.tree.children_legal[:, bt.ROOT_INDEX]
        w = self.noise_weight
        for b in np.flatnonzero(active):
            idx = np.flatnonzero(legal[b])
            noise = self.rng.dirichlet(np.full(idx.size, self.alpha))
            prior[b, idx] = (1 - w) * prior[b, idx] + w * noise

    def _check(self, boards, to_play, active):
        h, w = self.kernels.board_shape
        boards = np.asarray(boards)
        if boards.ndim != 3 or boards.shape[1:] != (h, w) or boards.shape[0] < 1:
            raise ValueError(
                f"expected boards of shape [B, {h}, {w}] with B >= 1, got {boards.shape}"
            )
        if boards.size and (boards.min() < 0 or boards.max() > 2):
            raise ValueError(f"expected board values in {{0, 1, 2}}, got {np.unique(boards)}")
        to_play = np.asarray(to_play)
        if to_play.shape != (boards.shape[0],) or not np.isin(to_play, (1, 2)).all():
            raise ValueError(
                f"expected to_play of shape ({boards.shape[0]},) with values 1 or 2, got {to_play!r}"
            )
        if active is None:
            active = np.ones(boards.shape[0], np.bool_)
        active = np.ascontiguousarray(active, dtype=np.bool_)
        if active.shape != (boards.shape[0],):
            raise ValueError(f"expected active of shape ({boards.shape[0]},), got {active.shape}")
        return np.ascontiguousarray(boards, np.int8), to_play.astype(np.int8), active


def root_legal(boards: np.ndarray, legal_actions: Any, action_size: int) -> np.ndarray:
    """`[B, A]` bool legal moves of ``boards`` `[B, H, W]`, by the game's ``legal_actions``."""
    out = np.zeros((boards.shape[0], action_size), np.bool_)
    scratch = np.zeros(action_size, np.int64)
    for b in range(boards.shape[0]):
        out[b, scratch[: legal_actions(boards[b], scratch)]] = True
    return out


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


@compiled_on_first_call(
    types.none(
        types.Array(types.int8, 3, "C"),
        types.Array(types.int64, 1, "C"),
        RNG_T,
        types.Array(types.int64, 2, "C"),
        types.Array(types.float64, 1, "C"),
        EVALUATE_T,
        *KERNELS_T,
    )
)
def _rollout_values(
    boards, to_play, rng, scratch, out, evaluate, legal_actions, apply_action, result_after
):
    for b in range(boards.shape[0]):
        board = boards[b]
        moves = 0
        for v in board.ravel():
            moves += v != 0
        out[b] = evaluate(
            board, to_play[b], moves, 0, rng, scratch, legal_actions, apply_action, result_after
        )


class RolloutEvaluator:
    """A :data:`BatchEvaluator` of uniform priors and one random rollout per leaf (numba).

    Args:
        kernels: the game (``GameKernels``).
        seed: seed of the rollouts.
        evaluate: a numba leaf evaluator (``lzero.mcts.rollout.EVALUATE_T``); random playouts
            to the end by default.
    """

    def __init__(self, kernels: Any, *, seed: int = 0, evaluate: Any = None) -> None:
        self.rng = make_rng_state(seed)
        self.scratch = np.zeros((4, kernels.action_size), np.int64)
        self.evaluate = NativeFunction(evaluate or uniform_rollout, EVALUATE_T)
        self.kernels = (
            NativeFunction(kernels.legal_actions, LEGAL_ACTIONS_T),
            NativeFunction(kernels.apply_action, APPLY_ACTION_T),
            NativeFunction(kernels.result_after, RESULT_AFTER_T),
        )

    def __call__(self, boards, to_play, legal):
        boards = np.array(boards, np.int8)  # rollouts play on the boards
        values = np.zeros(boards.shape[0])
        _rollout_values(
            boards, to_play, self.rng, self.scratch, values, self.evaluate, *self.kernels
        )
        priors = legal / legal.sum(axis=1, keepdims=True)
        return priors.astype(np.float32), values
