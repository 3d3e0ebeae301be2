"""Batched MuZero search: one tree per env, one model call per simulation for the batch.

The model is reached only through ``recurrent_fn`` (as in mctx), so this module knows
nothing of torch: the policy passes a closure that looks latent states up by node index.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from lzero.mcts.ctree import tree_muzero as kernels

#: ``recurrent_fn(parent_node, action, new_node)`` -> ``(reward, value, prior)``, where
#: ``parent_node`` and ``action`` are `[B]` int arrays, ``new_node`` the index of the node
#: being created, and the outputs are `[B]`, `[B]` and `[B, A]` float arrays.
RecurrentFn = Callable[[np.ndarray, np.ndarray, int], tuple[np.ndarray, np.ndarray, np.ndarray]]


class SearchOutput(NamedTuple):
    """Result of :meth:`MuZeroMCTS.search`.

    Attributes:
        visit_counts: `[B, A]` int32 visits of the root's children.
        root_value: `[B]` float64 mean value of the root after the search.
    """

    visit_counts: np.ndarray
    root_value: np.ndarray


class MuZeroMCTS:
    """Preallocated batched search tree, reused across calls of the same batch size.

    Args:
        num_simulations: simulations per search (nodes created per tree).
        action_space_size: number of actions ``A``.
        discount_factor: discount of rewards inside the tree.
        pb_c_base: pUCT ``c2``; the paper's 19652 by default.
        pb_c_init: pUCT ``c1``; the paper's 1.25 by default.
        root_dirichlet_alpha: Dirichlet concentration of the root noise.
        root_noise_weight: weight of the noise in the root priors (0 disables it).
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
    ) -> None:
        if num_simulations < 1:
            raise ValueError(f"expected num_simulations >= 1, got {num_simulations}")
        if action_space_size < 1:
            raise ValueError(f"expected action_space_size >= 1, got {action_space_size}")
        self.num_simulations = int(num_simulations)
        self.action_space_size = int(action_space_size)
        self.discount = float(discount_factor)
        self.pb_c_base = float(pb_c_base)
        self.pb_c_init = float(pb_c_init)
        self.alpha = float(root_dirichlet_alpha)
        self.noise_weight = float(root_noise_weight)
        self._batch = -1

    def _allocate(self, batch: int) -> None:
        n, a = self.num_simulations + 1, self.action_space_size
        self.children = np.empty((batch, n, a), np.int32)
        self.prior = np.zeros((batch, n, a), np.float64)
        self.visit = np.zeros((batch, n), np.int32)
        self.value_sum = np.zeros((batch, n), np.float64)
        self.reward = np.zeros((batch, n), np.float64)
        self.minmax = np.zeros((batch, 2), np.float64)
        self.path = np.zeros((batch, n), np.int32)
        self.path_len = np.zeros(batch, np.int32)
        self.parent = np.zeros(batch, np.int32)
        self.action = np.zeros(batch, np.int32)
        self._batch = batch

    def root_noise(self, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Draws Dirichlet(alpha) noise over each row's legal actions; `[B, A]` float64."""
        noise = np.zeros(legal.shape, np.float64)
        for b in range(legal.shape[0]):
            idx = np.flatnonzero(legal[b])
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
    ) -> SearchOutput:
        """Runs ``num_simulations`` simulations on every root of the batch.

        Args:
            root_prior: `[B, A]` policy at the roots (renormalised over ``legal`` here).
            root_value: `[B]` network value at the roots.
            legal: `[B, A]` 1 where an action is legal at the root.
            recurrent_fn: the model's dynamics + prediction, see :data:`RecurrentFn`.
            noise: `[B, A]` root noise from :meth:`root_noise`, or None for no noise.

        Returns:
            The root visit counts and values.

        Raises:
            ValueError: shapes disagree or a root has no legal action.
        """
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
        if b != self._batch:
            self._allocate(b)
        p = np.where(legal, root_prior, 0.0)
        s = p.sum(axis=1, keepdims=True)
        p = np.where(s > 0, p / np.where(s > 0, s, 1.0), legal / legal.sum(axis=1, keepdims=True))
        weight = self.noise_weight if noise is not None else 0.0
        noise = np.zeros((b, a)) if noise is None else np.asarray(noise, np.float64)
        kernels.prepare_roots(
            self.children,
            self.prior,
            self.visit,
            self.value_sum,
            self.reward,
            legal,
            self.minmax,
            p,
            np.asarray(root_value, np.float64),
            noise,
            weight,
        )
        for sim in range(self.num_simulations):
            kernels.traverse(
                self.children,
                self.prior,
                self.visit,
                self.value_sum,
                self.reward,
                legal,
                self.minmax,
                self.path,
                self.path_len,
                self.parent,
                self.action,
                self.pb_c_base,
                self.pb_c_init,
                self.discount,
            )
            r, v, pr = recurrent_fn(self.parent, self.action, sim + 1)
            kernels.expand_and_backup(
                self.children,
                self.prior,
                self.visit,
                self.value_sum,
                self.reward,
                self.minmax,
                self.path,
                self.path_len,
                self.parent,
                self.action,
                sim + 1,
                np.asarray(r, np.float64),
                np.asarray(v, np.float64),
                np.asarray(pr, np.float64),
                self.discount,
            )
        counts = np.zeros((b, a), np.int32)
        kernels.root_visits(self.children, self.visit, counts)
        return SearchOutput(counts, self.value_sum[:, 0] / self.visit[:, 0])


def select_action(
    visit_counts: np.ndarray,
    temperature: float,
    rng: np.random.Generator | None,
    *,
    deterministic: bool = False,
) -> np.ndarray:
    """Picks one action per row from root visit counts.

    With ``deterministic`` the most visited action (lowest index on ties); otherwise a
    sample from ``N(a) ** (1 / temperature)``, normalised.

    Args:
        visit_counts: `[B, A]` root visit counts.
        temperature: positive visit-count temperature.
        rng: generator used for sampling.

    Returns:
        `[B]` int64 actions.
    """
    counts = np.asarray(visit_counts, np.float64)
    if deterministic:
        return counts.argmax(axis=1)
    if temperature <= 0:
        raise ValueError(f"expected temperature > 0, got {temperature}")
    logits = np.log(np.maximum(counts, 1e-30)) / temperature
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.where(counts > 0, np.exp(logits), 0.0)
    probs /= probs.sum(axis=1, keepdims=True)
    return np.array([rng.choice(counts.shape[1], p=row) for row in probs], np.int64)
