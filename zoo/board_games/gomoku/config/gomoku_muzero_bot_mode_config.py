"""MuZero on Gomoku (6x6, LightZero's size) against the rule bot (``play_with_bot_mode``; LightZero's file name):
the agent is player 1, the env's rule bot replies, and the tree is one-player (the bot's reply
is part of the env's step).

Run: ``lzero train zoo.board_games.gomoku.config.gomoku_muzero_bot_mode_config``.
"""

from zoo.board_games.muzero_board_config import muzero_board_config

max_env_step = int(5e5)
# Connect4's settings (64 games at once, 0.05 updates per env step, every sampled unroll under
# one of the board's 8 symmetries), and the root's moves narrowed by the rules as in the
# AlphaZero Gomoku configs: cells within 2 of a stone, a five taken and a four blocked, and no
# move that leaves the opponent a win by up to 4 continuous fours. Without the rules this
# agent lost every game, in collection and evaluation (see the README). The collector's bot
# errs 30% of the time (evaluation plays it as it is).
SETTINGS = dict(
    game="gomoku",
    board_shape=(6, 6),
    action_space_size=36,
    agent_moves=18,
    num_simulations=50,
    collector_env_num=64,
    eval_freq=500,
    replay_ratio=0.05,
    env=dict(board_size=6, prob_random_action_in_bot=0.3),
    policy=dict(
        symmetry_augmentation=True,
        mcts=dict(radius=2, tactics=True, threat_depth=4),
    ),
)
main_config, create_config = muzero_board_config(
    **SETTINGS, exp_name="data_muzero/gomoku_muzero_bot_mode_seed0"
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
