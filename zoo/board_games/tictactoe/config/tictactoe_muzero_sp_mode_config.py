"""MuZero on TicTacToe in self-play mode (LightZero's file name): the bot-mode config's settings
with the agent on both sides; the tree is two-player (rewards for the mover, values for the
player to move), and evaluation plays the rule, MCTS and alpha_beta (perfect) bots with both
colours.

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_muzero_sp_mode_config``.
"""

from zoo.board_games.muzero_board_config import muzero_board_config
from zoo.board_games.tictactoe.config.tictactoe_muzero_bot_mode_config import SETTINGS, max_env_step

__all__ = ["create_config", "main_config", "max_env_step"]

main_config, create_config = muzero_board_config(
    **SETTINGS,
    battle_mode="self_play_mode",
    exp_name="data_muzero/tictactoe_muzero_sp_mode_seed0",
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
