"""MuZero on TicTacToe in self-play mode (LightZero's file name): the agent plays both
sides, the tree is two-player (rewards for the mover, values for the player to move), and
evaluation plays the rule and perfect bots with both colours.

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_muzero_sp_mode_config``.
"""

from zoo.board_games.muzero_board_config import muzero_board_config

max_env_step = int(1e5)
main_config, create_config = muzero_board_config(
    "tictactoe",
    board_shape=(3, 3),
    action_space_size=9,
    agent_moves=5,
    num_simulations=25,
    collector_env_num=8,
    eval_freq=200,
    exp_name="data_muzero/tictactoe_muzero_sp_mode_seed0",
    battle_mode="self_play_mode",
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
