"""MuZero's search as a configuration of the batched tree: PUCT over min-max normalised
values, with a learned model (``recurrent_fn``) as the evaluator and latent states in place of
boards (Schrittwieser et al. 2020, appendix B).

It runs on ``lzero.mcts.batched_tree``, the tree the board searches use: the same slots,
selection (``descend``, PUCT with ``normalize``), expansion and backup. What MuZero adds is
the state: the model, not a rules kernel, makes the next state. Every simulation adds exactly
one node per tree (a latent state is never terminal), so simulation ``s`` (0-based) creates
node ``s + 1`` in every tree, and the caller keeps latent states in a `[N, B, ...]` buffer
indexed by node. The model is reached only through ``recurrent_fn`` (as in mctx), so this
module knows nothing of torch.

Two-player games (a root with ``to_play`` 1 or 2) use mctx's convention: rewards are for the
player who moved, values for the player to move, and each edge's discount is ``-gamma``;
one-player tasks (``to_play`` -1) use ``+gamma``. Only the root's moves are masked (the env's
``action_mask``); below it every action is allowed, as in LightZero.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import types

from lzero.mcts import batched_tree as bt
from lzero.mcts.batched_result import (
    BatchedResult,
    completed_q_policy,
    gumbel_action,
    sample_actions,
)
from lzero.mcts.gumbel import (
    GUMBEL_ARGS_T,
    NO_GUMBEL,
    check_gumbel_settings,
    gumbel_args,
    gumbel_descend,
)
from lzero.mcts.jit import compiled_on_first_call

__all__ = ["MuZeroMCTS", "RecurrentFn", "SearchOutput", "select_action"]

#: ``recurrent_fn(parent_node, action, new_node)`` -> ``(reward, value, prior)``, where
#: ``parent_node`` and ``action`` are `[B]` int64 arrays, ``new_node`` the index of the node
#: being created (the same in every tree), and the outputs are `[B]` rewards for the mover,
#: `[B]` values for the player to move at the new node and `[B, A]` priors.
RecurrentFn = Callable[[np.ndarray, np.ndarray, int], tuple[np.ndarray, np.ndarray, np.ndarray]]

_I64, _F32, _F64 = (types.Array(t, 1, "C") for t in (types.int64, types.float32, types.float64))
#: ``MuZeroMCTS(unvisited_value=...)``: the worth of an edge not yet taken.
UNVISITED_VALUES = ("zero", "mean_q")
#: ``MuZeroMCTS(selection=...)``: MuZero's PUCT, or Gumbel MuZero's (``lzero.mcts.gumbel``).
SELECTIONS = {"puct": bt.PUCT, "gumbel": bt.GUMBEL}


class SearchOutput(NamedTuple):
    """Result of :meth:`MuZeroMCTS.search`.

    Attributes:
        visit_counts: `[B, A]` int32 visits of the root's children.
        root_value: `[B]` float64 mean value of the root (for the player to move there).
        q: `[B, A]` float64 value of each root action for the player to move (0 if unvisited).
        action: `[B]` int64, with Gumbel selection the Sequential Halving winner, else None.
        improved_policy: `[B, A]` float64, with Gumbel selection the improved policy
            ``softmax(log p + sigma(completedQ))`` (the policy target), else None.
    """

    visit_counts: np.ndarray
    root_value: np.ndarray
    q: np.ndarray
    action: np.ndarray | None = None
    improved_policy: np.ndarray | None = None


@compiled_on_first_call(
    types.none(
        bt.BATCHED_TREE_T, types.int64, types.float64, types.float64, types.boolean,
        GUMBEL_ARGS_T, _I64, _I64, _I64,
    )
)  # fmt: skip
def latent_select(tree, rule, c1, c2, mean_q_unvisited, gumbel, parents, slots, actions):
    """Descends every tree to an edge not taken before and writes its node, slot and action
    into ``parents``, ``slots`` and ``actions`` `[B]`: with ``rule`` PUCT on min-max
    normalised ``Q``, an unvisited edge worth 0, or its node's mean ``Q`` with
    ``mean_q_unvisited``; with ``rule`` GUMBEL by ``lzero.mcts.gumbel.gumbel_descend`` with
    ``gumbel`` (its ``GumbelArgs``; ``NO_GUMBEL`` under PUCT)."""
    work = np.empty(tree.children_prior.shape[2] if rule == bt.GUMBEL else 0)
    for b in range(parents.shape[0]):
        if rule == bt.GUMBEL:
            node, slot = gumbel_descend(tree, b, gumbel, work)
        else:
            node, slot = bt.descend(
                tree, b, bt.PUCT, c1, c2, True, mean_q_unvisited, -1.0, -1.0, 0.0
            )
        parents[b], slots[b] = node, slot
        actions[b] = tree.children_action[b, node, slot]


@compiled_on_first_call(
    types.none(bt.BATCHED_TREE_T, _I64, _I64, _F32, _F32, types.Array(types.float32, 2, "C"), _F64)
)
def latent_expand(tree, parents, slots, discounts, rewards, priors, values):
    """Adds the child of each tree's ``(parents, slots)`` edge with its ``rewards`` `[B]` and the
    tree's ``discounts`` `[B]`, expands it over every action with ``priors`` `[B, A]` and backs
    its ``values`` `[B]` up to the root."""
    num_actions = priors.shape[1]
    for b in range(parents.shape[0]):
        parent = parents[b]
        mover = tree.node_to_play[b, parent]
        to_play = 3 - mover if mover > 0 else 0
        leaf = bt.add_child(tree, b, parent, slots[b], to_play, rewards[b], discounts[b], False)
        total = 0.0
        for a in range(num_actions):
            total += max(priors[b, a], 0.0)
            tree.children_action[b, leaf, a] = a
            tree.children_index[b, leaf, a] = bt.UNVISITED
        for a in range(num_actions):
            p = max(priors[b, a], 0.0)
            tree.children_prior[b, leaf, a] = p / total if total > 0 else 1.0 / num_actions
        tree.node_num_children[b, leaf] = num_actions
        tree.node_raw_value[b, leaf] = values[b]
        bt.backup(tree, b, leaf, values[b])
        # The root's own value joins the min-max statistics, as in the MuZero pseudocode and
        # LightZero's trees (mctx leaves it out); for the root's mover, like its children's Q.
        root_q = abs(discounts[b]) * tree.node_value_sum[b, 0] / tree.node_visits[b, 0]
        tree.min_max[b, 0] = min(tree.min_max[b, 0], root_q)
        tree.min_max[b, 1] = max(tree.min_max[b, 1], root_q)


class MuZeroMCTS:
    """Batched MuZero search on the batched tree, reused across calls of the same batch size.

    Args:
        num_simulations: simulations per search (nodes created per tree).
        action_space_size: number of actions ``A``.
        discount_factor: ``gamma``, the discount of rewards inside the tree.
        pb_c_base: PUCT's ``c2``; the paper's 19652 by default.
        pb_c_init: PUCT's ``c1``; the paper's 1.25 by default.
        root_dirichlet_alpha: Dirichlet concentration of the root noise.
        root_noise_weight: weight of the noise in the root priors (0 disables it).
        unvisited_value: what an unvisited edge is worth in selection: ``'zero'`` (the MuZero
            pseudocode's 0, the least value once ``Q`` is normalised) or ``'mean_q'`` (its
            node's mean ``Q``, as LightZero's and EfficientZero's trees).
        selection: ``'puct'`` (MuZero) or ``'gumbel'`` (Gumbel MuZero, Danihelka et al.
            2022: Sequential Halving with Gumbel at the root, the improved policy below it;
            the PUCT and noise settings are then unused).
        max_num_considered_actions, maxvisit_init, value_scale: Gumbel's root moves sampled
            (at most) and ``sigma``'s visit offset and scale (mctx's 16, 50 and 0.1).

    Raises:
        ValueError: a setting out of range.
    """

    def __init__(
        self,
        *,
        num_simulations: int,
        action_space_size: int,
        discount_factor: float,
        pb_c_base: float = 19652.0,
        pb_c_init: float = 1.25,
        root_dirichlet_alpha: float = 0.3,
        root_noise_weight: float = 0.25,
        unvisited_value: str = "zero",
        selection: str = "puct",
        max_num_considered_actions: int = 16,
        maxvisit_init: float = 50.0,
        value_scale: float = 0.1,
    ) -> None:
        if num_simulations < 1:
            raise ValueError(f"expected num_simulations >= 1, got {num_simulations}")
        if action_space_size < 1:
            raise ValueError(f"expected action_space_size >= 1, got {action_space_size}")
        if not 0.0 <= discount_factor <= 1.0:
            raise ValueError(f"expected discount_factor in [0, 1], got {discount_factor}")
        self.num_simulations = int(num_simulations)
        self.action_space_size = int(action_space_size)
        self.discount = float(discount_factor)
        self.pb_c_base = float(pb_c_base)
        self.pb_c_init = float(pb_c_init)
        self.alpha = float(root_dirichlet_alpha)
        self.noise_weight = float(root_noise_weight)
        if unvisited_value not in UNVISITED_VALUES:
            raise ValueError(
                f"expected unvisited_value in {list(UNVISITED_VALUES)}, got {unvisited_value!r}"
            )
        self.mean_q_unvisited = unvisited_value == "mean_q"
        if selection not in SELECTIONS:
            raise ValueError(f"expected selection in {list(SELECTIONS)}, got {selection!r}")
        self.rule = SELECTIONS[selection]
        check_gumbel_settings(
            max_num_considered_actions=max_num_considered_actions, maxvisit_init=maxvisit_init,
            value_scale=value_scale,
        )  # fmt: skip
        self.max_considered = int(max_num_considered_actions)
        self.maxvisit_init, self.value_scale = float(maxvisit_init), float(value_scale)
        self.tree: bt.BatchedTree | None = None

    def _allocate(self, batch: int) -> None:
        if self.tree is None or self.tree.num_nodes.shape[0] != batch:
            n = self.num_simulations + 1
            self.tree = bt.make_batched_tree(batch, n, self.action_space_size)
            self._parents, self._slots, self._actions = (np.zeros(batch, np.int64) for _ in "psa")

    def root_noise(self, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Draws Dirichlet(alpha) noise over each row's legal actions; `[B, A]` float64."""
        noise = np.zeros(np.shape(legal), np.float64)
        for b, row in enumerate(np.asarray(legal)):
            idx = np.flatnonzero(row)
            noise[b, idx] = rng.dirichlet(np.full(len(idx), self.alpha))
        return noise

    def search(
        self,
        root_prior: np.ndarray,
        root_value: np.ndarray,
        legal: np.ndarray,
        recurrent_fn: RecurrentFn,
        *,
        noise: np.ndarray | None = None,
        to_play: np.ndarray | None = None,
        gumbel: np.ndarray | None = None,
        num_simulations: int | None = None,
    ) -> SearchOutput:
        """Runs ``num_simulations`` simulations on every root of the batch.

        The root starts with one visit worth ``root_value``, as in LightZero's trees.

        Args:
            root_prior: `[B, A]` policy at the roots (renormalised over ``legal`` here).
            root_value: `[B]` network value at the roots, for the player to move.
            legal: `[B, A]` 1 where an action is legal at the root.
            recurrent_fn: the model's dynamics and prediction, see :data:`RecurrentFn`.
            noise: `[B, A]` root noise from :meth:`root_noise`, or None for no noise.
            to_play: `[B]` player to move at each root, 1 or 2 in a two-player game, -1 in a
                one-player task (the default).
            gumbel: with Gumbel selection, `[B, A]` the roots' Gumbel draws by action, scaled
                (:meth:`gumbel_noise`); None for none (evaluation).
            num_simulations: this search's, from 1 to the instance's (a playout-capped fast
                search); None: the instance's.

        Returns:
            The root visit counts, values and action values (and with Gumbel selection the
            chosen actions and the improved policy).

        Raises:
            ValueError: shapes disagree, a root has no legal action, a bad ``to_play``, or
                ``noise`` with Gumbel selection or ``gumbel`` without it.
        """
        sims = self.num_simulations if num_simulations is None else num_simulations
        if isinstance(sims, bool) or not isinstance(sims, (int, np.integer)):
            raise ValueError(f"expected num_simulations an int or None, got {num_simulations!r}")
        if not 1 <= sims <= self.num_simulations:
            raise ValueError(
                f"expected num_simulations from 1 to {self.num_simulations} (the tree's "
                f"capacity) or None, got {num_simulations!r}"
            )
        is_gumbel = self.rule == bt.GUMBEL
        if is_gumbel and noise is not None:
            raise ValueError(
                "expected noise None with Gumbel selection (its exploration is the gumbel "
                "draws), got Dirichlet noise"
            )
        if gumbel is not None and not is_gumbel:
            raise ValueError("expected gumbel None with PUCT selection, got Gumbel draws")
        legal = np.asarray(legal).astype(bool)
        root_prior = np.asarray(root_prior, np.float64)
        b, a = legal.shape
        if a != self.action_space_size or root_prior.shape != (b, a):
            raise ValueError(
                f"expected root_prior and legal of shape (B, {self.action_space_size}), "
                f"got {root_prior.shape} and {legal.shape}"
            )
        if not legal.any(axis=1).all():
            raise ValueError(
                f"expected at least one legal action per root, got rows "
                f"{np.flatnonzero(~legal.any(axis=1)).tolist()} with none"
            )
        to_play = np.full(b, -1) if to_play is None else np.asarray(to_play).reshape(-1)
        if to_play.shape != (b,) or not np.isin(to_play, (-1, 1, 2)).all():
            raise ValueError(f"expected to_play of shape ({b},) in {{-1, 1, 2}}, got {to_play}")
        self._allocate(b)
        tree, parents, slots, actions = self.tree, self._parents, self._slots, self._actions
        two_player = to_play > 0
        discounts = np.where(two_player, -self.discount, self.discount).astype(np.float32)
        p = np.where(legal, root_prior, 0.0)
        s = p.sum(axis=1, keepdims=True)
        p = np.where(s > 0, p / np.where(s > 0, s, 1.0), legal / legal.sum(axis=1, keepdims=True))
        if noise is not None and self.noise_weight > 0:
            w = self.noise_weight
            p = np.where(legal, (1.0 - w) * p + w * np.asarray(noise, np.float64), 0.0)
        bt.reset_roots(tree, np.where(two_player, to_play, 0).astype(np.int8))
        bt.expand_and_backup(
            tree, np.zeros(b, np.int64), np.arange(b, dtype=np.int64), p.astype(np.float32),
            legal, np.asarray(root_value, np.float64).reshape(b), np.ones(b, bool),
        )  # fmt: skip
        c1, c2 = self.pb_c_init, self.pb_c_base
        select_gumbel = NO_GUMBEL
        if is_gumbel:
            draws = np.zeros((b, a)) if gumbel is None else np.asarray(gumbel, np.float64)
            if draws.shape != (b, a):
                raise ValueError(f"expected gumbel of shape ({b}, {a}), got {draws.shape}")
            select_gumbel = gumbel_args(
                draws, self.max_considered, sims,
                maxvisit_init=self.maxvisit_init, value_scale=self.value_scale,
            )  # fmt: skip
        for sim in range(sims):
            latent_select(
                tree, self.rule, c1, c2, self.mean_q_unvisited, select_gumbel, parents, slots,
                actions,
            )  # fmt: skip
            r, v, pr = recurrent_fn(parents, actions, sim + 1)
            latent_expand(
                tree, parents, slots, discounts,
                np.ascontiguousarray(r, np.float32).reshape(b),
                np.ascontiguousarray(pr, np.float32).reshape(b, a),
                np.ascontiguousarray(v, np.float64).reshape(b),
            )  # fmt: skip
        counts, q = np.empty((b, a), np.int32), np.empty((b, a), np.float64)
        value, priors = np.empty(b, np.float64), np.empty((b, a), np.float32)
        bt.root_statistics(tree, counts, q, value, priors)
        if not is_gumbel:
            return SearchOutput(counts, value, q)
        result = BatchedResult(
            counts, q, value, priors, priors, np.asarray(root_value, np.float64).reshape(b)
        )
        c = {"c_visit": self.maxvisit_init, "c_scale": self.value_scale}
        action = gumbel_action(result, select_gumbel.noise, **c)
        return SearchOutput(counts, value, q, action, completed_q_policy(result, **c))

    @staticmethod
    def gumbel_noise(legal: np.ndarray, rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
        """`[B, A]` float64 Gumbel(0, 1) draws times ``scale`` for ``legal`` `[B, A]`'s shape."""
        return scale * rng.gumbel(size=np.shape(legal))


def select_action(
    visit_counts: np.ndarray,
    temperature: float,
    rng: np.random.Generator | None,
    *,
    deterministic: bool = False,
) -> np.ndarray:
    """Picks one action per row from root visit counts: with ``deterministic`` the most
    visited (lowest index on ties), else a sample from ``N(a) ** (1 / temperature)``.

    Args:
        visit_counts: `[B, A]` root visit counts.
        temperature: positive visit-count temperature.
        rng: generator used for sampling.

    Returns:
        `[B]` int64 actions.
    """
    counts = np.asarray(visit_counts)
    if deterministic:
        return counts.argmax(axis=1).astype(np.int64)
    return sample_actions(counts, temperature, rng)
