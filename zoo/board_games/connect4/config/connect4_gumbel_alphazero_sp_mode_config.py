"""Gumbel AlphaZero on Connect4, self-play mode (LightZero's file name): the AlphaZero config with
Gumbel AlphaZero's search (Danihelka et al. 2022) of 32 simulations a move, sampling at most
7 root moves.

Run: ``lzero train zoo.board_games.connect4.config.connect4_gumbel_alphazero_sp_mode_config``.
"""

from lzero.policy.alphazero_config import gumbel_variant
from zoo.board_games.connect4.config import connect4_alphazero_sp_mode_config as base

main_config, create_config, max_env_step = gumbel_variant(
    base,
    "data_alphazero/connect4_gumbel_alphazero_sp_mode_seed0",
    num_simulations=32,
    max_num_considered_actions=7,
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
