"""A larger-network variant of the shipped Connect4 recipe
(``connect4_alphazero_agent_config``): 3 residual blocks of 64 channels instead of 2 of 32.

Why: in the shipped run the network alone stopped improving after about 55 of its 120
minutes (beginning-hard errors 16-17% from 60,000 to 140,000 iterations, through both
learning-rate drops), while the 200-simulation search on the same network made 9-11%: the
network no longer fitted its own search targets, a sign of too little capacity. The tower
costs about 3x per forward pass here (16.3 against 5.2 ms for a batch of 64, one thread) and
the learner's steps are the slower side of the overlap (about 200 positions a second against
the shipped run's 1,000), so two hours are about a quarter of the iterations: the learning-
rate drops (at 13,333 and 26,667 iterations), checkpoints and evaluations are placed for
that.

Run: ``lzero train zoo.board_games.connect4.config.connect4_alphazero_agent_large_config
--seed 0 --max-minutes 120``.
"""

import copy

from zoo.board_games.connect4.config import connect4_alphazero_agent_config as base

max_env_step = base.max_env_step

main_config = copy.deepcopy(base.main_config)
main_config.exp_name = "data_alphazero/connect4_alphazero_agent_large_seed0"
main_config.policy.model.update(num_res_blocks=3, num_channels=64)
main_config.policy.update(
    threshold_training_steps_for_final_lr=40_000,
    save_ckpt_freq=5_000,
    eval_freq=5_000,
)
create_config = copy.deepcopy(base.create_config)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
