"""MuZero on a board game against the env's bots: win, draw and loss per bot.

The agent's moves of every unfinished game come from one batched search (no noise, the most
visited move), on the observation planes the env would give the player to move
(``lzero.policy.board_game.BoardGame.planes``); the games are those of AlphaZero's
evaluation (``lzero.worker.alphazero_evaluator.play_games``). An agent trained in
``self_play_mode`` plays both colours and searches a two-player tree; one trained against the
bot (``play_with_bot_mode``) plays first, as it was trained and as LightZero evaluates it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from lzero.envs.registry import create_env
from lzero.policy.board_game import BoardGame
from lzero.worker.alphazero_evaluator import (
    ActFn,
    check_opening_moves,
    default_bots,
    play_games,
    summarize,
)


def board_search_fn(policy: Any, game: BoardGame, *, two_player: bool) -> Callable:
    """``search(boards [B, H, W], to_play [B], legal [B, A]) -> (actions [B], visit shares
    [B, A], root values [B])`` of a MuZero policy (:meth:`MuZeroPolicy.search`): a greedy
    search from each position's planes (two-player for a self-play agent)."""

    def search(boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> tuple:
        to_play = np.asarray(to_play, np.int64)
        planes = game.planes(boards, to_play).reshape(len(boards), -1)
        tree_to_play = to_play if two_player else np.full(len(boards), -1)
        return policy.search(planes, legal, rng=None, explore=False, to_play=tree_to_play)

    return search


def board_network_fn(policy: Any, game: BoardGame) -> Callable:
    """``network(boards [B, H, W], to_play [B], legal [B, A]) -> (priors [B, A], values [B])``
    of a MuZero policy without a search: its network's move probabilities over ``legal``
    (uniform where it gives them none) and its values, from the planes of the player to move."""
    import torch

    @torch.no_grad()
    def network(boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray) -> tuple:
        planes = game.planes(boards, np.asarray(to_play, np.int64)).reshape(len(boards), -1)
        initial, _ = policy.inference_steps()
        _, values, probs = initial(torch.from_numpy(np.ascontiguousarray(planes, np.float32)))
        p = np.where(legal, probs.numpy().astype(np.float64), 0.0)
        total = p.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        priors = np.where(total > 0, p / np.where(total > 0, total, 1.0), uniform)
        return priors, np.asarray(values, np.float64).reshape(-1)

    return network


def board_act_fn(policy: Any, game: BoardGame, *, two_player: bool) -> ActFn:
    """``act(boards [B, H, W], to_play [B], legal [B, A]) -> actions [B]``: the moves of
    :func:`board_search_fn`'s search."""
    search = board_search_fn(policy, game, two_player=two_player)
    return lambda boards, to_play, legal: search(boards, to_play, legal)[0]


class MuZeroBoardEvaluator:
    """Plays evaluation games of a MuZero policy against the bots of a board env.

    Args:
        policy: a ``lzero.policy.MuZeroPolicy`` trained on the game.
        create_cfg: the create config (``env.type``, ``env.import_names``).
        env_cfg: the env's config (its battle mode says how the agent was trained).
        bots: bots to play, the first the one ``eval`` scores; None: the env's rule and MCTS
            bots (and TicTacToe's perfect alpha_beta one).
        opening_moves: random moves opening each game (see ``play_against_bot``).
        seed: seed of the games.
        raw_network: play the network's most probable legal move, without a search
            (:func:`board_network_fn`, as ``lzero.agent.MuZeroAgent``'s raw network).
        agent_first_only: the agent plays first in every game; None: only if it was trained
            against the bot (a self-play agent plays both colours).
        bot_random: the bots' share of random moves (``prob_random_action_in_bot``; 0: the
            bots as they are).
    """

    def __init__(
        self,
        policy: Any,
        create_cfg: Mapping,
        env_cfg: Mapping,
        *,
        bots: Sequence[str] | None = None,
        opening_moves: int = 0,
        seed: int = 0,
        raw_network: bool = False,
        replay: Mapping | None = None,
        agent_first_only: bool | None = None,
        bot_random: float = 0.0,
    ) -> None:
        env = create_env(create_cfg, dict(env_cfg))
        self.game = BoardGame.from_env(env)
        self.bots = list(bots) if bots else default_bots(env)
        self.mcts_bot_simulations = env.mcts_bot_num_simulations  # for the results
        env.close()
        self.two_player = dict(env_cfg).get("battle_mode", "self_play_mode") == "self_play_mode"
        self.agent_first_only = (
            not self.two_player if agent_first_only is None else agent_first_only
        )
        self.policy, self.create_cfg, self.env_cfg = policy, create_cfg, dict(env_cfg)
        self.opening_moves, self.seed = int(opening_moves), int(seed)
        self.bot_random = float(bot_random)
        self.replay = replay
        cells = self.game.height * self.game.width
        check_opening_moves(self.opening_moves, cells, "opening_moves (lzero eval --openings)")
        if raw_network:
            network = board_network_fn(policy, self.game)
            self.act = lambda boards, to_play, legal: np.where(
                legal, network(boards, to_play, legal)[0], -1.0
            ).argmax(axis=1)
        else:
            self.act = board_act_fn(policy, self.game, two_player=self.two_player)
        self.results: dict[str, dict[str, float]] = {}

    def play(self, bot: str, n_games: int) -> np.ndarray:
        """`[n_games]` results against ``bot`` from the agent's view (+1, 0, -1)."""
        return play_games(
            self.act, self.create_cfg, self.env_cfg, bot, n_games, self.seed,
            self.opening_moves, agent_first_only=self.agent_first_only, replay=self.replay,
            bot_random=self.bot_random,
        )  # fmt: skip

    def eval(self, n_episode: int) -> np.ndarray:
        """Plays ``n_episode`` games against each bot; returns the results against the first
        (the eval return) and keeps every bot's win/draw/loss in ``results``."""
        outcomes = {bot: self.play(bot, n_episode) for bot in self.bots}
        self.results = {bot: summarize(o) for bot, o in outcomes.items()}
        return outcomes[self.bots[0]]
