"""Connect4 bitboard positions for the solver, built and checked from move strings or env boards.

Layout (see :mod:`connect4_solver`): bit ``col * 7 + row``, row 0 at the bottom, bit 6 of
each column a zero sentinel; a position is ``(current, mask)``: the stones of the player to
move and all stones. These checks run in Python, once per query; the kernels trust them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

WIDTH = 7
HEIGHT = 6
SIZE = WIDTH * HEIGHT
BOTTOM_MASK = sum(1 << (c * (HEIGHT + 1)) for c in range(WIDTH))
BOARD_MASK = BOTTOM_MASK * ((1 << HEIGHT) - 1)


def has_four(pos: int) -> bool:
    """True if the stones ``pos`` hold four in a row (the sentinels stop wrap-around)."""
    for s in (1, HEIGHT + 1, HEIGHT, HEIGHT + 2):
        m = pos & (pos >> s)
        if m & (m >> (2 * s)):
            return True
    return False


def column_move(mask: int, col: int) -> int:
    """The cell bit a stone dropped into column ``col`` (0-6, not full) takes over ``mask``."""
    shift = col * (HEIGHT + 1)
    return (mask + (1 << shift)) & (((1 << HEIGHT) - 1) << shift)


# The same two functions compiled, for the loop over many move strings.
_has_four = njit(cache=True)(has_four)
_column_move = njit(cache=True)(column_move)


def play_sequence(moves: str) -> tuple[int, int]:
    """``(current, mask)`` after ``moves``, a string of columns ``'1'``-``'7'`` (Pons' format).

    Raises:
        ValueError: not a string, a character that is not a column 1-7, a move into a full
            column, or a move after (or making) four in a row: the position is already won.
    """
    if not isinstance(moves, str):
        raise ValueError(f"moves: expected a string of columns 1-7, got {moves!r}")
    current = mask = 0
    for i, ch in enumerate(moves):
        if ch not in "1234567":
            raise ValueError(f"moves: expected columns 1-7, got {ch!r} at move {i + 1}")
        col = int(ch) - 1
        if mask & (1 << (col * (HEIGHT + 1) + HEIGHT - 1)):
            raise ValueError(
                f"moves: expected a playable column, got full column {ch} at move {i + 1}"
            )
        move = column_move(mask, col)
        if has_four(current | move):
            raise ValueError(
                f"moves: expected a game still running, got four in a row at move {i + 1} "
                f"({moves[: i + 1]!r}): the position is already won"
            )
        current, mask = current ^ mask, mask | move
    return current, mask


@njit(cache=True)
def sequences_bits(chars, starts, currents, masks):
    """``currents[i], masks[i]``: :func:`play_sequence` of ``chars[starts[i]:starts[i + 1]]``
    (ASCII codes of columns '1'-'7'), for every ``i`` in one compiled loop. Returns -1, or the
    first ``i`` that :func:`play_sequence` would refuse (the outputs of ``i`` and after it
    then unset)."""
    for i in range(starts.size - 1):
        current = mask = np.int64(0)
        for k in range(starts[i], starts[i + 1]):
            col = np.int64(chars[k]) - 49
            if col < 0 or col >= WIDTH:
                return i
            if mask & (np.int64(1) << (col * (HEIGHT + 1) + HEIGHT - 1)):
                return i
            move = _column_move(mask, col)
            if _has_four(current | move):
                return i
            current, mask = current ^ mask, mask | move
        currents[i], masks[i] = current, mask
    return -1


@njit(cache=True)
def board_bits(board, to_play):
    """``(current, mask)`` int64 of an env board `[6, 7]` int8 (row 0 at the top), unchecked:
    the numba half of :func:`position_from_board`, also run by the pool's perfect bot."""
    current = mask = np.int64(0)
    for c in range(WIDTH):
        for r in range(HEIGHT):  # env row HEIGHT - 1 is our bottom row 0
            v = board[HEIGHT - 1 - r, c]
            if v:
                bit = np.int64(1) << (c * (HEIGHT + 1) + r)
                mask |= bit
                if v == to_play:
                    current |= bit
    return current, mask


def position_from_board(board, to_play: int) -> tuple[int, int]:
    """``(current, mask)`` of an env board `[6, 7]` (0 empty, 1 and 2 players; row 0 at the
    top) with ``to_play`` to move.

    Raises:
        ValueError: wrong shape or values, a player other than 1 or 2, a floating stone, a
            stone count that alternate play cannot reach with ``to_play`` to move (the mover
            must have as many stones as the opponent or one fewer), four in a row already.
    """
    arr = np.asarray(board)
    if arr.shape != (HEIGHT, WIDTH):
        raise ValueError(f"board: expected shape ({HEIGHT}, {WIDTH}), got {arr.shape}")
    if not np.isin(arr, (0, 1, 2)).all():
        raise ValueError(
            f"board: expected values in {{0, 1, 2}}, got {sorted(set(arr.ravel().tolist()))}"
        )
    if isinstance(to_play, (bool, np.bool_)) or to_play not in (1, 2):
        raise ValueError(f"to_play: expected 1 or 2, got {to_play!r}")
    floating = (arr[:-1] != 0) & (arr[1:] == 0)
    if floating.any():
        r, c = np.argwhere(floating)[0]
        raise ValueError(
            f"board: expected stones resting on the bottom, got a floating stone at row {r}, column {c}"
        )
    mine, theirs = int((arr == to_play).sum()), int((arr == 3 - to_play).sum())
    if mine not in (theirs, theirs - 1):
        raise ValueError(
            f"board: impossible stone counts: expected player {to_play} (to move) to have as many "
            f"stones as player {3 - to_play} or one fewer, got {mine} and {theirs}"
        )
    current, mask = (int(x) for x in board_bits(arr.astype(np.int8), int(to_play)))
    if has_four(current) or has_four(current ^ mask):
        raise ValueError("board: expected a game still running, got four in a row already")
    return current, mask
