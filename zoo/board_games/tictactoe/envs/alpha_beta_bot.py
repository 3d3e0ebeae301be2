"""Perfect TicTacToe: exact negamax with alpha-beta pruning and a transposition table.

Scores are from the view of the player to move: a win completed by the ``m``-th stone on the
board scores ``10 - m`` (so faster wins score higher and slower losses lose less), a draw 0,
a loss the negative. A position's score depends on the board and the player to move alone
(the stone count fixes the depth), so one table serves every search and persists between
calls, whichever player opened the game.

The table is indexed by the base-3 code of the board, ``sum(board.flat[i] * 3**i)``, times two
plus the player to move minus one (the same board arises with either player to move when
either may open), and holds a score and whether it is exact or a lower or upper bound (Knuth and Moore, "An analysis of
alpha-beta pruning", 1975; Marsland, "A review of game-tree pruning", 1986).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from zoo.board_games.tictactoe.envs.tictactoe_rules import (
    DRAW,
    ONGOING,
    apply_action,
    legal_actions,
    result_after,
)

__all__ = ["alpha_beta_action", "alpha_beta_moves", "alpha_beta_values"]

_EMPTY, _EXACT, _LOWER, _UPPER = 0, 1, 2, 3
_INF = 100
_NUM_CELLS = 9
_TT_VALUE = np.zeros(2 * 3**_NUM_CELLS, np.int8)
_TT_FLAG = np.zeros(2 * 3**_NUM_CELLS, np.int8)


@njit(cache=True)
def _code(board):
    flat = board.reshape(-1)
    code, power = 0, 1
    for i in range(flat.size):
        code += flat[i] * power
        power *= 3
    return code


@njit(cache=True)
def _probe(tt_value, tt_flag, key, alpha, beta):
    """Table lookup: returns ``(hit, value, alpha, beta)`` with the window narrowed by a bound."""
    flag = tt_flag[key]
    value = np.int64(tt_value[key])
    if flag == _EXACT:
        return True, value, alpha, beta
    if flag == _LOWER:
        alpha = max(alpha, value)
    elif flag == _UPPER:
        beta = min(beta, value)
    return flag != _EMPTY and alpha >= beta, value, alpha, beta


@njit(cache=True)
def _negamax(board, player, num_moves, alpha, beta, tt_value, tt_flag, actions):
    """Score of ``board`` for ``player`` to move: exact if it lies in ``(alpha, beta)``, else a
    bound on the same side (fail-soft). Iterative (an explicit stack indexed by depth ``d``),
    because numba's disk cache does not reload recursive functions safely.

    Args:
        actions: `[10, 9]` int64 work array, the move list of each depth.
    """
    depth = _NUM_CELLS + 1
    f_alpha = np.empty(depth, np.int64)
    f_beta = np.empty(depth, np.int64)
    f_alpha0 = np.empty(depth, np.int64)
    f_best = np.empty(depth, np.int64)
    f_n = np.empty(depth, np.int64)
    f_i = np.empty(depth, np.int64)
    f_key = np.empty(depth, np.int64)
    f_cell = np.empty(depth, np.int64)
    flat = board.reshape(-1)
    d = 0
    returning = False
    ret = np.int64(0)
    while True:
        if not returning:
            # Enter frame d: probe the table, else list the moves.
            key = 2 * _code(board) + (player if d % 2 == 0 else 3 - player) - 1
            hit, value, alpha, beta = _probe(tt_value, tt_flag, key, alpha, beta)
            if hit:
                ret, returning = value, True
                continue
            f_key[d], f_alpha[d], f_beta[d], f_alpha0[d] = key, alpha, beta, alpha
            f_best[d], f_i[d] = -_INF, 0
            f_n[d] = legal_actions(board, 0, actions[d])  # the same cells for either player
        else:
            if d == 0:
                return ret
            d -= 1
            flat[f_cell[d]] = 0
            f_best[d] = max(f_best[d], -ret)
            f_alpha[d] = max(f_alpha[d], -ret)
            returning = False
        # Play frame d's next move, or close the frame.
        mover = player if d % 2 == 0 else 3 - player
        moves = num_moves + d + 1
        while f_alpha[d] < f_beta[d] and f_i[d] < f_n[d]:
            cell = apply_action(board, actions[d, f_i[d]], mover)
            f_i[d] += 1
            result = result_after(board, cell, mover, moves)
            if result == ONGOING:
                f_cell[d] = cell
                alpha, beta = -f_beta[d], -f_alpha[d]
                d += 1
                break
            value = 10 - moves if result == mover else 0
            flat[cell] = 0
            f_best[d] = max(f_best[d], value)
            f_alpha[d] = max(f_alpha[d], value)
        else:
            best = f_best[d]
            tt_value[f_key[d]] = best
            if best <= f_alpha0[d]:
                tt_flag[f_key[d]] = _UPPER
            elif best >= f_beta[d]:
                tt_flag[f_key[d]] = _LOWER
            else:
                tt_flag[f_key[d]] = _EXACT
            ret, returning = best, True


@njit(cache=True)
def _root_values(board, player, tt_value, tt_flag):
    actions = np.zeros((_NUM_CELLS + 1, _NUM_CELLS), np.int64)
    root = np.zeros(_NUM_CELLS, np.int64)
    num_moves = 0
    for v in board.reshape(-1):
        num_moves += v != 0
    values = np.full(_NUM_CELLS, -_INF, np.int64)
    for i in range(legal_actions(board, player, root)):
        cell = apply_action(board, root[i], player)
        result = result_after(board, cell, player, num_moves + 1)
        if result == player:
            values[cell] = 10 - (num_moves + 1)
        elif result == DRAW:
            values[cell] = 0
        else:
            values[cell] = -_negamax(
                board, 3 - player, num_moves + 1, -_INF, _INF, tt_value, tt_flag, actions
            )
        board.reshape(-1)[cell] = 0
    return values


def _check(board, player) -> np.ndarray:
    board = np.asarray(board)
    if board.shape != (3, 3):
        raise ValueError(f"expected a TicTacToe board of shape (3, 3), got {board.shape}")
    if not np.isin(board, (0, 1, 2)).all():
        raise ValueError(f"expected board values in {{0, 1, 2}}, got {np.unique(board)}")
    if player not in (1, 2):
        raise ValueError(f"expected player 1 or 2, got {player!r}")
    b = np.ascontiguousarray(board, dtype=np.int8)
    lines = [*b, *b.T, b.diagonal(), np.fliplr(b).diagonal()]
    if any(line[0] != 0 and (line == line[0]).all() for line in lines) or b.all():
        raise ValueError("expected an unfinished game, got a board with a line or no empty cell")
    return b.copy()


def alpha_beta_values(board: np.ndarray, player: int) -> np.ndarray:
    """Exact negamax score of every move for ``player`` (see the module doc for the scale).

    Args:
        board: `[3, 3]` position of an unfinished game (0 empty, 1 and 2 the players).
        player: 1 or 2, the player to move.

    Returns:
        `[9]` int64 score of playing each cell, ``-100`` for occupied cells.

    Raises:
        ValueError: if the board or player is invalid or the game is over.
    """
    return _root_values(_check(board, player), int(player), _TT_VALUE, _TT_FLAG)


def alpha_beta_moves(board: np.ndarray, player: int) -> np.ndarray:
    """`[9]` bool: the cells whose score is the best (the perfect bot picks among them).

    Raises:
        ValueError: as :func:`alpha_beta_values`.
    """
    values = alpha_beta_values(board, player)
    return values == values.max()


def alpha_beta_action(
    board: np.ndarray, player: int, rng: np.random.Generator | None = None
) -> int:
    """A game-theoretically optimal move for ``player`` (fastest win, else slowest loss).

    Args:
        board: `[3, 3]` position of an unfinished game.
        player: 1 or 2, the player to move.
        rng: if given, ties between equally scored moves are broken at random; otherwise the
            lowest cell wins.

    Returns:
        The cell ``row * 3 + col`` to play.
    """
    best = np.flatnonzero(alpha_beta_moves(board, player))
    return int(best[0] if rng is None else rng.choice(best))
