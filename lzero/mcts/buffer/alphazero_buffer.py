"""AlphaZero's replay: a ring of positions (planes, search policy, outcome, whether the game
was drawn), sampled uniformly, each sample under a random exact symmetry of the game if asked."""

from __future__ import annotations

from typing import Any

import numpy as np


class AlphaZeroReplayBuffer:
    """The last ``capacity`` positions of self-play.

    Args:
        capacity: positions kept; the oldest are overwritten.
        game: the ``lzero.policy.board_game.BoardGame`` (shapes and symmetries).
        augment: sample each position under a uniformly drawn symmetry of the game.
    """

    def __init__(self, capacity: int, game: Any, *, augment: bool = True) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"expected capacity to be a positive int, got {capacity!r}")
        self.game, self.augment = game, bool(augment)
        self.planes = np.zeros((capacity, *game.observation_shape), np.float32)
        self.policy = np.zeros((capacity, game.action_size), np.float32)
        self.value = np.zeros(capacity, np.float32)
        self.draw = np.zeros(capacity, np.float32)
        self.size, self.next, self.total = 0, 0, 0

    def __len__(self) -> int:
        return self.size

    def push(
        self,
        planes: np.ndarray,
        policy: np.ndarray,
        value: np.ndarray,
        draw: np.ndarray | None = None,
    ) -> None:
        """Adds positions: planes `[n, 3, H, W]`, policies `[n, A]`, outcomes `[n]`, and whether
        their games ended drawn, `[n]` 0 or 1 (None: all 0)."""
        cap = self.planes.shape[0]
        if draw is None:
            draw = np.zeros(len(value), np.float32)
        for start in range(0, len(value), cap):  # more than the capacity: the last ones stay
            p, q, v, d = (
                planes[start : start + cap],
                policy[start : start + cap],
                value[start : start + cap],
                draw[start : start + cap],
            )
            idx = (self.next + np.arange(len(v))) % cap
            self.planes[idx], self.policy[idx], self.value[idx], self.draw[idx] = p, q, v, d
            self.next = int((self.next + len(v)) % cap)
            self.size = min(self.size + len(v), cap)
            self.total += len(v)

    def sample(
        self, batch_size: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``batch_size`` positions drawn uniformly with replacement: planes, policies, outcomes
        and draw flags."""
        if self.size == 0:
            raise ValueError("expected a non-empty buffer to sample from, got an empty one")
        idx = rng.integers(0, self.size, batch_size)
        planes, policy, value = self.planes[idx], self.policy[idx], self.value[idx]
        draw = self.draw[idx]
        if not self.augment:
            return planes, policy, value, draw
        sym = rng.integers(0, self.game.num_symmetries, batch_size)
        for k in np.unique(sym):
            rows = np.flatnonzero(sym == k)
            planes[rows], policy[rows] = self.game.symmetry(planes[rows], policy[rows], int(k))
        return planes, policy, value, draw

    def state_dict(self) -> dict:
        """The stored positions and the ring's counters (NumPy arrays; ``lzero.utils.run_state``
        packs them for a checkpoint)."""
        n = self.size
        return {
            "capacity": self.planes.shape[0],
            "planes": self.planes[:n], "policy": self.policy[:n], "value": self.value[:n],
            "draw": self.draw[:n], "size": n, "next": self.next, "total": self.total,
        }  # fmt: skip

    def load_state_dict(self, state: dict) -> None:
        """Puts back what :meth:`state_dict` returned.

        Raises:
            ValueError: the state is of a buffer of another capacity or position shape.
        """
        cap = self.planes.shape[0]
        if state["capacity"] != cap or state["planes"].shape[1:] != self.planes.shape[1:]:
            raise ValueError(
                f"expected a replay buffer of {cap} positions of shape {self.planes.shape[1:]}, "
                f"got one of {state['capacity']} of shape {state['planes'].shape[1:]}"
            )
        n = int(state["size"])
        for name in ("planes", "policy", "value", "draw"):
            getattr(self, name)[:n] = state[name]
        self.size, self.next, self.total = n, int(state["next"]), int(state["total"])
