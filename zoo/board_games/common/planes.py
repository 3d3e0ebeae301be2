"""The player-to-move observation planes shared by every board game (LightZero's layout)."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def player_planes(board, player, fill, channel_last, out):
    """Writes the three observation planes of ``board`` as seen by ``player`` into ``out``.

    Plane 0 marks ``player``'s stones, plane 1 the opponent's, plane 2 is filled with ``fill``.
    As in LightZero's ``current_state``, ``scale`` divides all three planes by 2: the caller
    passes ``fill = player / 2`` and the stone planes then hold 0.5 instead of 1.0.

    Args:
        board: `[H, W]` int8.
        player: 1 or 2.
        fill: value of plane 2 (``player`` or ``player / 2``).
        channel_last: False for ``out`` `[3, H, W]`, True for `[H, W, 3]`.
        out: float32 output, fully overwritten.
    """
    h, w = board.shape
    opponent = 3 - player
    stone = fill / player  # 1.0, or 0.5 when the planes are scaled
    for r in range(h):
        for c in range(w):
            v = board[r, c]
            mine = stone if v == player else 0.0
            theirs = stone if v == opponent else 0.0
            if channel_last:
                out[r, c, 0] = mine
                out[r, c, 1] = theirs
                out[r, c, 2] = fill
            else:
                out[0, r, c] = mine
                out[1, r, c] = theirs
                out[2, r, c] = fill
