"""TicTacToe rules kernel: 3x3 board, action ``row * 3 + col`` (0..8), three in a row wins.

Cells::

    0 | 1 | 2
    3 | 4 | 5
    6 | 7 | 8
"""

from __future__ import annotations

from numba import njit

from zoo.board_games.common.kinrow import (
    place_apply_action,
    place_legal_actions,
    place_legal_mask,
    result_after_k,
)
from zoo.board_games.common.rules import DRAW, ONGOING, BoardRules

__all__ = [
    "DRAW",
    "ONGOING",
    "RULES",
    "apply_action",
    "legal_actions",
    "legal_mask",
    "result_after",
]

HEIGHT = 3
WIDTH = 3
WIN_LENGTH = 3

legal_actions = place_legal_actions
legal_mask = place_legal_mask
apply_action = place_apply_action


@njit(cache=True)
def result_after(board, cell, player, num_moves):
    """Result after ``player`` played ``cell``: the player, ``DRAW`` or ``ONGOING``."""
    return result_after_k(board, cell, player, num_moves, WIN_LENGTH)


RULES = BoardRules(
    name="tictactoe",
    height=HEIGHT,
    width=WIDTH,
    action_size=HEIGHT * WIDTH,
    win_length=WIN_LENGTH,
    gravity=False,
    placement=True,
    legal_actions=legal_actions,
    legal_mask=legal_mask,
    apply_action=apply_action,
    result_after=result_after,
)
