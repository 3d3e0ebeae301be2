"""``Connect4RuleBot``: LightZero's Connect4 rule-bot class under its module and names.

LightZero's code and tests set ``bot.board`` (`[6, 7]`, row 0 at the top) and
``bot.current_player`` and ask the bot's predicates about a column; its move comes from
``get_rule_bot_action``. The predicates here judge a column from the lines through the stone
it would drop (``zoo.board_games.common.kinrow``); the move is our rule bot's
(``connect4_bot.rule_bot_action``: win, block, do not set up the opponent's win, centre).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lzero.utils.nbrng import make_rng_state
from zoo.board_games.common.kinrow import longest_line
from zoo.board_games.connect4.envs.connect4_bot import rule_bot_action

__all__ = ["Connect4RuleBot"]

_HEIGHT, _WIDTH = 6, 7


class Connect4RuleBot:
    """Rule bot for one Connect4 player, with LightZero's predicates.

    Args:
        env: the Connect4 env (kept as ``env``, as LightZero does).
        player: 1 or 2, the player the bot moves for (``current_player``).
        seed: seed of the bot's tie-breaking stream (LightZero draws from NumPy's global one).
    """

    def __init__(self, env: Any, player: int, *, seed: int = 0) -> None:
        if player not in (1, 2):
            raise ValueError(f"player: expected 1 or 2, got {player!r}")
        self.env = env
        self.current_player = player
        self.players = [1, 2]
        self.board = np.zeros((_HEIGHT, _WIDTH), np.int8)
        self.legal_actions = list(range(_WIDTH))
        self._rng_state = make_rng_state(seed)

    def get_rule_bot_action(self, board: Any, player: int) -> int:
        """The rule bot's column for ``player`` on ``board`` (`[6, 7]` or flat `[42]`)."""
        if player not in (1, 2):
            raise ValueError(f"player: expected 1 or 2, got {player!r}")
        self.current_player = player
        self.board = _as_board(board)
        if not (self.board[0] == 0).any():
            raise ValueError("board: expected a column with room, got a full board")
        return int(rule_bot_action(self.board.copy(), player, self._rng_state))

    def get_available_row(self, col: int) -> int | None:
        """The row a stone dropped in ``col`` lands on, None if the column is full."""
        empty = np.flatnonzero(_as_board(self.board)[:, col] == 0)
        return int(empty[-1]) if empty.size else None

    def _line_after(self, action: int, piece: int) -> int:
        """Longest line of ``piece`` through the stone it would drop in ``action`` (0: full)."""
        row = self.get_available_row(action)
        if row is None:
            return 0
        board = _as_board(self.board).copy()
        board[row, action] = piece
        return int(longest_line(board, row, action, piece))

    def is_winning_move(self, action: int) -> bool:
        """Whether ``current_player`` wins by playing ``action``."""
        return self._line_after(action, self.current_player) >= 4

    def is_blocking_move(self, action: int) -> bool:
        """Whether the opponent would win by playing ``action`` (so playing it blocks them)."""
        return self._line_after(action, 3 - self.current_player) >= 4

    def is_sequence_3_move(self, action: int) -> bool:
        """Whether ``action`` puts ``current_player``'s stone in a line of at least 3."""
        return self._line_after(action, self.current_player) >= 3

    def is_sequence_2_move(self, action: int) -> bool:
        """Whether ``action`` puts ``current_player``'s stone in a line of at least 2."""
        return self._line_after(action, self.current_player) >= 2

    def is_winning_move_in_two_steps(self, action: int) -> bool:
        """Whether after ``action`` the opponent cannot win at once and ``current_player``
        then has at least two winning columns (one block cannot stop both)."""
        row = self.get_available_row(action)
        if row is None:
            return False
        saved = _as_board(self.board)
        self.board = saved.copy()
        self.board[row, action] = self.current_player
        try:
            columns = [c for c in range(_WIDTH) if self.board[0, c] == 0]
            if any(self.is_blocking_move(c) for c in columns):  # the opponent wins first
                return False
            return sum(self.is_winning_move(c) for c in columns) >= 2
        finally:
            self.board = saved

    def remove_actions(self) -> None:
        """Drops from ``self.legal_actions`` the columns after which the opponent wins at once
        or has a win in two steps (two winning columns), as LightZero's bot does before its
        sequence rules."""
        keep = []
        for action in self.legal_actions:
            row = self.get_available_row(action)
            if row is None:
                continue
            saved, player = _as_board(self.board), self.current_player
            self.board = saved.copy()
            self.board[row, action] = player
            self.current_player = 3 - player
            try:
                columns = [c for c in range(_WIDTH) if self.board[0, c] == 0]
                lost = any(
                    self.is_winning_move(c) or self.is_winning_move_in_two_steps(c) for c in columns
                )
            finally:
                self.board, self.current_player = saved, player
            if not lost:
                keep.append(action)
        self.legal_actions = keep


def _as_board(board: Any) -> np.ndarray:
    board = np.asarray(board)
    if board.size != _HEIGHT * _WIDTH:
        raise ValueError(f"board: expected 6x7 cells, got shape {board.shape}")
    return board.astype(np.int8).reshape(_HEIGHT, _WIDTH)
