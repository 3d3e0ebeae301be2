"""MuZero on Gomoku (6x6) in self-play mode (LightZero's file name): the agent plays both
sides, the tree is two-player (rewards for the mover, values for the player to move), and
evaluation plays the rule and MCTS bots with both colours.

Run: ``lzero train zoo.board_games.gomoku.config.gomoku_muzero_sp_mode_config``.
"""

from zoo.board_games.muzero_board_config import muzero_board_config

max_env_step = int(5e5)
main_config, create_config = muzero_board_config(
    "gomoku",
    board_shape=(6, 6),
    action_space_size=36,
    agent_moves=18,
    num_simulations=50,
    collector_env_num=16,
    eval_freq=500,
    exp_name="data_muzero/gomoku_muzero_sp_mode_seed0",
    battle_mode="self_play_mode",
    env=dict(board_size=6),
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
