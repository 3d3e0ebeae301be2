"""Game segments: fixed-length slices of an episode with the search statistics of each step.

A collector keeps one :class:`EpisodeRecorder` per env. It cuts the running episode into
segments of ``segment_length`` sampleable steps, each followed by ``pad`` extra steps of the
same episode (``pad = num_unroll_steps + td_steps``), so every unroll and n-step value target
starting inside a segment can be computed from that segment alone, as in LightZero.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class GameSegment:
    """One slice of an episode; ``W = n_steps <= segment_length + pad``.

    Attributes:
        obs: `[W + 1, O]` observations; ``obs[t]`` is seen before ``action[t]``.
        action: `[W]` actions taken.
        reward: `[W]` rewards received.
        policy: `[W, A]` normalised root visit counts (the policy targets).
        root_value: `[W]` root values of the searches.
        to_play: `[W]` player to move at each step: 1 or 2 in a two-player game (rewards are
            then the mover's), -1 in a one-player task.
        n_valid: number of leading steps that may start a training sample.
        bootstrap_end: False when the episode truly terminates at ``obs[W]`` (value 0 after
            it); True when the slice stops early or the episode was truncated.
    """

    obs: np.ndarray
    action: np.ndarray
    reward: np.ndarray
    policy: np.ndarray
    root_value: np.ndarray
    to_play: np.ndarray
    n_valid: int
    bootstrap_end: bool


class EpisodeRecorder:
    """Accumulates one env's running episode and cuts it into :class:`GameSegment` s.

    Args:
        first_obs: `[O]` observation after reset.
        segment_length: sampleable steps per segment (LightZero's ``game_segment_length``).
        pad: extra steps stored after them.
    """

    def __init__(self, first_obs: np.ndarray, *, segment_length: int, pad: int) -> None:
        self.length, self.pad = int(segment_length), int(pad)
        self.obs = [np.asarray(first_obs, np.float32)]
        self.action: list[int] = []
        self.reward: list[float] = []
        self.policy: list[np.ndarray] = []
        self.root_value: list[float] = []
        self.to_play: list[int] = []

    def append(
        self,
        action: int,
        reward: float,
        next_obs: np.ndarray,
        policy: np.ndarray,
        root_value: float,
        to_play: int = -1,
    ) -> None:
        """Records one step: the action chosen at the last observation (by ``to_play``) and
        what followed."""
        self.action.append(int(action))
        self.reward.append(float(reward))
        self.policy.append(np.asarray(policy, np.float32))
        self.root_value.append(float(root_value))
        self.to_play.append(int(to_play))
        self.obs.append(np.asarray(next_obs, np.float32))

    def _cut(self, n_steps: int, n_valid: int, bootstrap_end: bool) -> GameSegment:
        return GameSegment(
            np.stack(self.obs[: n_steps + 1]),
            np.array(self.action[:n_steps], np.int64),
            np.array(self.reward[:n_steps], np.float32),
            np.stack(self.policy[:n_steps]),
            np.array(self.root_value[:n_steps], np.float32),
            np.array(self.to_play[:n_steps], np.int64),
            n_valid,
            bootstrap_end,
        )

    def _drop(self, n: int) -> None:
        for seq in (self.obs, self.action, self.reward, self.policy, self.root_value, self.to_play):
            del seq[:n]

    def ready_segments(self) -> list[GameSegment]:
        """Returns the segments whose padding is complete; call after every step."""
        out = []
        while len(self.action) >= self.length + self.pad:
            out.append(self._cut(self.length + self.pad, self.length, True))
            self._drop(self.length)
        return out

    def final_segments(self, *, truncated: bool) -> list[GameSegment]:
        """Returns the remaining segments once the episode is over.

        Args:
            truncated: the episode was cut by a time limit, so its last observation has a
                value worth bootstrapping from.
        """
        out = []
        while self.action:
            n = len(self.action)
            out.append(self._cut(n, min(self.length, n), truncated))
            self._drop(min(self.length, n))
        return out
