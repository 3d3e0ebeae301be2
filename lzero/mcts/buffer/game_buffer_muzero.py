"""Replay buffer of game segments and the MuZero training targets drawn from it.

Segments are stored in fixed arrays ``[S, W, ...]`` (``S`` slots used as a ring, ``W`` the
longest segment), so a batch and its unrolled targets are gathered by fancy indexing.
Targets follow MuZero (Schrittwieser et al. 2020, App. G): for unroll step ``k`` of a sample
starting at step ``t``, the policy target is the search's visit distribution at ``t + k``,
the reward target is ``r[t + k - 1]``, and the value target is the n-step return
``sum_{i<n} gamma^i r[t+k+i] + gamma^n v(o[t+k+n])``, with ``v`` computed by the learner
(the target network) on the ``bootstrap_obs`` returned here. In a two-player game (segments
whose ``to_play`` is 1 or 2) rewards are the mover's and values the player to move's, so the
discount is ``-gamma``: the opponent's reward counts against the mover, as in the search. Past the episode's end, reward
and value targets are 0 and the policy loss is masked out.
"""

from __future__ import annotations

import numpy as np

from lzero.mcts.buffer.game_segment import GameSegment


class MuZeroGameBuffer:
    """Uniform replay over all sampleable steps of the stored segments.

    Args:
        replay_buffer_size: capacity in transitions (sampleable steps).
        segment_length: sampleable steps per segment.
        num_unroll_steps: ``K``, unrolled model steps per sample.
        td_steps: ``n`` of the n-step value target.
        discount_factor: ``gamma``.
        observation_shape: ``O``.
        action_space_size: ``A``.
        seed: seed of the sampling generator.
        symmetries: ``(cells, actions)`` of
            :meth:`~lzero.policy.board_game.BoardGame.symmetry_permutations` to draw every
            sample under a uniformly random symmetry of the board (observations `[C, H, W]`
            flattened); None: as stored.
        consistency_targets: also return the observations of the unrolled steps
            (``target_obs``), which EfficientZero's consistency loss compares the unrolled
            latents with.
    """

    def __init__(
        self,
        *,
        replay_buffer_size: int,
        segment_length: int,
        num_unroll_steps: int,
        td_steps: int,
        discount_factor: float,
        observation_shape: int,
        action_space_size: int,
        seed: int = 0,
        symmetries: tuple[np.ndarray, np.ndarray] | None = None,
        consistency_targets: bool = False,
    ) -> None:
        self.k, self.n, self.gamma = int(num_unroll_steps), int(td_steps), float(discount_factor)
        self.n_actions = int(action_space_size)
        self.width = int(segment_length) + self.k + self.n
        slots = max(1, -(-int(replay_buffer_size) // int(segment_length)))
        w, o, a = self.width, int(observation_shape), self.n_actions
        self.obs = np.zeros((slots, w + 1, o), np.float32)
        self.action = np.zeros((slots, w), np.int64)
        self.reward = np.zeros((slots, w), np.float32)
        self.policy = np.zeros((slots, w, a), np.float32)
        self.root_value = np.zeros((slots, w), np.float32)
        self.n_steps = np.zeros(slots, np.int64)
        self.n_valid = np.zeros(slots, np.int64)
        self.bootstrap_end = np.zeros(slots, bool)
        self.two_player = np.zeros(slots, bool)
        self._next = 0
        self.rng = np.random.default_rng(seed)
        self.symmetries = symmetries
        self.consistency_targets = bool(consistency_targets)
        if symmetries is not None:  # action a of a stored game is action inverse[k, a] under k
            self._inverse_actions = np.argsort(symmetries[1], axis=1)

    def __len__(self) -> int:
        """Number of sampleable transitions stored."""
        return int(self.n_valid.sum())

    #: The per-slot arrays of the ring.
    _SLOT_ARRAYS = ("obs", "action", "reward", "policy", "root_value", "n_steps", "n_valid",
                    "bootstrap_end", "two_player")  # fmt: skip

    def state_dict(self) -> dict:
        """The used slots of the ring, its next slot and the sampling generator's state, for a
        training run's checkpoint (NumPy arrays and plain values)."""
        used = np.flatnonzero(self.n_steps > 0)
        state = {name: getattr(self, name)[used] for name in self._SLOT_ARRAYS}
        return {**state, "slots": used, "shape": self.obs.shape, "next": self._next,
                "rng": self.rng.bit_generator.state}  # fmt: skip

    def load_state_dict(self, state: dict) -> None:
        """Puts back what :meth:`state_dict` returned.

        Raises:
            ValueError: the state is of a buffer of another size, segment or observation.
        """
        if tuple(state["shape"]) != self.obs.shape:
            raise ValueError(
                f"expected a replay buffer of slots {self.obs.shape}, got one of "
                f"{tuple(state['shape'])}"
            )
        used = state["slots"]
        for name in self._SLOT_ARRAYS:
            array = getattr(self, name)
            array[...] = 0
            array[used] = state[name]
        self._next = int(state["next"])
        self.rng.bit_generator.state = state["rng"]

    def push(self, segments: list[GameSegment]) -> None:
        """Stores segments, overwriting the oldest when full."""
        for seg in segments:
            n = len(seg.action)
            if n > self.width or seg.obs.shape[0] != n + 1:
                raise ValueError(
                    f"expected a segment of at most {self.width} steps with one more "
                    f"observation, got {n} steps and {seg.obs.shape[0]} observations"
                )
            i = self._next
            self.obs[i, : n + 1] = seg.obs
            self.obs[i, n + 1 :] = 0
            self.action[i, :n], self.action[i, n:] = seg.action, 0
            self.reward[i, :n], self.reward[i, n:] = seg.reward, 0
            self.policy[i, :n], self.policy[i, n:] = seg.policy, 0
            self.root_value[i, :n], self.root_value[i, n:] = seg.root_value, 0
            self.n_steps[i], self.n_valid[i], self.bootstrap_end[i] = (
                n,
                seg.n_valid,
                seg.bootstrap_end,
            )
            self.two_player[i] = n > 0 and seg.to_play[0] > 0
            self._next = (i + 1) % len(self.n_steps)

    def sample(self, batch_size: int) -> dict[str, np.ndarray]:
        """Draws a batch of ``B`` start steps and their unrolled targets.

        Returns:
            A dict of arrays: ``obs`` `[B, O]`; ``action`` `[B, K]` (random past the end);
            ``target_reward`` `[B, K]`; ``target_policy`` `[B, K + 1, A]`; ``policy_mask``
            `[B, K + 1]` (0 past the end and where a step has no policy target, all zeros); ``value_prefix`` `[B, K + 1]` (discounted
            rewards of the n-step return); ``bootstrap_obs`` `[B, K + 1, O]` and
            ``bootstrap_coef`` `[B, K + 1]` (the discount of its value, 0 for none); with
            ``consistency_targets``, ``target_obs`` `[B, K, O]`, the observations at
            ``t + 1 .. t + K`` (zeros past the episode's end), and ``episode_mask`` `[B, K + 1]`
            (0 past the end).

        Raises:
            ValueError: the buffer is empty.
        """
        total = self.n_valid.sum()
        if total == 0:
            raise ValueError("expected a non-empty buffer to sample from, got 0 transitions")
        seg = self.rng.choice(len(self.n_valid), size=batch_size, p=self.n_valid / total)
        pos = (self.rng.random(batch_size) * self.n_valid[seg]).astype(np.int64)
        steps = self.n_steps[seg][:, None]
        col = seg[:, None]
        j = pos[:, None] + np.arange(self.k + 1)
        in_ep = j < steps
        jc = np.minimum(j, self.width - 1)

        a_idx = pos[:, None] + np.arange(self.k)
        random_a = self.rng.integers(0, self.n_actions, a_idx.shape)
        action = np.where(
            a_idx < steps, self.action[col, np.minimum(a_idx, self.width - 1)], random_a
        )
        target_reward = np.where(
            a_idx < steps, self.reward[col, np.minimum(a_idx, self.width - 1)], 0.0
        )

        r_idx = j[:, :, None] + np.arange(self.n)
        r = np.where(
            r_idx < steps[:, :, None],
            self.reward[seg[:, None, None], np.minimum(r_idx, self.width - 1)],
            0.0,
        )
        gamma = np.where(self.two_player[seg], -self.gamma, self.gamma)[:, None]
        value_prefix = (r * gamma[:, :, None] ** np.arange(self.n)).sum(-1)
        boot = np.minimum(j + self.n, steps)
        can_boot = in_ep & ((j + self.n < steps) | self.bootstrap_end[seg][:, None])
        coef = np.where(can_boot, gamma ** (boot - j).astype(np.float64), 0.0)
        target_policy = self.policy[col, jc] * in_ep[:, :, None]
        batch = {
            "obs": self.obs[seg, pos],
            "action": action,
            "target_reward": target_reward.astype(np.float32),
            "target_policy": target_policy,
            # a step stored without a policy target (a playout-capped fast search's: zeros)
            # enters the other losses only
            "policy_mask": (target_policy.sum(-1) > 0).astype(np.float32),
            "value_prefix": value_prefix.astype(np.float32),
            "bootstrap_obs": self.obs[col, boot],
            "bootstrap_coef": coef.astype(np.float32),
        }
        if self.consistency_targets:
            batch["target_obs"] = self.obs[col, pos[:, None] + np.arange(1, self.k + 1)]
            batch["episode_mask"] = in_ep.astype(np.float32)
        if self.symmetries is not None:
            self._transform(batch, self.rng.integers(0, len(self.symmetries[0]), batch_size))
        return batch

    def _transform(self, batch: dict[str, np.ndarray], sym: np.ndarray) -> None:
        """Puts sample ``b`` of ``batch`` under symmetry ``sym[b]``: its observations, the
        actions of its unroll and its policy targets together, so the unrolled trajectory is
        the transformed game's."""
        cells, actions = self.symmetries
        hw = cells.shape[1]
        rows = np.arange(len(sym))
        for key in ("obs", "bootstrap_obs", "target_obs"):
            if key not in batch:
                continue
            x = batch[key]
            planes = x.reshape(*x.shape[:-1], -1, hw)  # [B, (K + 1,) C, H * W]
            idx = cells[sym].reshape(len(sym), *([1] * (planes.ndim - 2)), hw)
            batch[key] = np.take_along_axis(planes, idx, axis=-1).reshape(x.shape)
        batch["action"] = self._inverse_actions[sym[:, None], batch["action"]]
        batch["target_policy"] = batch["target_policy"][
            rows[:, None, None],
            np.arange(batch["target_policy"].shape[1])[:, None],
            actions[sym][:, None, :],
        ]
