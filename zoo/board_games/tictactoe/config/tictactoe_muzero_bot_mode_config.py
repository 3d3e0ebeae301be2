"""MuZero on TicTacToe against the rule bot (``play_with_bot_mode``; LightZero's file name):
the agent is player 1, the env's rule bot replies, and the tree is one-player (the bot's reply
is part of the env's step).

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_muzero_bot_mode_config``.
"""

from zoo.board_games.muzero_board_config import muzero_board_config

max_env_step = int(1e5)
# The collector's bot plays a random move 30% of the time, so that wins show up in the data
# early; evaluation plays the rule bot as it is.
SETTINGS = dict(
    game="tictactoe",
    board_shape=(3, 3),
    action_space_size=9,
    agent_moves=5,
    num_simulations=25,
    collector_env_num=8,
    eval_freq=200,
    env=dict(prob_random_action_in_bot=0.3),
)
main_config, create_config = muzero_board_config(
    **SETTINGS, exp_name="data_muzero/tictactoe_muzero_bot_mode_seed0"
)
# Each sampled unroll on one of the 8 symmetric boards. With it, seeds 0 and 2 beat the rule bot
# in every eval game after 832 and 2,920 env steps (27 and 90 s); without it, only seed 0 did
# within 10 minutes. Seed 1 still settled for draws either way, until:
main_config.policy.symmetry_augmentation = True
# An unvisited edge worth its node's mean Q (LightZero's trees) rather than 0, the least value
# once Q is normalised: the search now tries the moves its prior has written off. Seed 1 beat the
# rule bot in every eval game at 12,760 env steps (304 s) instead of drawing all of them for
# 10 minutes (it had settled on the centre; only the corner opening beats this bot); seeds 0 and
# 2 at 824 env steps (20 and 22 s), seed 3 at 2,512 (it drew throughout with 'zero'). Seeds 4
# and 5 still drew throughout, until:
main_config.policy.unvisited_value = "mean_q"
# The root's moves narrowed by the rules, as AlphaZero's search narrows them: a winning move
# alone, no move that lets the bot win next, and the first move of a forced win by up to 2
# continuous threats (a fork) alone. Seeds 0-9 beat the rule bot in every eval game at 408 to
# 1,688 env steps (14 to 74 s; see the README).
main_config.policy.mcts = dict(tactics=True, threat_depth=2)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
