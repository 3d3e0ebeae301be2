"""Othello env: the generic board env over the Othello kernel (moves typed like d3, or pass)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.errors import ConfigError
from zoo.board_games.board_game_env import BoardGameEnv
from zoo.board_games.othello.envs.othello_bot import alpha_beta_action, rule_bot_action
from zoo.board_games.othello.envs.othello_rules import RULES


@ENV_REGISTRY.register("othello")
class OthelloEnv(BoardGameEnv):
    """Othello: 8x8, black (X, player 1) first from the four-disc start; action
    ``row * 8 + col`` from the top-left (a1), 64 the pass (OpenSpiel's numbering); the most
    discs win. Bots ``rule`` (corners, mobility), ``alpha_beta`` (4-ply search over a
    positional evaluation), ``mcts``, ``random``."""

    rules = RULES
    rule_bot = staticmethod(rule_bot_action)
    alpha_beta_bot = staticmethod(alpha_beta_action)
    move_style = "grid"
    illegal_move_reason = "a move must flip a disc, and a pass is legal only without one"
    mark_legal = True
    bot_types = ("rule", "alpha_beta", "mcts", "random")
    config = dict(
        BoardGameEnv.config,
        env_id="Othello",
        # (int) The side of the board; Othello is 8x8, so only 8.
        board_size=8,
    )

    @classmethod
    def make_rules(cls, cfg):
        size = cfg.board_size
        if isinstance(size, bool) or size != 8:
            raise ConfigError(f"board_size: expected 8 (Othello is 8x8), got {size!r}")
        return cls.rules
