"""Gumbel AlphaZero on TicTacToe, self-play mode (LightZero's file name): the AlphaZero config with
Gumbel AlphaZero's search (Danihelka et al. 2022) of 16 simulations a move, sampling at most
4 root moves (LightZero's TicTacToe Gumbel configs sample 3): with 9, a 16-simulation budget
gives each sampled move one or two visits, and seed 2 lost 14% of 100 games to the perfect bot
after a minute of training, against 2% with 4. Each self-play game opens with 0-2 random moves
(``collect_opening_moves``), so the network meets positions its own play avoids, and the
learning rate falls x0.1 at 400 and x0.01 at 800 iterations (a minute makes about 4,000): the
raw policy then played a perfect move in 94.7-96.1% of the 4,520 reachable positions on seeds
0-5, where it was 90.6-93.9% without the two (``benchmarks/bench_alphazero.py --game tictactoe
--search gumbel --seeds 0 1 2 3 4 5 --minutes 1``; ``benchmarks/results/``).

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_gumbel_alphazero_sp_mode_config``.
"""

from lzero.policy.alphazero_config import gumbel_variant
from zoo.board_games.tictactoe.config import tictactoe_alphazero_sp_mode_config as base

main_config, create_config, max_env_step = gumbel_variant(
    base,
    "data_alphazero/tictactoe_gumbel_alphazero_sp_mode_seed0",
    num_simulations=16,
    max_num_considered_actions=4,
    policy=dict(collect_opening_moves=2, threshold_training_steps_for_final_lr=1200),
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
