"""MuZero on Connect4 in self-play mode (LightZero's file name): the agent plays both
sides, the tree is two-player (rewards for the mover, values for the player to move), and
evaluation plays the rule and MCTS bots with both colours.

Run: ``lzero train zoo.board_games.connect4.config.connect4_muzero_sp_mode_config``.
"""

from zoo.board_games.muzero_board_config import muzero_board_config

max_env_step = int(5e5)
main_config, create_config = muzero_board_config(
    "connect4",
    board_shape=(6, 7),
    action_space_size=7,
    agent_moves=21,
    num_simulations=50,
    collector_env_num=16,
    eval_freq=500,
    exp_name="data_muzero/connect4_muzero_sp_mode_seed0",
    battle_mode="self_play_mode",
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
