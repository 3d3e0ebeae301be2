"""AlphaZero on Connect4 against the rule bot (``play_with_bot_mode``; LightZero's file name):
the self-play config with the agent as player 1 and the pool's rule bot replying.

Run: ``lzero train zoo.board_games.connect4.config.connect4_alphazero_bot_mode_config``.
"""

import copy

from zoo.board_games.connect4.config import connect4_alphazero_sp_mode_config as sp

max_env_step = sp.max_env_step
main_config = copy.deepcopy(sp.main_config)
main_config.exp_name = "data_alphazero/connect4_alphazero_bot_mode_seed0"
main_config.env.battle_mode = "play_with_bot_mode"
create_config = copy.deepcopy(sp.create_config)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
