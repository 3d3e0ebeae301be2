"""Gomoku (freestyle) rules kernel: ``N x N`` board (5 <= N <= 19), five or more in a row wins.

Action ``row * N + col``; a full board without five is a draw. The kernels read ``N`` from
``board.shape``, so one compiled set of functions serves every board size.
"""

from __future__ import annotations

import operator

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
    "make_rules",
    "result_after",
]

WIN_LENGTH = 5
MIN_SIZE = 5
MAX_SIZE = 19
DEFAULT_SIZE = 15

legal_actions = place_legal_actions
legal_mask = place_legal_mask
apply_action = place_apply_action


@njit(cache=True)
def result_after(board, cell, player, num_moves):
    """Result after ``player`` played ``cell``: the player, ``DRAW`` or ``ONGOING``."""
    return result_after_k(board, cell, player, num_moves, WIN_LENGTH)


def make_rules(board_size: int = DEFAULT_SIZE) -> BoardRules:
    """Returns the ``BoardRules`` of Gomoku on a ``board_size`` x ``board_size`` board.

    Raises:
        ValueError: if ``board_size`` is not an integer in ``[5, 19]``.
    """
    try:
        size = operator.index(board_size)  # accepts int and NumPy integers, not floats
    except TypeError:
        size = None
    if size is None or isinstance(board_size, bool) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(
            f"expected board_size an int in [{MIN_SIZE}, {MAX_SIZE}], got {board_size!r}"
        )
    board_size = size
    return BoardRules(
        name="gomoku",
        height=board_size,
        width=board_size,
        action_size=board_size * board_size,
        win_length=WIN_LENGTH,
        gravity=False,
        placement=True,
        legal_actions=legal_actions,
        legal_mask=legal_mask,
        apply_action=apply_action,
        result_after=result_after,
    )


RULES = make_rules(DEFAULT_SIZE)
