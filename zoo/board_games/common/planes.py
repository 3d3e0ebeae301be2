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

    Both arrays must be C-contiguous.
    """
    # One flat pass over the cells (boards and outputs are C-contiguous): about 20% faster
    # than rows x columns in the pool's step, which writes the planes of every env.
    h, w = board.shape
    n = h * w
    cells = board.reshape(n)
    opponent = 3 - player
    stone = fill / player  # 1.0, or 0.5 when the planes are scaled
    if channel_last:
        flat = out.reshape((n, 3))
        for i in range(n):
            v = cells[i]
            flat[i, 0] = stone if v == player else 0.0
            flat[i, 1] = stone if v == opponent else 0.0
            flat[i, 2] = fill
    else:
        flat = out.reshape((3, n))
        for i in range(n):
            v = cells[i]
            flat[0, i] = stone if v == player else 0.0
            flat[1, i] = stone if v == opponent else 0.0
            flat[2, i] = fill
