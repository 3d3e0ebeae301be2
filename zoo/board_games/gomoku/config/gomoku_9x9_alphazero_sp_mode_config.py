"""AlphaZero on 9x9 Gomoku in self-play mode: the 6x6 config on a 9x9 board, with 100
simulations a move. Run: ``lzero train zoo.board_games.gomoku.config.gomoku_9x9_alphazero_sp_mode_config``.
"""

from zoo.board_games.gomoku.config.gomoku_alphazero_sp_mode_config import for_board

max_env_step = int(2e6)
main_config, create_config = for_board(
    9, num_simulations=100, exp_name="data_alphazero/gomoku_9x9_alphazero_sp_mode_seed0"
)
# An evaluation (20 games against each bot at 200 simulations) took 34 s, as long as about
# 100 iterations of training: every 400 iterations it would take a fifth of the hour.
main_config.policy.eval_freq = 2000
# Evaluation during training stays at 200 simulations a move; benchmarks/bench_alphazero.py
# judges the last checkpoint at 1,600 (``lzero eval --simulations 1600``). At 1,600 the
# evaluations during a 60-minute side-by-side run took 5-8 minutes of its training time.
# Ours (see AlphaZero's config): the value target is the mean of the game's outcome and the
# searched root value, as in the Connect4 configs. Seed 0, 25 minutes beside the run without
# it: 0.62 against 0.53 wins in 60 games against the rule bot (about 1.3 standard errors).
main_config.policy.root_value_target_weight = 0.5
# Ours (lzero.model.line_features): the network also sees, for every empty cell, how many open
# 5-cell windows through it hold 4, 3 or 2 stones of each side (the threats the rule bot reads).
# Seeds 0-2, 60 minutes side by side (a third of the machine each): 0.83, 0.81 and 0.78 wins in
# 100 games against the rule bot, where the same protocol without it won 0.58, 0.71 and 0.66.
main_config.policy.model.line_features = 5
# Evaluation and agents (self-play: collect_fpu_reduction below): judged at 1,600 simulations,
# fresh seeds 6-8 beat the rule bot in 0.92/0.85/0.94 of 100 games with it, 0.89/0.81/0.81
# without (README, "AlphaZero on the board games").
main_config.policy.eval_fpu_reduction = 0.2
# Not used: eval_fpu_reduction 0.4; two checkpoints judged with it won 0.92/0.91 against
# 0.93/0.92 with 0.2 (README, "AlphaZero on the board games").
# Ours, self-play too, below the root only (KataGo's self-play): seeds 6-8 retrained with it
# (60 minutes side by side) won 0.96/0.89/0.94 of 100 games against the rule bot at 1,600
# simulations, against 0.92/0.85/0.94 without (README, "AlphaZero on the board games").
main_config.policy.collect_fpu_reduction = 0.2
# Not used: policy.collect_reuse_tree (AlphaGo Zero's self-play; README, "AlphaZero on the board
# games"). Seeds 12-14, 60 minutes side by side on one machine: 0.92/0.90/0.88 against the rule
# bot with it, 0.92/0.90/0.94 without.
# The replay keeps about the whole hour (200,000 positions, for_board); with the last 50,000,
# seeds 12-14 won 0.92/0.91/0.93 (README, "AlphaZero on the board games").
# Not used: policy.discount_factor (a win sooner worth more); with 0.99, seeds 12-14 won
# 0.87/0.91/0.95 (README, "AlphaZero on the board games").
# Not used: num_sampling_moves=20 (moves sampled from the visits for 20 plies, not 9); seeds
# 12-14 won 0.91/0.88/0.92 (README, "AlphaZero on the board games").
# Not used: root_value_target_weight=0 (the outcome alone as the value target); seeds 12-14
# won 0.93/0.91/0.90 (README, "AlphaZero on the board games").
# Not used: model.num_res_blocks=3 (a 15x15 receptive field); seeds 12-17 won
# 0.93/0.92/0.94/0.94/0.93/0.88, mean 0.92 as with 2 (README, "AlphaZero on the board games").
# Not used: mcts.pb_c_init=2.0 (AlphaZero's 1.25 here); seeds 12-14 won 0.88/0.89/0.88 (README,
# "AlphaZero on the board games").
# Not used: model.line_directions=True (double threats as 4 more input planes); seeds 12-14
# won 0.88/0.93/0.87 (README, "AlphaZero on the board games").
# Not used: policy.value_weight=2; seeds 12-14 won 0.93/0.92/0.93 and seeds 6-8 0.94/0.88/0.89
# (README, "AlphaZero on the board games").
# Not used: mcts.root_dirichlet_alpha=0.15 (0.3 here); seeds 12-14 won 0.92/0.92/0.92 (README,
# "AlphaZero on the board games").
# Not used: mcts.root_noise_weight=0.15 (0.25 here); seeds 12-14 won 0.91/0.91/0.92 (README,
# "AlphaZero on the board games").

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
