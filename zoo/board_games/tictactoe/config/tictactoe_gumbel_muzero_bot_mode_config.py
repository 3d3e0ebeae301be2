"""Gumbel MuZero on TicTacToe, against the env's bot (play_with_bot_mode) (LightZero's file name): the MuZero config with
Gumbel MuZero's search (Danihelka et al. 2022) of 16 simulations a move, sampling at most
9 root moves.

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_gumbel_muzero_bot_mode_config``.
"""

from lzero.policy.muzero_config import gumbel_muzero_variant
from zoo.board_games.tictactoe.config import tictactoe_muzero_bot_mode_config as base

main_config, create_config, max_env_step = gumbel_muzero_variant(
    base,
    "data_muzero/tictactoe_gumbel_muzero_bot_mode_seed0",
    num_simulations=16,
    max_num_considered_actions=9,
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
