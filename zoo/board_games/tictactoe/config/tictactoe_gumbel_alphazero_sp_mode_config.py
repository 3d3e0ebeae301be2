"""Gumbel AlphaZero on TicTacToe, self-play mode (LightZero's file name): the AlphaZero config with
Gumbel AlphaZero's search (Danihelka et al. 2022) of 16 simulations a move, sampling at most
9 root moves. A minute on 2 cores makes about 1,100 iterations, so the learning rate falls
x0.1 after 500 and x0.01 after 1,000 (the raw policy's last moves sharpen on the lower rates).

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_gumbel_alphazero_sp_mode_config``.
"""

from lzero.policy.alphazero_config import gumbel_variant
from zoo.board_games.tictactoe.config import tictactoe_alphazero_sp_mode_config as base

main_config, create_config, max_env_step = gumbel_variant(
    base,
    "data_alphazero/tictactoe_gumbel_alphazero_sp_mode_seed0",
    num_simulations=16,
    max_num_considered_actions=9,
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
