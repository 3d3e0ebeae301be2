"""Gumbel AlphaZero on 9x9 Gomoku, against the env's bot (play_with_bot_mode) (LightZero's file name): the AlphaZero config with
Gumbel AlphaZero's search (Danihelka et al. 2022) of 32 simulations a move, sampling at most
16 root moves.

Run: ``lzero train zoo.board_games.gomoku.config.gomoku_gumbel_alphazero_bot_mode_config``.
"""

from lzero.policy.alphazero_config import gumbel_variant
from zoo.board_games.gomoku.config import gomoku_9x9_alphazero_bot_mode_config as base

main_config, create_config, max_env_step = gumbel_variant(
    base,
    "data_alphazero/gomoku_gumbel_alphazero_bot_mode_seed0",
    num_simulations=32,
    max_num_considered_actions=16,
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
