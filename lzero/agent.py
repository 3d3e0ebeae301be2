"""A trained checkpoint as a player: ``load_agent(path)`` with ``act(obs)`` and ``policy(obs)``.

An AlphaZero checkpoint (``train_alphazero``'s ``ckpt/*.pth.tar``) records its game (env type,
modules, config and sizes) and its policy config, so the agent (:class:`Agent`) rebuilds its
env's rules kernels and plays with the same search it was trained with. A board-game MuZero
checkpoint (``train_muzero``'s) records its merged config, from which :class:`MuZeroAgent`
rebuilds its policy and game::

    agent = load_agent("data_alphazero/connect4/ckpt/ckpt_best.pth.tar", num_simulations=200)
    action = agent.act(env.observe())   # the observation dict of the player to move
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import torch
from easydict import EasyDict

from lzero.envs.config import is_int
from lzero.envs.registry import create_env
from lzero.errors import ConfigError
from lzero.mcts.batched_search import check_fpu_reduction, root_legal
from lzero.model.frozen import inference_dtype as check_inference_dtype
from lzero.policy.alphazero import AlphaZeroPolicy
from lzero.policy.board_game import BoardGame
from lzero.utils.checkpoint_file import load_checkpoint_file, save_checkpoint_file

#: The ``kind`` of the checkpoints this module reads and writes.
CHECKPOINT_KIND = "lzero-alphazero"


def plain(value: Any) -> Any:
    """``value`` with every mapping a plain dict, for ``torch.load(weights_only=True)``."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


def save_checkpoint(
    path: str | Path, policy: AlphaZeroPolicy, create_env_cfg: Mapping, env_cfg: Mapping, **extra
) -> None:
    """Writes ``policy`` and the facts that rebuild it (its game and config) to ``path``
    (whole or not at all: :func:`lzero.utils.checkpoint_file.save_checkpoint_file`)."""
    g = policy.game
    save_checkpoint_file(
        {
            "kind": CHECKPOINT_KIND,
            **policy.state_dict(),
            "policy_config": plain(policy.cfg),
            "game": {
                "name": g.name,
                "height": g.height,
                "width": g.width,
                "action_size": g.action_size,
                "create_env": plain(create_env_cfg),
                "env_config": plain(env_cfg),
            },
            **extra,
        },
        path,
    )


def read_checkpoint(path: str | Path, what: str = "") -> dict:
    """The checkpoint at ``path``, checked to be an AlphaZero checkpoint of this project
    (``what``: the setting or option that named it, for the messages).

    Raises:
        ConfigError: ``path`` is not a file, not a torch checkpoint, or another kind of one.
    """
    state = load_checkpoint_file(path, "an AlphaZero checkpoint")
    return check_alphazero_state(state, path, what)


def check_alphazero_state(
    state: Any, path: str | Path, what: str = "", muzero_too: bool = False
) -> dict:
    """``state``, a checkpoint read from ``path``, if it is an AlphaZero checkpoint of this
    project; else a ConfigError saying what kind it is (``what``: the setting or option that
    named it, as the message's label; ``muzero_too``: the caller takes MuZero checkpoints as
    well, and has found this is none)."""
    if not isinstance(state, dict) or state.get("kind") != CHECKPOINT_KIND:
        if is_muzero_checkpoint(state):
            got = f"a MuZero checkpoint of {state['env']!r}"
        elif isinstance(state, dict) and "model" in state and "kind" not in state:
            # a MuZero checkpoint that records no env, or LightZero's: not "not this
            # project's" when its config can evaluate it
            got = (
                "a checkpoint with a 'model' and no kind: a MuZero one that does not record "
                "its env evaluates with its config (lzero eval CONFIG --ckpt PATH)"
            )
        elif isinstance(state, dict) and "kind" not in state:
            got = f"a dict of {sorted(map(str, state))[:5]} without a kind, not this project's"
        else:
            kind = state.get("kind") if isinstance(state, dict) else type(state).__name__
            got = f"a checkpoint of kind {kind!r}, not this project's"
        muzero = " or a MuZero one written by train_muzero" if muzero_too else ""
        raise ConfigError(
            f"{what + ': ' if what else ''}expected an AlphaZero checkpoint written by "
            f"train_alphazero (kind {CHECKPOINT_KIND!r}){muzero}, got {str(path)!r}, {got}"
        )
    return state


