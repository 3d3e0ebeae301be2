"""A game is one folder: a toy game written in a temporary folder, outside the repository,
registers itself and runs through the env, the vectorised pool, the batched search, one
AlphaZero collect and the renderer, with nothing of ours edited (issue 77's claim)."""

from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pytest

torch = pytest.importorskip("torch")

# "Four in a row" on a 4x5 board without gravity: the whole game, as a contributor writes it.
TOY_RULES = '''
"""Toy game: 4x5, placement, four in a row wins."""
from numba import njit

from zoo.board_games.common.kinrow import (
    place_apply_action, place_legal_actions, place_legal_mask, result_after_k,
)
from zoo.board_games.common.rules import BoardRules


@njit(cache=False)
def result_after(board, cell, player, num_moves):
    return result_after_k(board, cell, player, num_moves, 4)


@njit(cache=False)
def rule_bot(board, player, rng_state):
    for cell in range(board.size):  # the first empty cell
        if board.reshape(-1)[cell] == 0:
            return cell
    return -1


RULES = BoardRules(
    name="toy_four", height=4, width=5, action_size=20, win_length=4, gravity=False,
    placement=True, legal_actions=place_legal_actions, legal_mask=place_legal_mask,
    apply_action=place_apply_action, result_after=result_after,
)
'''
TOY_ENV = '''
"""The toy game's env: its rules record and bot, nothing else."""
from lzero.envs import ENV_REGISTRY
from zoo.board_games.board_game_env import BoardGameEnv
from toy_four.rules import RULES, rule_bot


@ENV_REGISTRY.register("toy_four")
class ToyFourEnv(BoardGameEnv):
    rules = RULES
    rule_bot = staticmethod(rule_bot)
    config = dict(BoardGameEnv.config, env_id="ToyFour")
'''


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("contrib") / "toy_four"
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A toy game in one folder."""\n')
    (folder / "rules.py").write_text(textwrap.dedent(TOY_RULES))
    (folder / "env.py").write_text(textwrap.dedent(TOY_ENV))
    sys.path.insert(0, str(folder.parent))
    try:
        yield importlib.import_module("toy_four.env").ToyFourEnv
    finally:
        sys.path.remove(str(folder.parent))


def test_the_env_plays_and_renders(toy):
    env = toy(dict(battle_mode="play_with_bot_mode"))
    env.seed(0)
    env.reset()
    done = False
    while not done:
        done = env.step(env.random_action()).done
    text = env.render("ansi")
    assert len(text.splitlines()) == 4 + 2
    frame = env.render("rgb_array")
    assert frame.ndim == 3 and frame.dtype == np.uint8


def test_the_pool_and_the_gymnasium_id(toy):
    import gymnasium

    from lzero.envs import make
    from lzero.envs.gymnasium_api import board_games, register_gymnasium_envs

    assert "toy_four" in board_games()
    pool = make("toy_four", env_type="gymnasium", num_envs=3, seed=0)
    obs, _ = pool.reset()
    assert obs["observation"].shape == (3, 3, 4, 5) and obs["action_mask"].shape == (3, 20)
    obs, reward, term, trunc, _ = pool.step(np.array([0, 1, 2]))
    assert obs["board"].shape == (3, 4, 5)
    register_gymnasium_envs()  # a game registered after import gets its id too
    env = gymnasium.make("lzero/toy_four-v0")
    assert env.reset(seed=1)[0]["action_mask"].sum() == 20


def test_the_search_and_one_alphazero_collect(toy):
    from lzero.mcts import BatchedSearch, GameKernels
    from lzero.policy.alphazero import AlphaZeroPolicy
    from lzero.policy.alphazero_config import compile_alphazero_config
    from lzero.policy.board_game import BoardGame
    from lzero.worker.alphazero_collector import AlphaZeroCollector

    env = toy(dict(battle_mode="self_play_mode"))
    kernels = GameKernels.from_rules(env.rules)
    search = BatchedSearch(kernels, num_simulations=100, root_noise_weight=0.0, seed=0)
    board = np.zeros((1, 4, 5), np.int8)
    board[0, 0, :3] = 1
    board[0, 1, :3] = 2
    result = search.search(board, np.array([1]))
    assert int(np.argmax(result.visits[0])) == 3  # the win
    cfg = compile_alphazero_config(
        [
            dict(
                policy=dict(
                    model=dict(observation_shape=(3, 4, 5), action_space_size=20, num_channels=8),
                    mcts=dict(num_simulations=8),
                )
            ),
            dict(env=dict(type="toy_four")),
        ]
    )
    policy = AlphaZeroPolicy(cfg.policy, BoardGame.from_env(env), seed=0)
    collector = AlphaZeroCollector(policy, "toy_four", {"battle_mode": "self_play_mode"}, 2, seed=0)
    data = collector.collect(2)
    collector.close()
    assert len(data["value"]) > 0 and data["policy"].shape[1] == 20
    assert policy.learn(data["planes"], data["policy"], data["value"])["total_loss"] > 0
