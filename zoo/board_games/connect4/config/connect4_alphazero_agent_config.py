"""The recipe of the Connect4 agent the package ships (``lzero.agent.load_pretrained``): the
self-play AlphaZero config (``connect4_alphazero_sp_mode_config``) set for a two-hour run on
2 CPU cores.

What differs from that config, and why:
- ``overlap_learning`` with one torch thread: a collect's gradient steps run beside the next
  collect, 1.27x the env steps a second (``benchmarks/bench_overlap.py``).
- The learning rate drops x0.1 at 50,000 and again at 100,000 iterations
  (``lr_piecewise_constant_decay``), about a third and two thirds into two hours here.
- ``iteration_N`` checkpoints every 10,000 iterations, the points of the learning curve that
  ``benchmarks/bench_connect4_strength.py`` grades, and an evaluation as often (20 games
  against the MCTS bot at 1,000 rollouts take about 40 s, a quarter of the time at the sp
  config's every 2,000).

Run: ``lzero train zoo.board_games.connect4.config.connect4_alphazero_agent_config --seed 0
--max-minutes 120`` (``--resume data_alphazero/connect4_alphazero_agent_seed0 --max-minutes 120``
continues a stopped run; the budget counts the earlier time).
"""

import copy

from zoo.board_games.connect4.config import connect4_alphazero_sp_mode_config as base

max_env_step = int(1e10)  # the run is bounded by --max-minutes

main_config = copy.deepcopy(base.main_config)
main_config.exp_name = "data_alphazero/connect4_alphazero_agent_seed0"
main_config.policy.update(
    overlap_learning=True,
    torch_num_threads=1,
    lr_piecewise_constant_decay=True,
    threshold_training_steps_for_final_lr=150_000,
    save_ckpt_freq=10_000,
    eval_freq=10_000,
)
create_config = copy.deepcopy(base.create_config)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
