"""Othello rules kernel: 8x8, black (player 1) first, flips in eight directions, a pass.

Actions are numbered as OpenSpiel's ``othello``: ``row * 8 + col`` from the top-left (a1 is
0, h1 is 7, a8 is 56) and ``PASS`` (64). A placement must flip at least one disc; the pass is
legal only when no placement is. The game ends when neither side can place, and the side
with more discs wins (equal counts draw). Cells::

        a  b  c  d  e  f  g  h
    1   0  1  2  3  4  5  6  7
    2   8  9 ...
    8  56 57 58 59 60 61 62 63

The start: white (2) on d4 and e5, black (1) on e4 and d5.
"""

from __future__ import annotations

from numba import njit

from zoo.board_games.common.rules import DRAW, ONGOING, BoardRules

__all__ = [
    "DRAW",
    "ONGOING",
    "PASS",
    "RULES",
    "apply_action",
    "disc_counts",
    "legal_actions",
    "legal_mask",
    "position_result",
    "result_after",
]

SIZE = 8
PASS = SIZE * SIZE
INITIAL_BOARD = tuple(
    tuple(
        2 if (r, c) in ((3, 3), (4, 4)) else 1 if (r, c) in ((3, 4), (4, 3)) else 0
        for c in range(SIZE)
    )
    for r in range(SIZE)
)
_DR = (-1, -1, -1, 0, 0, 1, 1, 1)
_DC = (-1, 0, 1, -1, 1, -1, 0, 1)


@njit(cache=True, inline="always")
def _run(board, r, c, dr, dc, player):
    """How many of the opponent's discs ``player`` brackets from ``(r, c)`` along
    ``(dr, dc)`` (0 if the run is not closed by one of ``player``'s)."""
    n = 0
    r += dr
    c += dc
    while 0 <= r < SIZE and 0 <= c < SIZE:
        v = board[r, c]
        if v == player:
            return n
        if v == 0:
            return 0
        n += 1
        r += dr
        c += dc
    return 0


@njit(cache=True, inline="always")
def _flips_any(board, r, c, player):
    """True if an empty ``(r, c)`` is a placement of ``player`` (it flips a disc)."""
    for d in range(8):
        if _run(board, r, c, _DR[d], _DC[d], player) > 0:
            return True
    return False


@njit(cache=True)
def can_place(board, player):
    """True if ``player`` has a placement on ``board``."""
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] == 0 and _flips_any(board, r, c, player):
                return True
    return False


@njit(cache=True)
def legal_actions(board, player, out):
    """Writes ``player``'s placements, ascending, into ``out[:n]`` (or ``PASS`` alone if there
    is none; the game must be running); returns ``n``."""
    n = 0
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] == 0 and _flips_any(board, r, c, player):
                out[n] = r * SIZE + c
                n += 1
    if n == 0:
        out[0] = PASS
        n = 1
    return n


@njit(cache=True)
def legal_mask(board, player, out):
    """Writes 1 into ``out`` `[65]` int8 for each of ``player``'s legal actions, 0 elsewhere."""
    any_move = False
    for r in range(SIZE):
        for c in range(SIZE):
            ok = board[r, c] == 0 and _flips_any(board, r, c, player)
            out[r * SIZE + c] = 1 if ok else 0
            any_move |= ok
    out[PASS] = 0 if any_move else 1


@njit(cache=True)
def apply_action(board, action, player):
    """Plays legal ``action`` for ``player`` in place (a placement and its flips, or the
    pass); returns ``action`` (``PASS``, 64, off the board, for a pass)."""
    if action == PASS:
        return PASS
    r0, c0 = action // SIZE, action % SIZE
    for d in range(8):
        dr, dc = _DR[d], _DC[d]
        n = _run(board, r0, c0, dr, dc, player)
        r, c = r0, c0
        for _ in range(n):
            r += dr
            c += dc
            board[r, c] = player
    board[r0, c0] = player
    return action


@njit(cache=True)
def disc_counts(board):
    """``(black, white)``: the discs of players 1 and 2."""
    black = white = 0
    for r in range(SIZE):
        for c in range(SIZE):
            black += board[r, c] == 1
            white += board[r, c] == 2
    return black, white


@njit(cache=True)
def _count_result(board):
    black, white = disc_counts(board)
    if black > white:
        return 1
    if white > black:
        return 2
    return DRAW


@njit(cache=True)
def result_after(board, cell, player, num_moves):
    """The result after ``player`` played ``cell`` (``num_moves`` is not used): ``ONGOING``
    while either side can place, else the side with more discs (``DRAW`` if equal). After a
    pass the game goes on: the opponent can place, or the game had ended before it."""
    if cell == PASS or can_place(board, 3 - player) or can_place(board, player):
        return ONGOING
    return _count_result(board)


@njit(cache=True)
def position_result(board):
    """The result of a position set as a whole: ``ONGOING`` if either side can place, else
    by the count."""
    if can_place(board, 1) or can_place(board, 2):
        return ONGOING
    return _count_result(board)


RULES = BoardRules(
    name="othello",
    height=SIZE,
    width=SIZE,
    action_size=SIZE * SIZE + 1,
    win_length=0,
    gravity=False,
    placement=False,
    legal_actions=legal_actions,
    legal_mask=legal_mask,
    apply_action=apply_action,
    result_after=result_after,
    initial_board=INITIAL_BOARD,
    position_result=position_result,
)
