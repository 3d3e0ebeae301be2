"""``MCTSBot``: LightZero's MCTS bot API over the array search of ``lzero.mcts``.

LightZero's bot deep-copies the env for every tree edge; this one hands the game's rules
kernels to ``lzero.mcts.batched_search.BatchedSearch`` (one tree, searched in numba) and
searches over ``int8`` boards. Games of five in a row (Gomoku) are searched with PUCT,
line-window priors and a line-window leaf value
(``zoo.board_games.common.line_eval``) instead of UCB1 and random rollouts, which lose every
game to the Gomoku threat bot. Usage as in LightZero::

    bot = MCTSBot(env, "mcts_player", 2000)
    action = bot.get_actions(env.board, player_index=env.current_player_index)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lzero.mcts.batched_loop import bind_simulations, simulate_inline
from lzero.mcts.batched_result import SearchResult, best_action, one_result
from lzero.mcts.batched_search import BatchedSearch
from lzero.mcts.game import GameKernels
from lzero.mcts.rollout import MAX_NEAR_WIDTH
from zoo.board_games.common import line_eval
from zoo.board_games.common.rules import BoardRules
from zoo.board_games.connect4.envs import connect4_rules as c4
from zoo.board_games.gomoku.envs import gomoku_rules as gomoku
from zoo.board_games.tictactoe.envs import tictactoe_rules as ttt

__all__ = ["MCTSBot", "kernels_of"]

#: Placement boards with at least this many cells search only near existing stones by default.
LARGE_BOARD_CELLS = 81
DEFAULT_RADIUS = 2
#: ``get_actions``' ways to pick the move (None: the most visited; see there).
BEST_ACTION_TYPES = (None, "most_visit", "most visited", "UCB")


# The search loop bound to each bundled game's kernels, so that numba inlines them (see
# ``bind_simulations``); any other game runs the generic loop, with the same results.
@bind_simulations
def _tictactoe_simulations(
    tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch
):  # fmt: skip
    return simulate_inline(
        tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch,
        None, ttt.legal_actions, ttt.apply_action, ttt.result_after, True, None,
    )  # fmt: skip


@bind_simulations
def _connect4_simulations(
    tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch
):  # fmt: skip
    return simulate_inline(
        tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch,
        None, c4.legal_actions, c4.apply_action, c4.result_after, False, None,
    )  # fmt: skip


@bind_simulations
def _gomoku_rollout_simulations(
    tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch
):  # fmt: skip
    return simulate_inline(
        tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch,
        None, gomoku.legal_actions, gomoku.apply_action, gomoku.result_after, True, None,
    )  # fmt: skip


@bind_simulations
def _gomoku_simulations(
    tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch
):  # fmt: skip
    return simulate_inline(
        tree, boards, moves, n, rule, c1, c2, norm, radius, tactics, active, rngs, work, scratch,
        line_eval.evaluate_five, gomoku.legal_actions, gomoku.apply_action, gomoku.result_after, True, line_eval.priors_five,
    )  # fmt: skip


#: Each bundled game's ``result_after`` and loops, by the evaluator they were bound with.
_BOUND = {
    "tictactoe": (ttt.result_after, {None: _tictactoe_simulations}),
    "connect4": (c4.result_after, {None: _connect4_simulations}),
    "gomoku": (
        gomoku.result_after,
        {None: _gomoku_rollout_simulations, line_eval.evaluate_five: _gomoku_simulations},
    ),
}


#: Line-window evaluator and priors by win length, for placement games (``line_eval``).
LINE_EVALUATORS = {5: (line_eval.evaluate_five, line_eval.priors_five)}
#: Exploration constants: UCB1's with random rollouts; PUCT's with line priors (2,000
#: simulations against the Gomoku rule bot, 20 games: 1.0 won 9, 1.4 won 19, 1.5-3.0 won 20).
C_UCB1 = 1.4
C_PUCT = 2.0
EVALUATORS = ("lines", "rollout")


def kernels_of(rules: BoardRules, *, evaluator: str = "lines") -> GameKernels:
    """The search's view of a game's ``BoardRules`` (with the bound loop of a bundled game).

    Args:
        rules: the game.
        evaluator: ``'lines'`` for the line-window evaluator and priors where the game has
            them (placement games of a win length in ``LINE_EVALUATORS``), else random
            rollouts; ``'rollout'`` for random rollouts and uniform priors always.
    """
    result_after, loops = _BOUND.get(rules.name, (None, {}))
    evaluate = priors = None
    if evaluator == "lines" and rules.placement:
        evaluate, priors = LINE_EVALUATORS.get(rules.win_length, (None, None))
    simulations = loops.get(evaluate) if rules.result_after is result_after else None
    return GameKernels.from_rules(rules, simulations=simulations, evaluate=evaluate, priors=priors)


class MCTSBot:
    """Monte Carlo tree search bot for any board game: UCT with random rollouts, or PUCT with
    line-window priors and values for games of five in a row (``evaluator``).

    Args:
        env: a board-game env (anything with a ``rules`` attribute) or a ``BoardRules``.
        bot_name: a label, as in LightZero.
        num_simulation: simulations per move (LightZero's positional name).
        num_simulations: the same, by keyword (wins over ``num_simulation``).
        time_limit_s: if set, search each move for this many seconds (at most
            ``num_simulations`` if that is given too); results then depend on the machine.
        c_uct: exploration constant of the selection rule. Default: ``C_PUCT`` with the line
            evaluator, else ``C_UCB1``.
        seed: seed of the bot's random generator; same seed, same board, same move.
        radius: candidate moves within this distance of a stone (placement games only; 0 for
            all legal moves; ``radius > 0`` needs a board at most
            ``lzero.mcts.rollout.MAX_NEAR_WIDTH`` (64) columns wide). Default: 2 on boards of
            at least 81 cells and at most 64 columns, else 0.
        reuse_tree: no longer supported (``True`` raises ``ValueError``): each move is a new
            search, as in the batched search every algorithm here shares.
        tactics: take a winning move and avoid moves that let the opponent win next, at the
            root, whatever the simulation count. Default: on, but for a game whose moves
            change more than one cell (Othello), where it cannot run.
        tree_tactics: the same idea below the root (a node with a winning move, or facing an
            immediate loss, is expanded to that move or to the blocks). Default: on where
            ``radius`` defaults on (large placement boards), else off.
        evaluator: ``'lines'`` (default): for placement games of five in a row, value leaves
            by their line windows after the forced replies and select with PUCT over
            line-window priors (``zoo.board_games.common.line_eval``); other games fall back
            to rollouts. ``'rollout'``: UCB1 with random rollouts for every game.

    Raises:
        TypeError: if ``env`` has no ``BoardRules``.
        ValueError: on a setting out of range.
    """

    def __init__(
        self,
        env: Any,
        bot_name: str = "mcts_player",
        num_simulation: int = 50,
        *,
        num_simulations: int | None = None,
        time_limit_s: float | None = None,
        c_uct: float | None = None,
        seed: int = 0,
        radius: int | None = None,
        reuse_tree: bool = False,
        tactics: bool | None = None,
        tree_tactics: bool | None = None,
        evaluator: str = "lines",
    ) -> None:
        rules = env if isinstance(env, BoardRules) else getattr(env, "rules", None)
        if not isinstance(rules, BoardRules):
            raise TypeError(f"expected a board-game env or BoardRules, got {type(env).__name__}")
        if evaluator not in EVALUATORS:
            raise ValueError(f"expected evaluator in {list(EVALUATORS)}, got {evaluator!r}")
        kernels = kernels_of(rules, evaluator=evaluator)
        puct = kernels.priors is not None
        if c_uct is None:
            c_uct = C_PUCT if puct else C_UCB1
        large = rules.placement and rules.height * rules.width >= LARGE_BOARD_CELLS
        if tactics is None:  # on wherever a move is one stone that clearing undoes
            tactics = kernels.one_stone
        if radius is None:  # the near-stone marks serve boards up to MAX_NEAR_WIDTH wide
            radius = DEFAULT_RADIUS if large and rules.width <= MAX_NEAR_WIDTH else 0
        if tree_tactics is None:
            tree_tactics = large
        self.rules = rules
        self.bot_name = bot_name
        self.num_simulation = num_simulations if num_simulations is not None else num_simulation
        self.time_limit_s = time_limit_s
        self._sims = None if time_limit_s and num_simulations is None else self.num_simulation
        if reuse_tree:
            raise ValueError(
                "reuse_tree is no longer supported: the search is one tree per move (pass "
                "reuse_tree=False, or more simulations)"
            )
        self._search = BatchedSearch(
            kernels,
            num_simulations=self.num_simulation,
            selection="puct" if puct else "ucb1",
            pb_c_init=c_uct,
            pb_c_base=math.inf,  # PUCT with a constant c_uct, as the line priors were tuned
            c_uct=c_uct,
            radius=radius,
            tactics=tactics,
            tree_tactics=tree_tactics,
            seed=seed,
        )

    def search(
        self, board: np.ndarray, player_index: int, *, num_simulations: int | None = None
    ) -> SearchResult:
        """Searches ``board`` (`[H, W]`, or flat `[H * W]`) for player ``player_index + 1`` and
        returns the root statistics (visits and mean values per action, from that player's
        view). ``num_simulations`` overrides the bot's count for this search.

        Raises:
            ValueError: if ``player_index`` is not 0 or 1, or the board does not fit the game.
        """
        if player_index not in (0, 1):
            raise ValueError(f"expected player_index 0 or 1, got {player_index!r}")
        board = np.asarray(board)
        if board.ndim == 1 and board.size == self.rules.height * self.rules.width:
            board = board.reshape(self.rules.height, self.rules.width)  # a flat LightZero state
        result = self._search.search(
            board[None],
            np.array([int(player_index) + 1]),
            num_simulations=self._sims if num_simulations is None else num_simulations,
            time_limit_s=self.time_limit_s,
        )
        return one_result(result, 0, self._search.root_actions(0))

    #: The most visited action of a ``search`` result (ties: higher value).
    best_action = staticmethod(best_action)

    def get_actions(
        self,
        board: np.ndarray,
        *args: int,
        player_index: int | None = None,
        step: int | None = None,
        root: Any = None,
        num_simulation: int | None = None,
        best_action_type: str | None = None,
    ):
        """The bot's move on ``board`` (the env's ``board`` format), in both of LightZero's call
        forms.

        ``get_actions(board, player_index)`` returns the action (LightZero's older bot, and
        ours). ``get_actions(board, step, player_index, ...)``, or any call naming ``step``,
        is LightZero's current form and returns ``(action, search result, visits of the
        action)``, the result standing where LightZero returns the chosen child node.

        Args:
            board: `[H, W]` or flat `[H * W]` board.
            player_index: 0 or 1 (player 1 or 2 to move).
            step: LightZero's move counter; it only selects the return form here.
            root: LightZero passes a tree to continue; each search here is a new tree, so
                only None is accepted.
            num_simulation: simulations for this move instead of the bot's count.
            best_action_type: None, ``'most_visit'`` or ``'most visited'``: the most visited
                action (ties: higher value); ``'UCB'``: the highest mean value among
                visited actions, which is what LightZero's ``'UCB'`` (UCB with ``c = 0``)
                picks.

        Raises:
            ValueError: a player index other than 0 or 1, a ``root``, or an unknown
                ``best_action_type``.
            TypeError: more positional arguments than ``(board, step, player_index)``.
        """
        if len(args) > 2:
            raise TypeError(
                f"get_actions: expected (board, player_index) or (board, step, player_index), "
                f"got {1 + len(args)} positional arguments"
            )
        if len(args) == 2:
            step, player_index = args
        elif len(args) == 1 and player_index is None:
            player_index = args[0]
        elif len(args) == 1:  # get_actions(state, step, player_index=...)
            step = args[0]
        if root is not None:
            raise ValueError(
                "get_actions: expected root=None (every move is a new search), got a tree"
            )
        if best_action_type not in BEST_ACTION_TYPES:
            raise ValueError(
                f"best_action_type: expected one of {list(BEST_ACTION_TYPES)}, "
                f"got {best_action_type!r}"
            )
        result = self.search(board, player_index, num_simulations=num_simulation)
        if best_action_type == "UCB" and result.action_visits.sum() > 0:
            action = int(np.nanargmax(result.action_values))
        else:
            action = best_action(result)
        if step is None and len(args) < 2:
            return action
        return action, result, int(result.action_visits[action])
