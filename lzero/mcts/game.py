"""A game as the search sees it: its kernels, their numba ``FunctionType`` signatures, and
the small helpers every search kernel shares.

Kernels called with game functions as arguments are compiled against the ``FunctionType``
signatures below, which numba can cache on disk (see ``lzero.mcts.jit``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit, types

from lzero.envs.board_rules import DRAW
from lzero.utils.nbrng import next_u64

BOARD_T = types.Array(types.int8, 2, "C")
ACTIONS_T = types.Array(types.int64, 1, "C")
SCRATCH_T = types.Array(types.int64, 2, "C")
RNG_T = types.Array(types.uint64, 1, "C")
LEGAL_ACTIONS_T = types.FunctionType(types.int64(BOARD_T, types.int64, ACTIONS_T))
APPLY_ACTION_T = types.FunctionType(types.int64(BOARD_T, types.int64, types.int64))
RESULT_AFTER_T = types.FunctionType(types.int64(BOARD_T, types.int64, types.int64, types.int64))
#: The game's kernels, in the order every entry point of the search takes them.
KERNELS_T = (LEGAL_ACTIONS_T, APPLY_ACTION_T, RESULT_AFTER_T)
#: ``priors(board, to_play, actions, n, out) -> n``: writes the priors of the moves
#: ``actions[:n]`` of ``to_play`` on ``board`` into ``out[:n]`` (float32, summing to 1).
PRIORS_T = types.FunctionType(
    types.int64(BOARD_T, types.int64, ACTIONS_T, types.int64, types.Array(types.float32, 1, "C"))
)


class GameKernels(NamedTuple):
    """A game as the search sees it (``docs/board_kernel_contract.md``).

    Attributes:
        legal_actions, apply_action, result_after: the game's numba kernels.
        action_size: ``A``, the number of actions.
        board_shape: ``(H, W)``.
        placement: True if an action is the flat cell it fills and the legal moves are the
            empty cells (TicTacToe, Gomoku); enables near-stone candidates and fast rollouts.
        simulations: optional search loop bound to these kernels, ``evaluate`` and ``priors``
            with ``lzero.mcts.batched_loop.bind_simulations``; faster, same simulations.
        evaluate: the game's default leaf evaluator (``lzero.mcts.rollout.EVALUATE_T``);
            None for random rollouts.
        priors: the game's default move priors (``PRIORS_T``), which PUCT selection follows;
            None for uniform ones.
        win_length: stones in a row that win (``k`` of a k-in-a-row game; 0 if unknown),
            for the root's forced-win search (``lzero.mcts.tactics.root_threats``).
        one_stone: a move adds one stone and changes no other cell (placement and gravity
            games), so that ``board.flat[cell] = 0`` undoes it, as the tactics do; False for
            Othello, whose moves turn discs over.
    """

    legal_actions: Any
    apply_action: Any
    result_after: Any
    action_size: int
    board_shape: tuple[int, int]
    placement: bool
    simulations: Any = None
    evaluate: Any = None
    priors: Any = None
    win_length: int = 0
    one_stone: bool = True

    @classmethod
    def from_rules(cls, rules: Any, **extra: Any) -> GameKernels:
        """The kernels of a game's rules record (``BoardRules``: ``legal_actions``,
        ``apply_action``, ``result_after``, ``action_size``, ``height``, ``width``, ``gravity``,
        ``win_length``, ``placement``),
        with ``extra`` fields (``simulations``, ``evaluate``, ``priors``)."""
        return cls(
            legal_actions=rules.legal_actions,
            apply_action=rules.apply_action,
            result_after=rules.result_after,
            action_size=rules.action_size,
            board_shape=(rules.height, rules.width),
            placement=bool(getattr(rules, "placement", not rules.gravity)),
            win_length=int(getattr(rules, "win_length", 0)),
            one_stone=bool(getattr(rules, "placement", not rules.gravity) or rules.gravity),
            **extra,
        )


@njit(cache=True)
def uniform_priors(board, to_play, actions, n, out):
    """Uniform move priors, ``1 / n`` each (``PRIORS_T``): plain UCT's."""
    prior = 1.0 / max(n, 1)
    for i in range(n):
        out[i] = prior
    return n


@njit(cache=True, inline="always")
def randbelow_fast(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` by a multiply-shift instead of a
    division (Lemire, "Fast random integer generation in an interval", 2019; bias below
    ``n / 2**32``). Advances the ``lzero.utils.nbrng`` ``state`` like ``randbelow``."""
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def terminal_value(result, mover):
    """Value of a finished game for ``mover``: +1 win, -1 loss, 0 draw."""
    if result == mover:
        return 1.0
    if result == DRAW:
        return 0.0
    return -1.0


@njit(cache=True, inline="always")
def copy_board(src, dst):
    """``dst[:, :] = src`` for boards of one shape, written as a loop: numba's slice copy
    checks shapes and compiles its error message formatting, 3-4 s of a cold first call."""
    for r in range(src.shape[0]):
        for c in range(src.shape[1]):
            dst[r, c] = src[r, c]
