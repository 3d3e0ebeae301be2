"""``BoardGameEnv``: the one env class behind TicTacToe, Connect4 and Gomoku.

It owns battle modes, observations, bots, rendering, replays and human input; a game subclass
only names its rules kernel (:class:`~zoo.board_games.common.rules.BoardRules`), its numba
rule bot, how people type its moves, and its defaults. No game logic lives here.

Modes (``battle_mode``), as in LightZero:

* ``self_play_mode``: each ``step`` plays one move for the player to move; the reward is +1 at
  the winning step (for its mover), -1 at a losing one (a game decided by a count, Othello),
  else 0; ``eval_episode_return`` is from player 1's view.
* ``play_with_bot_mode``: the agent is player 1; each ``step`` plays its move and then the
  bot's reply; the reward is +1 if the agent wins, -1 if the bot wins, else 0;
  ``info['next player to play']`` is the player to move after the step (LightZero's key).
* ``eval_mode``: as ``play_with_bot_mode``; with ``agent_vs_human`` a person at the terminal
  replies instead of the bot.
"""

from __future__ import annotations

import numpy as np
from easydict import EasyDict
from gymnasium import spaces

from lzero.envs import BaseEnv, BaseEnvTimestep
from lzero.envs.board_step import episode_streams, move_reward
from lzero.errors import ConfigError, GameOverError
from lzero.utils.nbrng import int63_seed, make_rng_state, uniform
from lzero.utils.replay_io import check_replay_dir
from zoo.board_games import env_outputs, human_input, render
from zoo.board_games.board_config import BOARD_GAME_CONFIG, apply_lightzero_keys
from zoo.board_games.common.rules import ONGOING, BoardRules
from zoo.board_games.drawing import BoardStyle
from zoo.board_games.env_outputs import OutputSets
from zoo.board_games.env_support import (
    check_action,
    check_board,
    check_choice,
    check_config,
    check_start_index,
    position_result,
    resolve_bot_type,
    validate_init_state,
)
from zoo.board_games.fused import entry_points
from zoo.board_games.lightzero_methods import LightZeroBoardMethods
from zoo.board_games.recording import AUTO_RENDER_MODES, RENDER_MODES, BoardRecordingMethods

BATTLE_MODES = ("self_play_mode", "play_with_bot_mode", "eval_mode")
_REWARD = {r: np.array([r], dtype=np.float32) for r in (-1.0, 0.0, 1.0)}
_empty, _FLOAT32, _INT8 = np.empty, np.dtype(np.float32), np.dtype(np.int8)  # hot-path names
_new_timestep = tuple.__new__  # BaseEnvTimestep(...) without namedtuple's Python __new__


