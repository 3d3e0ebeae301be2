"""The ``BoardRules`` record that describes a game's kernel to envs, MCTS and pools.

See ``docs/board_kernel_contract.md`` for the meaning of each kernel function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

#: ``result_after`` codes; a winner is reported as its player id (1 or 2).
ONGOING = 0
DRAW = 3


class BoardRules(NamedTuple):
    """Static facts and jitted kernel functions of one board game.

    Attributes:
        name: registry name of the game (``'tictactoe'``, ``'connect4'``, ``'gomoku'``).
        height: board rows ``H``.
        width: board columns ``W``.
        action_size: number of actions ``A`` (``H * W``, or ``W`` with gravity).
        win_length: stones in a row that win (a longer line also wins).
        gravity: True when an action is a column and the stone falls to its lowest empty cell.
        legal_actions: ``(board [H, W] int8, out [A] int64) -> n``; legal actions ascending.
        legal_mask: ``(board [H, W] int8, out [A] int8) -> None``; 1 where legal.
        apply_action: ``(board, action, player) -> cell``; plays in place, returns the flat cell.
        result_after: ``(board, cell, player, num_moves) -> r`` with ``r`` in
            ``ONGOING`` (0), 1, 2 (winner) or ``DRAW`` (3), judged from the last move only.
    """

    name: str
    height: int
    width: int
    action_size: int
    win_length: int
    gravity: bool
    legal_actions: Callable
    legal_mask: Callable
    apply_action: Callable
    result_after: Callable
