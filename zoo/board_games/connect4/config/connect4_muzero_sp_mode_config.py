"""MuZero on Connect4 in self-play mode (LightZero's file name and keys): the agent plays
both sides, the tree is two-player (rewards for the mover, values for the player to move),
and evaluation plays the rule and MCTS bots with both colours.

Run: ``lzero train zoo.board_games.connect4.config.connect4_muzero_sp_mode_config``.
"""

from lzero.policy.muzero_config import mode_variant
from zoo.board_games.connect4.config import connect4_muzero_bot_mode_config as bot

main_config, create_config, max_env_step = mode_variant(
    bot, "self_play_mode", "data_muzero/connect4_muzero_sp_mode_seed0"
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