class BoardGameEnv(LightZeroBoardMethods, BoardRecordingMethods, BaseEnv):
    """A two-player board game over a numba rules kernel, following the BaseEnv contract.

    Subclasses set ``rules`` (or override :meth:`make_rules`), ``rule_bot``, ``move_style``,
    ``bot_types`` and extend ``config``.
    """

    rules: BoardRules
    rule_bot = None  # njit (board [H, W] int8, player, rng_state) -> action
    #: (board [H, W], player) -> bool [A]: the moves the perfect bot picks from (at random)
    perfect_moves = None
    #: njit (board, player, rng_state) -> action: an alpha-beta bot that is not perfect (a
    #: depth-limited search); None: ``alpha_beta`` plays ``perfect_moves``.
    alpha_beta_bot = None
    #: Mark the legal moves on the board and show the disc counts (Othello).
    mark_legal = False
    #: The ``board_size`` values the game may be played at; empty: one size only.
    board_sizes: tuple = ()
    #: () -> njit (board, player, rng_state) -> action: the perfect bot for the numba pool
    pool_perfect_bot = None
    #: (board [H, W] int8, to_play) -> list [A]: the exact score of each move for the player to
    #: move (above 0 a win, 0 a draw, below 0 a loss; None: illegal), for analysis; None: the
    #: game has no solver. :meth:`check_exact_scores` says whether it can run here.
    exact_scores = None
    move_style = "cell"
    #: Why a move on the board is illegal, in a person's words (None: the cell is taken or
    #: the column is full, which is all that can make a move illegal in a k-in-a-row game).
    illegal_move_reason: str | None = None
    bot_types: tuple = ("rule", "mcts", "random")
    #: LightZero's older bot names, accepted so its configs port unchanged.
    bot_aliases = {"v0": "rule", "v1": "rule", "alpha_beta_pruning": "alpha_beta"}
    config = BOARD_GAME_CONFIG

    def __init__(self, cfg: dict | None = None) -> None:
        super().__init__(cfg)
        cfg = self._cfg
        cfg.bot_action_type = resolve_bot_type(
            cfg.bot_action_type, self.bot_types, self.bot_aliases, self.rules.name
        )
        apply_lightzero_keys(cfg, self.rules.name)
        check_config(cfg, BATTLE_MODES, self.bot_types, RENDER_MODES)
        self.check_bot_available(cfg.bot_action_type)  # before any move needs it
        self.rules = rules = self.make_rules(cfg)
        self.bot_action_type = cfg.bot_action_type
        #: LightZero's AlphaZero MCTS sets ``battle_mode`` to this on its simulation envs.
        self.battle_mode_in_simulation_env = cfg.battle_mode_in_simulation_env
        self.agent_vs_human, self.render_mode = bool(cfg.agent_vs_human), cfg.render_mode
        self.replay_path = cfg.replay_path
        h, w, a = rules.height, rules.width, rules.action_size
        self._channel_last = bool(cfg.channel_last)
        self._obs_shape = (h, w, 3) if self._channel_last else (3, h, w)
        self._fill = (0.0, 0.5, 1.0) if cfg.scale else (0.0, 1.0, 2.0)  # plane 2, by player
        self._p_random, self._p_expert = cfg.prob_random_agent, cfg.prob_expert_agent
        self.battle_mode = cfg.battle_mode
        self._bind_kernels()
        self._consts = (self._fill[1], self._channel_last)  # fused_step's
        self._board_shape, self._mask_shape = (h, w), (a,)
        self._board = np.zeros((h, w), np.int8)
        self._start = None if rules.initial_board is None else rules.start_board()
        self._mask = np.zeros(a, np.int8)
        # The arrays the kernels write observations into (see ``env_outputs``).
        self._outputs = OutputSets(self._obs_shape, self._board_shape, self._mask_shape)
        self._player, self._num_moves, self._result, self._last_cell = 1, 0, ONGOING, -1
        self._done, self._episode, self._replay_suffix = True, 0, None
        self._started = False  # reset() (or a position set: board, reset_v2) starts a game
        self.start_player_index = 0  # LightZero's: the index in ``players`` of the opener
        # Two generator streams, views of one array: the env's own draws (bots, prob_*) and the
        # caller's random_action(), so replaying the same agent actions replays the same game.
        self._streams = np.zeros(2, np.uint64)
        self._rng_state, self._agent_rng_state = self._streams[0:1], self._streams[1:2]
        self._seed_state = make_rng_state(int(np.random.default_rng().integers(0, 2**63 - 1)))
        self._static_seed = 0
        episode_streams(self._seed_state, True, 0, self._streams)
        self._bots: dict = {}
        rows, cols = human_input.axis_labels(self.move_style, h, w)
        style = BoardStyle(
            rules.gravity, self.piece_letters, rows, cols, rules.win_length, cfg.screen_scaling,
            self.mark_legal,
        )  # fmt: skip
        self._recorder = render.BoardRecorder(rules.name, style)
        #: Path of the last GIF written in ``image_savefile_mode`` (None before the first).
        self.last_replay_file: str | None = None
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self._fill[2], self._obs_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (a,), np.int8),
                "board": spaces.Box(0, 2, (h, w), np.int8),
                "current_player_index": spaces.Discrete(2),
                "to_play": spaces.Discrete(4, start=-1),
            }
        )
        self._action_space = spaces.Discrete(a)
        self._reward_space = spaces.Box(-1.0, 1.0, (1,), np.float32)

    @classmethod
    def check_bot_available(cls, kind: str) -> None:
        """Raises ConfigError, saying what to install, if the ``kind`` bot (one of
        ``bot_types``) needs something that is not installed; the game's bots here need
        nothing."""

    def check_exact_scores(self) -> None:
        """Raises ConfigError, saying why, if ``exact_scores`` cannot be used here (the game
        has no solver, or it needs what is not installed)."""
        if self.exact_scores is None:
            raise ConfigError(f"{self.rules.name} has no exact solver")

    def _bind_kernels(self) -> None:
        # Compiled entry points, not dispatchers: see ``fused.py`` (about 0.3 us a call).
        fast = entry_points(self.rules)
        self._play_fn, self._step_fn, self._reset_fn = fast.play, fast.step, fast.reset
        self._step_into_fn = fast.step_into
        self._random_fn, self._planes_fn = fast.random_move, fast.planes

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        for key in ("_play_fn", "_step_fn", "_step_into_fn", "_reset_fn", "_random_fn",
                    "_planes_fn", "_outputs"):  # fmt: skip
            state.pop(key, None)  # compiled wrappers do not pickle; rebound on load
        return state

    def __setstate__(self, state: dict) -> None:
        # Copies and unpickling keep the two generator streams views of ``_streams``, and get
        # output arrays of their own (a shallow copy would share the sets with the original).
        self.__dict__.update(state)
        self._rng_state, self._agent_rng_state = self._streams[0:1], self._streams[1:2]
        self._outputs = OutputSets(self._obs_shape, self._board_shape, self._mask_shape)
        self._bind_kernels()

    @property
    def board(self) -> np.ndarray:
        """The position, `[H, W]` int8: 0 empty, 1 and 2 the players' stones (row 0 on top)."""
        return self._board

    @board.setter
    def board(self, value) -> None:
        """Sets the position, as LightZero code does (`[H, W]` or flat `[H * W]`, 0/1/2); the
        legal mask, ``legal_actions``, ``get_done_winner`` and ``step`` follow it, judged from
        the whole board. The player to move is kept (set ``current_player`` to change it).

        Raises:
            ValueError: wrong shape or values, or a floating stone (gravity).
        """
        board = check_board(value, self.rules, name="board")  # a copy, int8 and C-ordered
        self._board, self._last_cell, self._started = board, -1, True
        self._num_moves = int(np.count_nonzero(board))
        self._result = position_result(board, self.rules)
        self._done = self._result != ONGOING
        if self._done:
            self._mask[:] = 0
        else:
            self.rules.legal_mask(board, self._player, self._mask)

    @property
    def has_pass(self) -> bool:
        """True if the game has a pass move (the action ``H * W``, after the cells)."""
        rules = self.rules
        return not rules.gravity and rules.action_size == rules.height * rules.width + 1

    @property
    def battle_mode(self) -> str:
        """One of ``BATTLE_MODES``; settable, as LightZero's AlphaZero MCTS does on its
        simulation envs (``env.battle_mode = env.battle_mode_in_simulation_env``)."""
        return self._battle_mode

    @battle_mode.setter
    def battle_mode(self, mode: str) -> None:
        check_choice("battle_mode", "battle mode", mode, BATTLE_MODES)
        self._battle_mode = mode
        self._self_play = mode == "self_play_mode"
        self._plain_self_play = self._self_play and not (self._p_random or self._p_expert)

    @property
    def mcts_bot_num_simulations(self) -> int:
        """The MCTS bot's rollouts a move (the config key of that name)."""
        return int(self._cfg.mcts_bot_num_simulations)

    @staticmethod
    def create_evaluator_env_cfg(cfg: dict) -> list[EasyDict]:
        """One config per evaluator env (``cfg.evaluator_env_num``), each in ``eval_mode``: as
        in LightZero's board envs, evaluation plays the env's bot. ``cfg`` is not modified."""
        cfgs = BaseEnv.create_evaluator_env_cfg(cfg)
        for c in cfgs:
            c.battle_mode = "eval_mode"
        return cfgs

    @classmethod
    def make_rules(cls, cfg) -> BoardRules:
        """The game's rules for ``cfg`` (Gomoku builds them from ``board_size``)."""
        return cls.rules

    @property
    def observation_space(self) -> spaces.Dict:
        return self._observation_space

    @property
    def action_space(self) -> spaces.Discrete:
        return self._action_space

    @property
    def reward_space(self) -> spaces.Box:
        return self._reward_space

    # ------------------------------------------------------------------ episode
    def reset(
        self,
        start_player_index: int = 0,
        init_state=None,
        replay_name_suffix=None,
        *,
        katago_policy_init: bool = False,
        katago_game_state=None,
    ) -> dict:
        """Starts a game and returns the first observation dict.

        Args:
            start_player_index: 0 if player 1 moves first, 1 if player 2 does. In the bot modes
                the agent is always player 1, so with 1 the bot opens before this returns.
            init_state: optional start position, `[H, W]` (or flat `[H * W]`) of 0/1/2 with no
                line already won and, with gravity, no floating stone.
            replay_name_suffix: appended to this episode's GIF name.
            katago_policy_init, katago_game_state: taken and unused, as by LightZero's
                TicTacToe and Gomoku envs (its AlphaZero passes them to every env; they are
                for its Go env's KataGo).

        Raises:
            ValueError: ``start_player_index`` or ``init_state`` is invalid.
        """
        index = start_player_index
        if type(index) is not int or not 0 <= index <= 1:  # type(): bool is not accepted
            index = check_start_index(index)
        if init_state is None and self._start is not None:  # a game that starts set up
            self._board = self._start.copy()
            clear, self._num_moves = False, int(np.count_nonzero(self._board))
        elif init_state is None:
            # Someone kept ``env.board``: it keeps the last position, and a new board starts.
            if env_outputs.refs(self._board) > 2:
                self._board = _empty(self._board_shape, _INT8)
            clear, self._num_moves = True, 0
        else:
            self._board = validate_init_state(init_state, self.rules)
            clear, self._num_moves = False, int(np.count_nonzero(self._board))
        out, obs, board, mask, _ = self._outputs.next()
        player = index + 1
        dynamic = self._dynamic_seed or self._seed is None
        self._reset_fn(
            self._board, self._mask, clear, player, self._consts, self._seed_state, dynamic,
            self._static_seed, self._streams, out,
        )  # fmt: skip
        self._player, self._result, self._last_cell, self._done = player, 0, -1, False
        self._started = True
        self.start_player_index = index  # LightZero's attribute
        self._episode += 1
        self._replay_suffix = replay_name_suffix
        if self._recorder.frames:  # a game abandoned while recording
            self._recorder.frames = []
        if self._bots:
            self._bots = {}  # bots holding state (MCTS) are rebuilt per episode from its seed
        if self.render_mode is not None and self.render_mode in AUTO_RENDER_MODES:
            if self.render_mode == "image_savefile_mode":
                check_replay_dir(self._replay_dir())
            self.render(self.render_mode)
        if not self._self_play and player == 2:
            self._play(self._opponent_action())
            return self._observe()
        return {
            "observation": obs,
            "action_mask": mask,
            "board": board,
            "current_player_index": index,
            "to_play": player if self._self_play else -1,
        }

    def seed(self, seed: int, dynamic_seed: bool = True) -> None:
        """Fixes the seed of the following episodes (see ``BaseEnv.seed``); bots included."""
        super().seed(seed, dynamic_seed)
        self._seed_state = make_rng_state(self._seed)
        self._static_seed = int63_seed(self._seed)  # the streams kernel takes an int64

    def step(self, action) -> BaseEnvTimestep:
        """Plays ``action`` (and, in the bot modes, the reply); see the module doc for rewards.

        Raises:
            IllegalActionError: ``action`` is not an integer or not legal now (nothing changes).
            GameOverError: the game is over; call ``reset`` first.
        """
        if type(action) is int and self._plain_self_play:
            # Hot path: one fused kernel checks the move, plays it and writes the next planes;
            # anything else (illegal, finished, other types or modes) goes the general way.
            # OutputSets.next() written out (a call and a tuple less): the set's buffer if
            # nobody holds a view of it, else four new arrays (see ``env_outputs``).
            outputs = self._outputs
            slot = outputs.slot
            own = outputs.sets[slot]
            outputs.slot = slot ^ 1
            player = self._player
            try:
                if env_outputs.refs(own[0]) <= env_outputs.FREE:
                    code = self._step_fn(
                        self._board, self._mask, action, player, self._num_moves, self._consts,
                        own[0],
                    )  # fmt: skip
                    obs, board, mask, reward = (
                        own[1].view(),
                        own[2].view(),
                        own[3].view(),
                        own[4].view(),
                    )
                else:
                    obs, board, mask, reward = outputs.new_arrays()
                    code = self._step_into_fn(
                        self._board, self._mask, action, player, self._num_moves, self._consts,
                        obs, board, mask, reward,
                    )  # fmt: skip
            except OverflowError:  # beyond int64: illegal, reported by _step_general
                code = -1
            if code >= 0:
                self._last_cell = code >> 2
                self._player, self._num_moves = 3 - player, self._num_moves + 1
                observation = {
                    "observation": obs,
                    "action_mask": mask,
                    "board": board,
                    "current_player_index": 2 - player,
                    "to_play": 3 - player,
                }
                result = code & 3
                if result == ONGOING and self.render_mode is None:
                    return _new_timestep(BaseEnvTimestep, (observation, reward, False, {}))
                self._result = result
                self._after_move()
                info = {"eval_episode_return": self._player1_return(result)} if self._done else {}
                return BaseEnvTimestep(observation, reward, self._done, info)
        return self._step_general(action)

    def _step_general(self, action) -> BaseEnvTimestep:
        """``step`` in the bot modes, in self-play with ``prob_random_agent`` or
        ``prob_expert_agent``, and for the actions the hot path above refused."""
        self._check_running("step")
        if self._plain_self_play:
            return self.step(self._check_action(action))  # legal now, so the hot path plays it
        if self._self_play:
            mover = self._player
            # Checked before the draw: an illegal action raises, never becomes a replaced move.
            result = self._play(self._maybe_replace(self._check_action(action)))
            reward = move_reward(result, mover)
        else:
            result = self._play(self._check_action(action))
            if result == ONGOING:
                result = self._play(self._opponent_action())
            reward = self._player1_return(result)
            if self._done and self.battle_mode == "eval_mode" and self.agent_vs_human:
                self._show_result_to_human()
        info = {"eval_episode_return": self._player1_return(result)} if self._done else {}
        if not self._self_play:  # LightZero's key: 2 after the agent's winning move
            info["next player to play"] = self._player
        return BaseEnvTimestep(self._observe(), _REWARD[reward].copy(), self._done, info)

    def _maybe_replace(self, action):
        if self._p_random and uniform(self._rng_state) < self._p_random:
            return self._random_move(self._rng_state)
        if self._p_expert and uniform(self._rng_state) < self._p_expert:
            return self.bot_action()
        return action

    def _play(self, action: int) -> int:
        """Plays a checked ``action`` for the player to move; returns the result code."""
        player = self._player
        code = self._play_fn(self._board, self._mask, action, player, self._num_moves)
        self._last_cell, self._result = code >> 2, code & 3
        self._player, self._num_moves = 3 - player, self._num_moves + 1
        self._after_move()
        return code & 3

    def _after_move(self) -> None:
        """Marks the end of the game, renders, and writes the replay of a finished game."""
        if self._result != ONGOING:
            self._done = True
        self._render_move()

    @staticmethod
    def _player1_return(result: int) -> float:
        return 1.0 if result == 1 else -1.0 if result == 2 else 0.0

    def _check_action(self, action) -> int:
        return check_action(action, self._mask)

    def _check_running(self, where: str) -> None:
        """Raises ``GameOverError`` unless a game is running: none started yet (no reset),
        or this one over."""
        if not self._started:
            raise GameOverError(f"{where}: expected a running game, got none; call reset() first")
        if self._done:
            raise GameOverError(
                f"{where}: expected a running game, got a finished one; call reset() first"
            )

    def _observe(self) -> dict:
        obs = _empty(self._obs_shape, _FLOAT32)
        self._planes_fn(self.board, self._player, self._fill[self._player], self._channel_last, obs)
        return {
            "observation": obs,
            "action_mask": self._mask.copy(),
            "board": self.board.copy(),
            "current_player_index": self._player - 1,
            "to_play": self._player if self._self_play else -1,
        }


__all__ = ["BATTLE_MODES", "RENDER_MODES", "BoardGameEnv"]
