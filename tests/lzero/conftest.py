"""Fixtures shared by the tests of ``lzero``: a tiny MuZero training config."""

from __future__ import annotations

import copy

import pytest


def _tiny_muzero(exp_dir, module=None, eval_freq: int = 30) -> tuple:
    """``[main, create]`` of ``module``'s MuZero config (default TicTacToe's self-play one),
    small enough for a run of seconds: 4 games at once, 4 simulations, batches of 16, 2
    evaluation games (board games: against the rule bot) every ``eval_freq`` iterations,
    writing under ``exp_dir``."""
    if module is None:
        from zoo.board_games.tictactoe.config import tictactoe_muzero_sp_mode_config as module
    main = copy.deepcopy(module.main_config)
    main.exp_name = str(exp_dir)
    main.env.collector_env_num = 4
    main.env.n_evaluator_episode = 2
    main.policy.update(num_simulations=4, batch_size=16, eval_freq=eval_freq)
    if not main.env.get("env_id"):  # a board game: a gym task has no bots
        main.policy.eval_bots = ["rule"]
    return main, copy.deepcopy(module.create_config)


@pytest.fixture(scope="session")
def tiny_muzero():
    """``tiny_muzero(exp_dir, module=None, eval_freq=30) -> (main, create)``: a tiny MuZero
    training config (``_tiny_muzero``)."""
    return _tiny_muzero
