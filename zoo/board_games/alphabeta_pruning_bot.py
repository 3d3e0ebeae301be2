"""``AlphaBetaPruningBot``: LightZero's alpha-beta bot under its module, class and call names.

LightZero builds the bot from an env class and its config and asks it for moves::

    bot = AlphaBetaPruningBot(TicTacToeEnv, cfg, "player 1")
    action = bot.get_best_action(env.board, player_index=0)

It searches the whole game tree (``depth=999``) with scores +1 (the player to move wins),
0 (draw or depth cut-off, LightZero's estimate) and -1. Here a game with exact scores of its
own (``perfect_moves``: TicTacToe's negamax, Connect4's solver) answers a full-depth query
from them; any other game, or a shallower ``depth``, is searched by a plain negamax with
alpha-beta pruning over the game's rules kernels (Knuth and Moore, "An analysis of alpha-beta
pruning", 1975). Exhaustive search is practical on TicTacToe and on nearly full boards only,
as with LightZero's bot.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from zoo.board_games.common.rules import DRAW, ONGOING, BoardRules

__all__ = ["AlphaBetaPruningBot"]


class AlphaBetaPruningBot:
    """Alpha-beta search bot for any board game.

    Args:
        ENV: a board-game env class (built with ``cfg``, as LightZero does) or env instance.
        cfg: the env config when ``ENV`` is a class.
        bot_name: a label, as in LightZero.

    Raises:
        TypeError: ``ENV`` is not a board game (no ``rules``).
    """

    def __init__(self, ENV: Any, cfg: dict | None = None, bot_name: str = "alpha_beta") -> None:  # noqa: N803  (LightZero's name)
        env = ENV(cfg) if isinstance(ENV, type) else ENV
        rules = getattr(env, "rules", None)
        if not isinstance(rules, BoardRules):
            raise TypeError(f"expected a board-game env or its class, got {type(env).__name__}")
        self.name = bot_name
        self.rules = rules
        self._perfect_moves = getattr(env, "perfect_moves", None)

    def get_best_action(self, board: Any, player_index: int, depth: int = 999) -> int:
        """The best move for player ``player_index + 1`` on ``board``.

        Args:
            board: `[H, W]` or flat `[H * W]` board of a running game (the env's ``board``).
            player_index: 0 or 1.
            depth: plies searched; below it a position scores 0 (a draw), as in LightZero.

        Returns:
            The action; among equally scored moves, the lowest (Connect4 from 12 stones on:
            the one its perfect bot plays, the solver's first optimal column).

        Raises:
            ValueError: a player index other than 0 or 1, a depth below 1, or a board that
                does not fit the game or has no legal move.
        """
        rules = self.rules
        if player_index not in (0, 1):
            raise ValueError(f"expected player_index 0 or 1, got {player_index!r}")
        if isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1:
            raise ValueError(f"depth: expected an int >= 1, got {depth!r}")
        board = np.array(board, dtype=np.int8)
        if board.size != rules.height * rules.width:
            raise ValueError(
                f"board: expected {rules.height}x{rules.width} cells, got shape {board.shape}"
            )
        board = board.reshape(rules.height, rules.width)
        moves = int(np.count_nonzero(board))
        empty = board.size - moves
        if empty == 0:
            raise ValueError("board: expected a running game, got a full board")
        player = player_index + 1
        if self._perfect_moves is not None and depth >= empty:
            return int(np.argmax(self._perfect_moves(board, player)))  # the lowest of them
        return _negamax(rules, board, player, moves, depth, -2, 2)[1]


def _negamax(
    rules: BoardRules, board: np.ndarray, player: int, moves: int, depth: int, alpha, beta
) -> tuple[int, int]:
    """``(score, action)`` of ``board`` for ``player`` to move: +1 win, 0 draw or cut-off,
    -1 loss; fail-hard within ``(alpha, beta)``."""
    actions = np.zeros(rules.action_size, np.int64)
    count = rules.legal_actions(board, player, actions)
    best_score, best_action = -2, int(actions[0])
    for action in actions[:count]:
        child = board.copy()
        cell = rules.apply_action(child, int(action), player)
        result = rules.result_after(child, cell, player, moves + 1)
        if result == player:
            score = 1
        elif result == 3 - player:  # a game whose last move can lose it (Othello's count)
            score = -1
        elif result == DRAW or (result == ONGOING and depth == 1):
            score = 0
        else:
            score = -_negamax(rules, child, 3 - player, moves + 1, depth - 1, -beta, -alpha)[0]
        if score > best_score:
            best_score, best_action = score, int(action)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best_score, best_action
