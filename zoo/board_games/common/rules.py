"""The game contract's record and result codes, which the library owns
(:mod:`lzero.envs.board_rules`), under the zoo's older import path."""

from lzero.envs.board_rules import DRAW, ONGOING, BoardRules

__all__ = ["DRAW", "ONGOING", "BoardRules"]
