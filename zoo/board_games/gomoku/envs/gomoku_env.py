"""Gomoku env: the generic board env over the freestyle Gomoku kernel (moves typed like h8)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.errors import ConfigError
from zoo.board_games.board_game_env import BoardGameEnv
from zoo.board_games.common.rules import BoardRules
from zoo.board_games.gomoku.envs import gomoku_rules
from zoo.board_games.gomoku.envs.gomoku_bot import rule_bot_action


@ENV_REGISTRY.register("gomoku")
class GomokuEnv(BoardGameEnv):
    """Gomoku: ``board_size`` x ``board_size`` (5-19), five or more in a row wins, action
    ``row * board_size + col``; bots ``rule`` (threat-based), ``mcts``, ``random``."""

    rules = gomoku_rules.RULES
    rule_bot = staticmethod(rule_bot_action)
    move_style = "coordinate"
    board_sizes = tuple(range(gomoku_rules.MIN_SIZE, gomoku_rules.MAX_SIZE + 1))
    config = dict(
        BoardGameEnv.config,
        env_id="Gomoku",
        # (int) Side of the board, 5 to 19.
        board_size=15,
    )

    @classmethod
    def make_rules(cls, cfg) -> BoardRules:
        try:
            return gomoku_rules.make_rules(cfg.board_size)
        except ValueError as err:
            raise ConfigError(str(err)) from None
