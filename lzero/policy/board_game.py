"""A board game as AlphaZero sees it: its rules kernels, its observation planes, its symmetries.

The game is handed over by its env (``BoardGame.from_env``): ``lzero`` never imports ``zoo``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from lzero.envs.config import check_nonnegative_int
from lzero.errors import ConfigError
from lzero.mcts.game import GameKernels
from lzero.model.line_features import board_input


def check_search_rules(section: Any, *, where: str) -> None:
    """Raises ConfigError unless the rule settings of a board search in ``section`` (a config
    mapping with ``radius``, ``tactics``, ``threat_depth`` and ``three_depth``, as
    ``lzero.mcts.BatchedSearch`` takes them) are in range; ``where`` names the section."""
    check_nonnegative_int(section, "radius", where=where)
    if not isinstance(section.tactics, bool):
        raise ConfigError(f"{where}: expected tactics to be True or False, got {section.tactics!r}")
    depth = check_nonnegative_int(section, "threat_depth", where=where)
    three = section.three_depth
    if isinstance(three, bool) or not isinstance(three, int) or three < 0 or (three and not depth):
        raise ConfigError(
            f"{where}: expected three_depth to be an int >= 0, and 0 unless threat_depth >= 1, "
            f"got three_depth={three!r} with threat_depth={depth!r}"
        )


class BoardGame(NamedTuple):
    """Static facts of one board game and the kernels the search runs on.

    Attributes:
        name: the game's registry name (``'tictactoe'``, ``'connect4'``, ``'gomoku'``).
        kernels: the rules kernels as ``lzero.mcts.GameKernels``.
        height, width, action_size: ``H``, ``W``, ``A``.
        gravity: an action is a column (Connect4); else it is the cell ``row * W + col``.
        scale: the env's ``scale`` setting (planes hold 0.5 for a stone, ``to_play / 2``).
        position_result: the game's ``(board) -> result code`` of a position judged whole,
            or None for a game judged by its lines (``BoardRules.position_result``).
    """

    name: str
    kernels: GameKernels
    height: int
    width: int
    action_size: int
    gravity: bool
    scale: bool
    position_result: Any = None

    @classmethod
    def from_env(cls, env: Any) -> BoardGame:
        """The game of a board env (anything with a ``rules`` record and a ``_cfg.scale``)."""
        rules = env.rules
        kernels = GameKernels.from_rules(rules)
        return cls(
            rules.name, kernels, rules.height, rules.width, rules.action_size,
            bool(rules.gravity), bool(env._cfg.scale), getattr(rules, "position_result", None),
        )  # fmt: skip

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        return (3, self.height, self.width)

    def planes(self, boards: np.ndarray, to_play: np.ndarray) -> np.ndarray:
        """The env's observation planes `[B, 3, H, W]` float32 of ``boards`` `[B, H, W]` for
        the players ``to_play`` `[B]` (LightZero's layout: the mover's stones, the opponent's,
        a plane filled with the mover's id; all halved when ``scale``), by the env's own
        kernel."""
        return self.network_input(boards, to_play)

    def network_input(
        self,
        boards: np.ndarray,
        to_play: np.ndarray,
        line_features: int = 0,
        rows=None,
        *,
        directions: bool = False,
    ) -> np.ndarray:
        """A network's input of ``boards[rows]`` `[m, H, W]` for ``to_play[rows]`` (all rows if
        None) in one numba pass: :meth:`planes`, followed with ``line_features`` k by their
        window-count planes (``lzero.model.line_features``; with ``directions`` the direction
        planes too): `[m, 3 (+ 6 or 10), H, W]` float32."""
        return board_input(
            boards, to_play, scale=self.scale, k=line_features, rows=rows, directions=directions
        )

    def boards_from_planes(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The inverse of :meth:`planes`: ``(boards [B, H, W] int8, to_play [B] int64)`` of
        observation planes `[B, 3 * H * W]` or `[B, 3, H, W]`.

        Raises:
            ValueError: planes that :meth:`planes` cannot have made (a shape other than the
                game's, a mover other than 1 or 2, a cell other than empty or one stone).
        """
        planes = np.asarray(planes)
        b = planes.shape[0] if planes.ndim else 0
        if planes.size != b * 3 * self.height * self.width or planes.ndim not in (2, 4):
            raise ValueError(
                f"expected observation planes [B, {3 * self.height * self.width}] or [B, 3, "
                f"{self.height}, {self.width}], got shape {planes.shape}"
            )
        planes = planes.reshape(b, 3, self.height, self.width)
        factor = 0.5 if self.scale else 1.0
        stones = planes[:, :2] / factor
        to_play = planes[:, 2, 0, 0] / factor
        bad = ~np.isin(stones, (0, 1)).reshape(b, -1).all(axis=1)
        bad |= (stones[:, 0] + stones[:, 1] > 1).reshape(b, -1).any(axis=1)
        bad |= ~np.isin(to_play, (1, 2))
        bad |= (planes[:, 2] != planes[:, 2, :1, :1]).reshape(b, -1).any(axis=1)
        if bad.any():
            raise ValueError(
                f"expected the planes of a board (stones {factor:g} or 0, never both planes at "
                f"one cell, the third plane filled with {factor:g} or {2 * factor:g}: the mover), "
                f"got other values in row {int(np.flatnonzero(bad)[0])}"
            )
        to_play = to_play.astype(np.int64)
        mover = to_play.reshape(-1, 1, 1)
        boards = (stones[:, 0] * mover + stones[:, 1] * (3 - mover)).astype(np.int8)
        return boards, to_play

    @property
    def num_symmetries(self) -> int:
        """Exact symmetries of the rules: the horizontal mirror under gravity, the 8 of the
        square (4 of a rectangle) for placement games."""
        if self.gravity:
            return 2
        return 8 if self.height == self.width else 4

    def symmetry(
        self, planes: np.ndarray, policy: np.ndarray, k: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Applies symmetry ``k`` (0 is the identity) to planes `[B, C, H, W]` and policy
        targets `[B, A]` together, so that the policy of a transformed board is the
        transformed policy. A pass (the action after the cells) maps to itself."""
        if k == 0:
            return planes, policy
        if self.gravity:  # k == 1: mirror the columns
            return planes[..., ::-1].copy(), policy[:, ::-1].copy()
        b, cells = policy.shape[0], self.height * self.width
        if policy.shape[1] > cells:
            planes, grid = self.symmetry(planes, policy[:, :cells], k)
            return planes, np.concatenate([grid, policy[:, cells:]], axis=1)
        grid = policy.reshape(b, self.height, self.width)
        if self.height == self.width:
            rot, flip = k % 4, k >= 4
            planes, grid = np.rot90(planes, rot, axes=(2, 3)), np.rot90(grid, rot, axes=(1, 2))
        else:  # 1: flip rows, 2: flip columns, 3: both
            rot, flip = 0, False
            if k & 1:
                planes, grid = planes[:, :, ::-1], grid[:, ::-1]
            if k & 2:
                planes, grid = planes[..., ::-1], grid[..., ::-1]
        if flip:
            planes, grid = planes[..., ::-1], grid[..., ::-1]
        return np.ascontiguousarray(planes), np.ascontiguousarray(grid).reshape(b, -1)

    def symmetry_permutations(self) -> tuple[np.ndarray, np.ndarray]:
        """The symmetries as index maps: ``cells`` `[S, H * W]` and ``actions`` `[S, A]` int64,
        where symmetry ``k`` takes a plane's flat cell ``j`` from cell ``cells[k, j]`` and a
        policy's action ``j`` from action ``actions[k, j]`` (what :meth:`symmetry` does, for
        callers that transform whole trajectories by fancy indexing)."""
        hw = self.height * self.width
        planes = np.arange(hw, dtype=np.float64).reshape(1, 1, self.height, self.width)
        policy = np.arange(self.action_size, dtype=np.float64)[None]
        cells = np.empty((self.num_symmetries, hw), np.int64)
        actions = np.empty((self.num_symmetries, self.action_size), np.int64)
        for k in range(self.num_symmetries):
            p, a = self.symmetry(planes, policy, k)
            cells[k], actions[k] = p.reshape(-1), a[0]
        return cells, actions
