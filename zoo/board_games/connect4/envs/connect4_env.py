"""Connect4 env: the generic board env over the Connect4 kernel (columns typed 1-7)."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from zoo.board_games.board_game_env import BoardGameEnv
from zoo.board_games.connect4.envs.connect4_bot import rule_bot_action
from zoo.board_games.connect4.envs.connect4_perfect import check_book, perfect_moves, pool_bot
from zoo.board_games.connect4.envs.connect4_rules import RULES
from zoo.board_games.connect4.envs.connect4_solver import analyze_board


@ENV_REGISTRY.register("connect4")
class Connect4Env(BoardGameEnv):
    """Connect4: 6 rows x 7 columns, action = column 0..6; bots ``rule``, ``perfect`` (exact
    solver, needs ``bitbully-databases``), ``mcts``, ``random``."""

    rules = RULES
    rule_bot = staticmethod(rule_bot_action)
    perfect_moves = staticmethod(perfect_moves)
    pool_perfect_bot = staticmethod(pool_bot)
    exact_scores = staticmethod(analyze_board)  # Pons' scores: moves to spare before the end
    bot_types = ("rule", "perfect", "mcts", "random")
    move_style = "column"
    config = dict(BoardGameEnv.config, env_id="Connect4")

    @classmethod
    def check_bot_available(cls, kind: str) -> None:
        """The perfect bot needs its opening book (``bitbully-databases``)."""
        if kind == "perfect":
            check_book()

    def check_exact_scores(self) -> None:
        """The solver takes minutes on an early position without its opening book."""
        check_book()
