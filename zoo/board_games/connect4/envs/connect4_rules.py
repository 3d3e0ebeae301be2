"""Connect4 rules kernel: 6 rows x 7 columns, action = column 0..6, four in a row wins.

The stone falls to the lowest empty cell of the column (row 0 is the top)::

    row 0  . . . . . . .
    ...
    row 5  . . . X . . .     <- first stone played in column 3 lands at cell 5 * 7 + 3
           0 1 2 3 4 5 6
"""

from __future__ import annotations

from numba import njit

from zoo.board_games.common.gravity import drop_apply_action, drop_legal_actions, drop_legal_mask
from zoo.board_games.common.kinrow import result_after_k
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

HEIGHT = 6
WIDTH = 7
WIN_LENGTH = 4

legal_actions = drop_legal_actions
legal_mask = drop_legal_mask
apply_action = drop_apply_action


@njit(cache=True)
def result_after(board, cell, player, num_moves):
    """Result after ``player``'s stone landed on ``cell``: the player, ``DRAW`` or ``ONGOING``."""
    return result_after_k(board, cell, player, num_moves, WIN_LENGTH)


RULES = BoardRules(
    name="connect4",
    height=HEIGHT,
    width=WIDTH,
    action_size=WIDTH,
    win_length=WIN_LENGTH,
    gravity=True,
    placement=False,
    legal_actions=legal_actions,
    legal_mask=legal_mask,
    apply_action=apply_action,
    result_after=result_after,
)
