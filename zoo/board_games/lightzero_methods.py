"""LightZero's helper methods of a board env (``legal_actions``, ``bot_action``,
``simulate_action``, ...), mixed into :class:`~zoo.board_games.board_game_env.BoardGameEnv`.

They only read the env's state (``board``, ``_mask``, ``_player``, ``_result``, ``_done``)
and call its kernels; the env's own logic stays in ``board_game_env.py``.
"""

from __future__ import annotations

import copy

import numpy as np

from lzero.envs.board_step import player_planes
from lzero.errors import ConfigError, GameOverError
from zoo.board_games import human_input, render
from zoo.board_games.env_support import bot_move, check_start_index, resolve_bot_type


class LightZeroBoardMethods:
    """LightZero's public helpers, under LightZero's names and return conventions."""

    @property
    def bot_action_type(self) -> str:
        """The bot ``bot_action`` and the bot modes play. Settable between moves, as
        LightZero's tests do, with our names or LightZero's ('v0', 'v1',
        'alpha_beta_pruning'); an unknown one raises ``ConfigError`` and changes nothing."""
        return self._bot_action_type

    @bot_action_type.setter
    def bot_action_type(self, kind: str) -> None:
        self._bot_action_type = resolve_bot_type(
            kind, self.bot_types, self.bot_aliases, self.rules.name
        )

    @property
    def legal_actions(self) -> list[int]:
        """The legal actions now, ascending (empty once the game is over)."""
        return np.flatnonzero(self._mask).tolist()

    @property
    def current_player(self) -> int:
        """The player to move, 1 or 2; settable, as LightZero code does between moves."""
        return self._player

    @current_player.setter
    def current_player(self, player) -> None:
        if isinstance(player, (bool, np.bool_)) or player not in (1, 2):
            raise ValueError(f"current_player: expected 1 or 2, got {player!r}")
        self._player = int(player)
        if self._started and not self._done:  # the legal moves can depend on who moves
            self.rules.legal_mask(self._board, self._player, self._mask)

    @property
    def current_player_index(self) -> int:
        return self._player - 1

    @property
    def next_player(self) -> int:
        return 3 - self._player

    def random_action(self) -> int:
        """A uniformly random legal action for the caller, from its own seeded stream (-1 once
        the game is over)."""
        return self._random_fn(self._mask, self._agent_rng_state)

    def _random_move(self, rng_state: np.ndarray) -> int:
        return self._random_fn(self._mask, rng_state)

    def bot_action(self) -> int:
        """The configured bot's move for the player to move (``bot_action_type``).

        Raises:
            GameOverError: no game is running (not reset yet, or over).
        """
        self._check_running("bot_action")
        return bot_move(self, self.bot_action_type)

    def rule_bot_v0(self) -> int:
        """The rule bot's move for the player to move (LightZero's ``rule_bot_v0``; no
        ``prob_random_action_in_bot``).

        Raises:
            GameOverError: no game is running (not reset yet, or over).
        """
        self._check_running("rule_bot_v0")
        return int(self.rule_bot(self.board, self._player, self._rng_state))

    rule_bot_v1 = rule_bot_v0  # LightZero Gomoku's name; one rule bot per game here

    def bot_action_alpha_beta_pruning(self) -> int:
        """The perfect (alpha-beta) bot's move for the player to move.

        Raises:
            ConfigError: the game has no alpha-beta bot; names the bots it has.
            GameOverError: no game is running (not reset yet, or over).
        """
        if "alpha_beta" not in self.bot_types:
            raise ConfigError(
                f"bot_action_alpha_beta_pruning: {self.rules.name} has no alpha-beta bot (an "
                f"exhaustive search is out of reach on its board); its bots: {sorted(self.bot_types)}"
            )
        self._check_running("bot_action_alpha_beta_pruning")
        return bot_move(self, "alpha_beta")

    def coord_to_action(self, row: int, col: int) -> int:
        """The action of cell (``row``, ``col``), ``row * W + col`` (row 0 on top).

        Raises:
            ValueError: the cell is off the board, or the game's actions are columns.
        """
        h, w = self._cell_actions("coord_to_action")
        if not (0 <= row < h and 0 <= col < w):
            raise ValueError(
                f"coord_to_action: expected a cell of the {h}x{w} board, got ({row}, {col})"
            )
        return int(row) * w + int(col)

    def action_to_coord(self, action: int) -> tuple[int, int]:
        """The cell ``(row, col)`` of ``action`` (row 0 on top).

        Raises:
            ValueError: ``action`` is out of range, or the game's actions are columns.
        """
        h, w = self._cell_actions("action_to_coord")
        if not 0 <= action < h * w:
            raise ValueError(f"action_to_coord: expected an action in [0, {h * w}), got {action!r}")
        row, col = divmod(int(action), w)
        return row, col

    def _cell_actions(self, where: str) -> tuple[int, int]:
        if self.rules.gravity:
            raise ValueError(
                f"{where}: expected a game whose actions are cells, got {self.rules.name}, whose "
                "actions are columns"
            )
        return self.rules.height, self.rules.width

    def _opponent_action(self) -> int:
        if self.battle_mode == "eval_mode" and self.agent_vs_human:
            if self.render_mode != "state_realtime_mode":
                self.render("state_realtime_mode")  # the person needs to see the board
            return self.human_to_action()
        return self._check_action(self.bot_action())

    def _show_result_to_human(self) -> None:
        """The person at the terminal (eval_mode, agent_vs_human) sees the end and who won."""
        if self.render_mode != "state_realtime_mode":
            self.render("state_realtime_mode")
        winner = self._result if self._result in (1, 2) else 0
        print(f"Player {winner} ({render.SYMBOLS[winner]}) wins." if winner else "Draw.")

    def human_to_action(self) -> int:
        """Asks at the terminal until a legal move is typed; returns it.

        Raises:
            EOFError, KeyboardInterrupt: input ended or was interrupted (the CLI exits cleanly).
        """
        h, w, player = self.rules.height, self.rules.width, self._player
        symbol = render.SYMBOLS[player]
        return human_input.ask_move(
            self._mask, player, symbol, self.move_style, h, w,
            illegal_reason=self.illegal_move_reason,
        )  # fmt: skip

    def action_to_string(self, action: int) -> str:
        """The move as a person would type it (``'4'``, ``'h8'``)."""
        return human_input.move_to_string(
            int(action), self.move_style, self.rules.height, self.rules.width
        )

    def get_done_winner(self) -> tuple[bool, int]:
        """``(done, winner)``: winner 1 or 2, or -1 for a draw or a running game.

        Raises:
            GameOverError: no game was started (no reset yet): there is no result to give.
        """
        if not self._started:
            raise GameOverError("get_done_winner: expected a game, got none; call reset() first")
        return self._done, self._result if self._result in (1, 2) else -1

    def get_done_reward(self) -> tuple[bool, float | None]:
        """``(done, reward)``: reward from player 1's view when done (1, -1, 0), else None.

        Raises:
            GameOverError: no game was started (no reset yet): there is no result to give.
        """
        if not self._started:
            raise GameOverError("get_done_reward: expected a game, got none; call reset() first")
        return self._done, self._player1_return(self._result) if self._done else None

    def current_state(self) -> tuple[np.ndarray, np.ndarray]:
        """``(raw_obs, scaled_obs)`` of the player to move, as LightZero's ``current_state``."""
        raw = np.empty(self._obs_shape, np.float32)
        player_planes(self.board, self._player, float(self._player), self._channel_last, raw)
        return raw, raw / 2 if self.scale else raw.copy()

    def simulate_action(self, action) -> LightZeroBoardMethods:
        """A copy of this env with ``action`` played (this env is unchanged; the copy does not
        render or record)."""
        self._check_running("simulate_action")
        action = self._check_action(action)
        new = self.clone()
        new._play(action)
        return new

    def clone(self) -> LightZeroBoardMethods:
        """An independent copy of this env in its current state (LightZero's ``clone``); the
        copy does not render or record."""
        new = copy.copy(self)
        new._board, new._mask = self._board.copy(), self._mask.copy()
        new._streams, new._seed_state = self._streams.copy(), self._seed_state.copy()
        new._rng_state, new._agent_rng_state = new._streams[0:1], new._streams[1:2]
        # A bot holding state (MCTS: its search's random stream) is copied with it, as
        # LightZero's deepcopy clone does: the copy's bot replies as the original's would.
        new.render_mode, new._bots = None, copy.deepcopy(self._bots, {id(self): new})
        new._recorder = copy.copy(self._recorder)
        new._recorder.frames, new._recorder.window = [], None
        return new

    def reset_v2(self, start_player_index: int = 0, init_state=None) -> None:
        """LightZero's state setter (its alpha-beta bot's): the position ``init_state`` (None:
        the game's start) with player ``start_player_index + 1`` to move. Unlike ``reset`` it
        starts no episode: no seeds drawn, no bot move, no observation returned.

        Raises:
            ValueError: ``start_player_index`` is not 0 or 1, or ``init_state`` is no board
                of this game (nothing is changed then).
        """
        index = check_start_index(start_player_index)
        board = self.rules.start_board() if init_state is None else init_state
        player = self._player
        self._player = index + 1  # first: the legal moves the board setter writes are its
        try:
            self.board = board  # checked before anything else changes
        except Exception:
            self._player = player
            raise
        self.start_player_index = index

    def simulate_action_v2(
        self, board, start_player_index: int, action
    ) -> tuple[np.ndarray, list[int]]:
        """LightZero's: ``(new_board, new_legal_actions)`` after ``action`` is played on
        ``board`` by player ``start_player_index + 1``. As LightZero's, it leaves this env on
        the new board with that player still to move (see :meth:`reset_v2`).

        Raises:
            ValueError: a bad board or index; IllegalActionError: ``action`` is not legal
                there; GameOverError: the game on ``board`` is over.
        """
        self.reset_v2(start_player_index, board)
        if self._done:
            raise GameOverError("simulate_action_v2: expected a running game, got a finished one")
        action = self._check_action(action)
        after = self.clone()
        after._play(action)
        self.board = after.board
        return after.board.copy(), after.legal_actions

    @property
    def players(self) -> list[int]:
        """LightZero's ``[1, 2]``, the players' numbers (``start_player_index`` indexes it)."""
        return [1, 2]

    @property
    def to_play(self) -> int:
        """LightZero's env attribute ``to_play``: the player NOT to move now (the opponent, whose
        stones fill plane 1 of the observation), which is ``next_player``. The observation's
        ``'to_play'`` is, as in LightZero, the player to move (or -1 in the bot modes)."""
        return self.next_player

    @property
    def board_size(self) -> int:
        """LightZero's side length of a square board (TicTacToe 3, Gomoku ``board_size``).

        Raises:
            AttributeError: the board is not square (Connect4's 6 x 7, which has no
                ``board_size`` in LightZero either).
        """
        h, w = self.rules.height, self.rules.width
        if h != w:
            raise AttributeError(
                f"board_size: expected a square board, got {self.rules.name}'s {h} x {w} (read "
                "rules.height and rules.width)"
            )
        return h

    @property
    def total_num_actions(self) -> int:
        """LightZero's number of actions (cells, or Connect4's columns)."""
        return self.rules.action_size

    @property
    def channel_last(self) -> bool:
        """Whether observations are `[H, W, 3]` (config key ``channel_last``)."""
        return self._channel_last

    @property
    def scale(self) -> bool:
        """Whether observation planes are divided by 2 (config key ``scale``)."""
        return self._fill[2] == 1.0