def is_muzero_checkpoint(state: Any) -> bool:
    """Whether a loaded checkpoint is ``train_muzero``'s (it records its ``env``)."""
    return isinstance(state, dict) and "kind" not in state and "env" in state and "model" in state


#: The default ``fpu_reduction`` of :class:`Agent` and :func:`load_agent`: the training
#: config's ``eval_fpu_reduction``.
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
        winner = line_winner(board, self.game.kernels.result_after)
        if winner:
            raise ValueError(
                f"expected a position of an unfinished game, got a finished game (player {winner} "
                "has a winning line on the board)"
            )
        legal = root_legal(board[None], self.game.kernels.legal_actions, self.game.action_size)[0]
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


def load_policy(
    path: str | Path, inference_dtype: str | None = None
) -> tuple[AlphaZeroPolicy, dict]:
    """The policy of an AlphaZero checkpoint, with the checkpoint's dict. ``inference_dtype``
    replaces the training config's (``policy.inference_dtype``) if given.

    Raises:
        ConfigError: not an AlphaZero checkpoint, its game no longer matches its env, or
            its search's dtype (or ``inference_dtype``) is not one this CPU runs.
    """
    return _policy_of(read_checkpoint(path), path, inference_dtype)


def _policy_of(
    state: dict, path: str | Path, inference_dtype: str | None
) -> tuple[AlphaZeroPolicy, dict]:
    g = state["game"]
    env = create_env(g["create_env"], g["env_config"])
    game = BoardGame.from_env(env)
    env.close()
    if (game.height, game.width, game.action_size) != (g["height"], g["width"], g["action_size"]):
        raise ConfigError(
            f"{str(path)!r}: expected its env to have the recorded sizes {g['height']}x{g['width']} "
            f"and {g['action_size']} actions, got {game.height}x{game.width} and {game.action_size}"
        )
    cfg = EasyDict(state["policy_config"])
    if inference_dtype is not None:
        cfg.inference_dtype = inference_dtype
    try:  # checked here, where the error can say which setting it was
        check_inference_dtype(cfg.get("inference_dtype", "float32"))  # .get: older checkpoints
    except ValueError as e:
        given = "given" if inference_dtype is not None else "of its training config"
        raise ConfigError(
            f"{str(path)!r}: the inference_dtype {given}: {e} (load_agent and load_policy take "
            "inference_dtype; on the command line lzero eval --dtype, lzero play and arena "
            "--agent-dtype)"
        ) from None
    policy = AlphaZeroPolicy(cfg, game)
    policy.load_state_dict(state)
    return policy, state


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
        from lzero.worker.muzero_board_evaluator import board_search_fn

        self._policy, self.game, self.two_player = policy, game, bool(two_player)
        self.num_simulations = 0 if raw_network else int(policy.cfg.num_simulations)
        self._search = board_search_fn(policy, game, two_player=self.two_player)

    def priors(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> np.ndarray:
        return self._network(boards, to_play, legal)[0]

    @torch.no_grad()
    def _network(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> tuple:
        """The network's move probabilities `[B, A]` over ``legal`` (uniform where it gives
        them none) and its values `[B]`, from the planes of the player to move."""
        planes = self.game.planes(boards, np.asarray(to_play, np.int64)).reshape(len(boards), -1)
        initial, _ = self._policy.inference_steps()
        _, values, probs = initial(torch.from_numpy(np.ascontiguousarray(planes, np.float32)))
        p = np.where(legal, probs.numpy().astype(np.float64), 0.0)
        total = p.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        priors = np.where(total > 0, p / np.where(total > 0, total, 1.0), uniform)
        return priors, np.asarray(values, np.float64).reshape(-1)

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


def load_agent(
    path: str | Path,
    num_simulations: int | None = None,
    contempt: float | None = None,
    inference_dtype: str | None = None,
    fpu_reduction: float | str | None = FROM_CONFIG,
    reuse_tree: bool = False,
    *,
    state: Any = None,
) -> BoardAgent:
    """The player of an AlphaZero checkpoint (:class:`Agent`) or of a board-game MuZero one
    (:class:`MuZeroAgent`).

    Args:
        path: a checkpoint written by ``train_alphazero``, or by ``train_muzero`` on a board
            game (MuZero checkpoints written before they recorded their config cannot be
            loaded without it: ``lzero eval CONFIG --ckpt PATH`` evaluates them); or
            ``pretrained:GAME``, the agent the package ships (:func:`load_pretrained`).
        num_simulations: simulations per move (default: the training config's
            ``eval_num_simulations``, else ``mcts.num_simulations``; MuZero's
            ``num_simulations``); 0 for the raw network.
        contempt: the search's draw aversion (:class:`Agent`); None: the config's.
        inference_dtype: the dtype of the search's forward passes ('float32', 'bfloat16',
            'auto'; AlphaZero's ``policy.inference_dtype``); None: the config's. A checkpoint
            trained in bfloat16 plays on a CPU without native bfloat16 with 'float32' or 'auto'.
        fpu_reduction: the search's first-play urgency reduction (:class:`Agent`); by default
            the config's ``eval_fpu_reduction``.
        reuse_tree: keep the subtrees of earlier searches (:class:`Agent`).
        state: the checkpoint as already read from ``path`` (for callers that read it to
            tell its kind); None: read ``path``.

    ``contempt``, ``inference_dtype``, ``fpu_reduction`` and ``reuse_tree`` are settings of
    AlphaZero's search; a MuZero checkpoint takes only their defaults.

    Raises:
        ConfigError: ``path`` is neither an AlphaZero checkpoint nor a board-game MuZero one
            with its config, the inference dtype is not one this CPU runs, or an AlphaZero
            setting was given for a MuZero checkpoint.
        ValueError: ``num_simulations`` is negative, or ``contempt``, ``fpu_reduction`` or
            ``reuse_tree`` as :class:`Agent` says.
    """
    if num_simulations is not None and (not is_int(num_simulations) or num_simulations < 0):
        raise ValueError(
            f"expected num_simulations to be an int >= 0 or None, got {num_simulations!r}"
        )
    from lzero.pretrained import resolve

    path = resolve(path)
    if state is None:
        state = load_checkpoint_file(path, "an AlphaZero or MuZero checkpoint")
    if is_muzero_checkpoint(state):
        given = {
            "contempt": contempt is not None,
            "inference_dtype": inference_dtype is not None,
            "fpu_reduction": not (isinstance(fpu_reduction, str) and fpu_reduction == FROM_CONFIG),
            "reuse_tree": reuse_tree is not False,
        }
        if any(given.values()):
            names = ", ".join(k for k, v in given.items() if v)
            raise ConfigError(
                f"{str(path)!r} is a MuZero checkpoint: expected none of AlphaZero's search "
                f"settings, got {names} (on the command line --agent-dtype, "
                "--agent-fpu-reduction, --agent-reuse-tree; lzero eval --dtype, --fpu-reduction, "
                "--reuse-tree)"
            )
        return _muzero_agent(state, path, num_simulations)
    policy, _ = _policy_of(
        check_alphazero_state(state, path, muzero_too=True), path, inference_dtype
    )
    if num_simulations is None:
        num_simulations = policy.cfg.eval_num_simulations or policy.cfg.mcts.num_simulations
    return Agent(
        policy, num_simulations, contempt=contempt, fpu_reduction=fpu_reduction,
        reuse_tree=reuse_tree,
    )  # fmt: skip


def load_pretrained(game: str, **kwargs: Any) -> BoardAgent:
    """The agent the package ships for ``game`` (:mod:`lzero.pretrained`; its recipe:
    ``lzero.pretrained.recipe(game)``), with :func:`load_agent`'s keyword arguments
    (``num_simulations=0``: the network alone).

    Raises:
        ConfigError: ``game`` has no shipped agent (the message names the games that have one);
            otherwise as :func:`load_agent`.
    """
    from lzero.pretrained import pretrained_path

    return load_agent(pretrained_path(game), **kwargs)


def _muzero_agent(state: dict, path: str | Path, num_simulations: int | None) -> MuZeroAgent:
    from lzero.entry import muzero_setup
    from lzero.entry.config import compile_config

    cfg = compile_config(muzero_setup.recorded_input_config(state, path))
    if not muzero_setup.is_board(cfg):
        raise ConfigError(
            f"{str(path)!r}: expected a checkpoint of a board game, got a MuZero checkpoint of "
            f"the gym task {state['env']!r} (lzero eval --ckpt PATH evaluates it on its task)"
        )
    if num_simulations:
        cfg.policy.num_simulations = int(num_simulations)
    policy = muzero_setup.make_policy(cfg)
    muzero_setup.apply_checkpoint(policy, state, path)
    two_player = cfg.env.get("battle_mode", "self_play_mode") == "self_play_mode"
    return MuZeroAgent(policy, policy.game, two_player=two_player, raw_network=num_simulations == 0)
