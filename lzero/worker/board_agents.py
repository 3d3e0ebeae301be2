"""A checkpoint's network and search as a player of its board game: :class:`Agent`
(AlphaZero's), :class:`MuZeroAgent` (a board-game MuZero's), both ``act(obs)``,
``policy(obs)`` and ``analyze(obs)`` over the env's observation dict. ``lzero.agent`` loads them
from a checkpoint file (``load_agent``) and re-exports these names.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from lzero.envs.config import is_int
from lzero.errors import ConfigError
from lzero.mcts.batched_search import check_fpu_reduction, root_legal
from lzero.policy.alphazero import AlphaZeroPolicy
from lzero.policy.alphazero_checkpoint import load_policy
from lzero.policy.board_game import BoardGame
from lzero.worker.muzero_board_evaluator import board_network_fn, board_search_fn

#: The default ``fpu_reduction`` of :class:`Agent` and ``lzero.agent.load_agent``: the
#: training config's ``eval_fpu_reduction``.
FROM_CONFIG = "config"


def line_winner(board: np.ndarray, result_after: Any) -> int:
    """The player (1 or 2) with a winning line on ``board`` `[H, W]`, 0 if neither has one:
    the game's ``result_after`` kernel asked about every stone on the board, as if it had
    just been played."""
    for cell in np.flatnonzero(board):
        player = int(board.flat[cell])
        if result_after(board, int(cell), player, 0) == player:
            return player
    return 0


class AgentView(NamedTuple):
    """What an agent thinks of one position (:meth:`BoardAgent.analyze`).

    Attributes:
        action: the move it plays.
        policy: `[A]` float64 summing to 1 over the legal moves: the search's visit shares
            (MuZero's Gumbel search: its improved policy), or the network's probabilities when
            it plays without a search.
        value: the position's value for the player to move, in ``[-1, 1]``: the search's root
            value, or the network's.
        num_simulations: simulations behind ``policy`` and ``value`` (0: the network alone).
    """

    action: int
    policy: np.ndarray
    value: float
    num_simulations: int


class BoardAgent:
    """What every checkpoint player does: read the env's observation dict, check it, and ask
    :meth:`act_batch` (the subclass's search) for the move. Subclasses set ``game`` (the
    ``lzero.policy.board_game.BoardGame``), ``num_simulations`` and the two methods below.
    """

    game: BoardGame
    num_simulations: int

    def check_game(self, name: str, board_shape: tuple[int, int]) -> None:
        """Raises ConfigError unless the agent was trained on ``name`` with ``board_shape``."""
        mine = (self.game.height, self.game.width)
        if name != self.game.name or tuple(board_shape) != mine:
            raise ConfigError(
                f"expected a checkpoint of {name} on a {board_shape[0]}x{board_shape[1]} board, got "
                f"one of {self.game.name} on a {mine[0]}x{mine[1]} board"
            )

    def _state(self, obs: Mapping) -> tuple[np.ndarray, int, np.ndarray]:
        if not isinstance(obs, Mapping) or "board" not in obs:
            raise ValueError(
                "expected the env's observation dict (with 'board' and 'to_play'), got "
                f"{type(obs).__name__}"
            )
        board = np.asarray(obs["board"], np.int8)
        if board.shape != (self.game.height, self.game.width):
            raise ValueError(
                f"expected a board of shape {(self.game.height, self.game.width)}, got {board.shape}"
            )
        to_play = int(obs.get("to_play", -1))
        if to_play not in (1, 2):
            to_play = int(obs.get("current_player_index", 0)) + 1
        if self.game.position_result is not None:  # a game judged whole (Othello's count)
            if self.game.position_result(board) != 0:
                raise ValueError(
                    "expected a position of an unfinished game, got a finished game (neither "
                    "player has a move)"
                )
        elif winner := line_winner(board, self.game.kernels.result_after):
            raise ValueError(
                f"expected a position of an unfinished game, got a finished game (player {winner} "
                "has a winning line on the board)"
            )
        legal = root_legal(
            board[None], [to_play], self.game.kernels.legal_actions, self.game.action_size
        )[0]
        if not legal.any():
            raise ValueError("expected a position with a legal move, got a finished game")
        return board, to_play, legal

    def policy(self, obs: Mapping) -> np.ndarray:
        """The network's move probabilities `[A]` over the legal moves (no search)."""
        board, to_play, legal = self._state(obs)
        return self.priors(board[None], np.array([to_play]), legal[None])[0]

    def act(self, obs: Mapping) -> int:
        """The agent's move in ``obs`` (the observation dict of the player to move)."""
        board, to_play, legal = self._state(obs)
        return int(self.act_batch(board[None], np.array([to_play]), legal[None])[0])

    def analyze(self, obs: Mapping) -> AgentView:
        """The move the agent plays in ``obs`` and why: its search's visit shares and value
        (an analysis panel's view; :meth:`act` plays the same move)."""
        board, to_play, legal = self._state(obs)
        return self.view_batch(board[None], np.array([to_play]), legal[None])

    def priors(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """The network's move probabilities `[B, A]` for positions `[B, H, W]`, 0 off ``legal``."""
        raise NotImplementedError

    def view_batch(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> AgentView:
        """:meth:`analyze` of one position given as arrays `[1, H, W]`, `[1]`, `[1, A]`."""
        raise NotImplementedError

    def act_batch(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Moves `[B]` for positions `[B, H, W]` (``lzero.worker.alphazero_evaluator.ActFn``)."""
        raise NotImplementedError


class Agent(BoardAgent):
    """An AlphaZero checkpoint's network and search as a player of its game.

    Args:
        policy: the loaded ``AlphaZeroPolicy``.
        num_simulations: simulations per move; 0 plays the network's most probable legal move.
        averaged: play the moving average of the network's weights if the policy keeps one
            (``ema_decay``); False: the network itself.
        contempt: the search's ``contempt`` (a draw valued at ``-contempt`` for the agent;
            :meth:`lzero.mcts.batched_search.BatchedSearch.search`); None: the config's
            ``contempt`` (0 in checkpoints written before it).
        fpu_reduction: the search's first-play urgency reduction
            (:meth:`lzero.mcts.batched_search.BatchedSearch.search`): None for AlphaZero's
            value 0 of an untried move, a number >= 0 for its node's value less that
            reduction; ``FROM_CONFIG``: the config's ``eval_fpu_reduction`` (None in
            checkpoints written before it).
        reuse_tree: start each search from what the agent's earlier searches found below the
            position (``BatchedSearch.search(reuse_tree=True)``: its last two searches' trees
            are kept), adding ``num_simulations``; False: every search starts afresh.

    Raises:
        ValueError: ``contempt`` outside ``[0, 1]``, or above 0 for a network without
            ``model.draw_head``; ``fpu_reduction`` not ``FROM_CONFIG``, None or a finite
            number >= 0; ``reuse_tree`` not a bool.
    """

    def __init__(
        self,
        policy: AlphaZeroPolicy,
        num_simulations: int,
        averaged: bool = True,
        contempt: float | None = None,
        fpu_reduction: float | str | None = FROM_CONFIG,
        reuse_tree: bool = False,
    ) -> None:
        if not isinstance(reuse_tree, (bool, np.bool_)):
            raise ValueError(f"expected reuse_tree True or False, got {reuse_tree!r}")
        self.reuse_tree = bool(reuse_tree)
        self._policy, self.game, self.num_simulations = policy, policy.game, int(num_simulations)
        self._evaluate = policy.evaluator(averaged)
        if contempt is None:
            contempt = float(policy.cfg.get("contempt", 0.0))  # .get: older checkpoints
        if isinstance(contempt, bool) or not 0.0 <= float(contempt) <= 1.0:
            raise ValueError(f"expected contempt in [0, 1] or None, got {contempt!r}")
        if contempt and not policy.model.draw_head:
            raise ValueError(
                f"expected contempt 0 for a network without a draw head (model.draw_head), "
                f"got {contempt!r}"
            )
        self.contempt = float(contempt)
        if isinstance(fpu_reduction, str) and fpu_reduction == FROM_CONFIG:
            fpu_reduction = policy.cfg.get("eval_fpu_reduction")  # .get: older checkpoints
        fpu = check_fpu_reduction(fpu_reduction, "fpu_reduction")
        self.fpu_reduction = None if fpu < 0 else fpu

    def priors(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        return self._evaluate(boards, to_play, legal)[0]

    def act_batch(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Moves `[B]` for positions `[B, H, W]` (``lzero.worker.alphazero_evaluator.ActFn``)."""
        if self.num_simulations == 0:
            return np.where(legal, self.priors(boards, to_play, legal), -1.0).argmax(axis=1)
        return self._search(boards, to_play).action  # most visited, or Gumbel's halving winner

    def view_batch(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> AgentView:
        if self.num_simulations == 0:
            priors, values = self._evaluate(boards, to_play, legal)[:2]
            policy = np.where(legal[0], np.asarray(priors[0], np.float64), 0.0)
            return AgentView(
                int(np.where(legal[0], policy, -1.0).argmax()), policy, float(values[0]), 0
            )
        result = self._search(boards, to_play)
        visits = result.visits[0].astype(np.float64)
        return AgentView(
            int(result.action[0]), visits / visits.sum(), float(result.value[0]), int(visits.sum())
        )

    def _search(self, boards: np.ndarray, to_play: np.ndarray):
        with self._policy.pinned():  # the weights are checked once, not at every evaluation
            return self._policy.search.search(
                boards,
                np.asarray(to_play, np.int64),
                self._evaluate,
                num_simulations=self.num_simulations,
                contempt=self.contempt,
                fpu_reduction=self.fpu_reduction,
                reuse_tree=self.reuse_tree,
            )


class MuZeroAgent(BoardAgent):
    """A board-game MuZero checkpoint's model and search as a player of its game.

    It plays as MuZero's evaluation does (``lzero.worker.muzero_board_evaluator``): the most
    visited move of a search without noise, from the observation planes the env gives the
    player to move, the root's moves narrowed by the rules when the config's ``policy.mcts``
    asks for it. An agent trained in ``self_play_mode`` searches a two-player tree; one trained
    against the env's bot (``play_with_bot_mode``, as the first player) a one-player tree, on
    either colour.

    Args:
        policy: the loaded ``MuZeroPolicy``; its config's ``num_simulations`` per move.
        game: the board game it was trained on.
        two_player: whether it was trained in ``self_play_mode``.
        raw_network: play the network's most probable legal move without a search.
    """

    def __init__(
        self, policy: Any, game: BoardGame, *, two_player: bool, raw_network: bool = False
    ) -> None:
        self._policy, self.game, self.two_player = policy, game, bool(two_player)
        self.num_simulations = 0 if raw_network else int(policy.cfg.num_simulations)
        self._search = board_search_fn(policy, game, two_player=self.two_player)
        self._network = board_network_fn(policy, game)

    def priors(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        return self._network(boards, to_play, legal)[0]

    def act_batch(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Moves `[B]` for positions `[B, H, W]` (``lzero.worker.alphazero_evaluator.ActFn``)."""
        if self.num_simulations == 0:
            return np.where(legal, self.priors(boards, to_play, legal), -1.0).argmax(axis=1)
        return self._search(boards, to_play, legal)[0]

    def view_batch(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> AgentView:
        if self.num_simulations == 0:
            priors, values = self._network(boards, to_play, legal)
            action = int(np.where(legal[0], priors[0], -1.0).argmax())
            return AgentView(action, priors[0], float(values[0]), 0)
        actions, shares, values = self._search(boards, to_play, legal)
        policy = np.asarray(shares[0], np.float64)
        return AgentView(int(actions[0]), policy, float(values[0]), self.num_simulations)


def check_num_simulations(num_simulations: Any) -> None:
    """Raises ValueError unless ``num_simulations`` is None or an int >= 0."""
    if num_simulations is not None and (not is_int(num_simulations) or num_simulations < 0):
        raise ValueError(
            f"expected num_simulations to be an int >= 0 or None, got {num_simulations!r}"
        )


def load_alphazero_agent(
    path: str | Path,
    num_simulations: int | None = None,
    contempt: float | None = None,
    inference_dtype: str | None = None,
    fpu_reduction: float | str | None = FROM_CONFIG,
    reuse_tree: bool = False,
    *,
    state: dict | None = None,
) -> Agent:
    """The player of an AlphaZero checkpoint: ``lzero.agent.load_agent`` of one (see there
    for the arguments), without ``pretrained:GAME`` names and MuZero checkpoints; ``state``:
    the checkpoint as already read from ``path`` and checked
    (``lzero.policy.alphazero_checkpoint.check_alphazero_state``), or None to read it.

    Raises:
        ConfigError: not an AlphaZero checkpoint, or as ``load_policy``.
        ValueError: ``num_simulations`` is negative, or as :class:`Agent`.
    """
    check_num_simulations(num_simulations)
    policy, _ = load_policy(path, inference_dtype, state=state)
    if num_simulations is None:
        num_simulations = policy.cfg.eval_num_simulations or policy.cfg.mcts.num_simulations
    return Agent(
        policy, num_simulations, contempt=contempt, fpu_reduction=fpu_reduction,
        reuse_tree=reuse_tree,
    )  # fmt: skip
