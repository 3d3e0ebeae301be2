"""AlphaZero on TicTacToe in self-play mode (LightZero's file name and keys), sized for 2 CPU cores.

Run: ``lzero train zoo.board_games.tictactoe.config.tictactoe_alphazero_sp_mode_config``.
"""

from easydict import EasyDict

collector_env_num = 32
n_episode = 32
num_simulations = 50
update_per_collect = 20
batch_size = 256
max_env_step = int(2e5)

main_config = EasyDict(
    dict(
        exp_name="data_alphazero/tictactoe_alphazero_sp_mode_seed0",
        env=dict(
            battle_mode="self_play_mode",
            bot_action_type="rule",
            channel_last=False,
            collector_env_num=collector_env_num,
            evaluator_env_num=5,
            n_evaluator_episode=10,
            prob_random_agent=0,
            prob_expert_agent=0,
            scale=True,
            stop_value=2,  # never reached: training runs to max_env_step
        ),
        policy=dict(
            model=dict(
                observation_shape=(3, 3, 3), action_space_size=9, num_res_blocks=1, num_channels=32
            ),
            update_per_collect=update_per_collect,
            batch_size=batch_size,
            optim_type="Adam",
            learning_rate=3e-3,
            # x0.1 after 1,000 iterations, x0.01 after 2,000 (3 minutes on 2 cores make about
            # 2,800): the raw policy's last moves sharpen on the final, lower rates.
            lr_piecewise_constant_decay=True,
            threshold_training_steps_for_final_lr=3000,
            weight_decay=1e-4,
            grad_clip_value=0.5,
            value_weight=1.0,
            n_episode=n_episode,
            eval_freq=100,
            mcts=dict(num_simulations=num_simulations),
            other=dict(replay_buffer=dict(replay_buffer_size=int(2e4))),
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(type="tictactoe", import_names=["zoo.board_games.tictactoe.envs.tictactoe_env"]),
        env_manager=dict(type="base"),
        policy=dict(type="alphazero", import_names=["lzero.policy.alphazero"]),
    )
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
