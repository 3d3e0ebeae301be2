"""TicTacToe env: the generic board env over the TicTacToe kernel (cells typed 1-9)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.errors import ConfigError
from zoo.board_games.board_game_env import BoardGameEnv
from zoo.board_games.tictactoe.envs.alpha_beta_bot import alpha_beta_moves
from zoo.board_games.tictactoe.envs.tictactoe_bot import rule_bot_action
from zoo.board_games.tictactoe.envs.tictactoe_rules import RULES


@ENV_REGISTRY.register("tictactoe")
class TicTacToeEnv(BoardGameEnv):
    """TicTacToe: 3x3, actions 0..8 (``row * 3 + col``); bots ``rule``, ``alpha_beta`` (perfect,
    also named ``perfect``), ``mcts``, ``random``."""

    rules = RULES
    rule_bot = staticmethod(rule_bot_action)
    move_style = "cell"
    perfect_moves = staticmethod(alpha_beta_moves)
    bot_types = ("rule", "alpha_beta", "perfect", "mcts", "random")
    default_render_mode = "state_realtime_mode"  # LightZero's TicTacToe render() prints
    piece_letters = True
    config = dict(
        BoardGameEnv.config,
        env_id="TicTacToe",
        # (int) LightZero's side of the board; TicTacToe is 3x3, so only 3.
        board_size=3,
    )

    @classmethod
    def make_rules(cls, cfg):
        size = cfg.board_size
        if isinstance(size, bool) or size != 3:
            raise ConfigError(f"board_size: expected 3 (TicTacToe is 3x3), got {size!r}")
        return cls.rules
