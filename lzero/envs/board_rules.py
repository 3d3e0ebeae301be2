"""The game contract: the ``BoardRules`` record in which a board game hands its facts and
kernels to the envs, the pool, the search and AlphaZero and MuZero, and the result codes.

See ``docs/board_kernel_contract.md`` for the meaning of each kernel function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

#: ``result_after`` codes; a winner is reported as its player id (1 or 2).
ONGOING = 0
DRAW = 3


class BoardRules(NamedTuple):
    """Static facts and jitted kernel functions of one board game.

    Attributes:
        name: registry name of the game (``'tictactoe'``, ``'connect4'``, ``'gomoku'``).
        height: board rows ``H``.
        width: board columns ``W``.
        action_size: number of actions ``A`` (``H * W``, ``W`` with gravity, ``H * W + 1``
            with a pass).
        win_length: stones in a row that win (a longer line also wins); 0 for a game that
            is not won by a line (Othello).
        gravity: True when an action is a column and the stone falls to its lowest empty cell.
        placement: True when an action is the flat cell it fills and the legal moves are the
            empty cells, whoever moves (TicTacToe, Gomoku): the search may then use
            near-stone candidates and its fast rollouts.
        legal_actions: ``(board [H, W] int8, player, out [A] int64) -> n``; the legal
            actions of ``player`` (to move), ascending.
        legal_mask: ``(board [H, W] int8, player, out [A] int8) -> None``; 1 where legal.
        apply_action: ``(board, action, player) -> cell``; plays in place, returns the flat
            cell played (``H * W`` for a pass).
        result_after: ``(board, cell, player, num_moves) -> r`` with ``r`` in
            ``ONGOING`` (0), 1, 2 (the winner, who need not be ``player``) or ``DRAW`` (3).
        initial_board: the start position as ``H`` rows of ``W`` ints (a tuple, so that
            the record stays hashable), or None for an empty board.
        position_result: ``(board [H, W] int8) -> r``, the result of a position set as a
            whole (``init_state``, ``env.board = ...``), for a game not judged by lines;
            None: a line of ``win_length`` wins and a full board is a draw.
    """

    name: str
    height: int
    width: int
    action_size: int
    win_length: int
    gravity: bool
    placement: bool
    legal_actions: Callable
    legal_mask: Callable
    apply_action: Callable
    result_after: Callable
    initial_board: Any = None
    position_result: Callable | None = None

    def start_board(self):
        """A new board holding the start position (`[H, W]` int8, C-ordered)."""
        if self.initial_board is None:
            return np.zeros((self.height, self.width), np.int8)
        return np.array(self.initial_board, dtype=np.int8, order="C")


__all__ = ["DRAW", "ONGOING", "BoardRules"]
