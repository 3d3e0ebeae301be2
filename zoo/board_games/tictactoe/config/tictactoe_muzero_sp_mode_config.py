"""MuZero on TicTacToe in self-play mode (LightZero's file name): the bot-mode config's shared
``SETTINGS`` with the agent on both sides; the tree is two-player (rewards for the mover, values
for the player to move), and evaluation plays the rule, MCTS and alpha_beta (perfect) bots with
both colours. The three settings the bot-mode config adds after them (symmetry augmentation,
``unvisited_value`` 'mean_q', the root's tactics) were tuned against the bot and are not used
here: nothing has measured them in self-play. The collector's ``prob_random_action_in_bot``
comes with ``SETTINGS`` and has no effect without a bot.

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
