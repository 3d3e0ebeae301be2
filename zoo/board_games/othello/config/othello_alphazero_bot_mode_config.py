"""AlphaZero on Othello against the rule bot (``play_with_bot_mode``; LightZero's file name):
the self-play config with the agent as player 1 and the env's rule bot replying.

Run: ``lzero train zoo.board_games.othello.config.othello_alphazero_bot_mode_config``.
"""

from lzero.policy.alphazero_config import bot_mode_variant
from zoo.board_games.othello.config import othello_alphazero_sp_mode_config as sp

main_config, create_config, max_env_step = bot_mode_variant(
    sp, "data_alphazero/othello_alphazero_bot_mode_seed0"
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
