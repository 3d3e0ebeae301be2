"""AlphaZero on Othello in self-play mode (LightZero's file name and keys), sized for 2 CPU cores.

Evaluated against the rule bot and the MCTS bot at 1,000 rollout simulations a move; the
board's 8 symmetries (the pass maps to itself) augment the training positions.
Run: ``lzero train zoo.board_games.othello.config.othello_alphazero_sp_mode_config``.
"""

from easydict import EasyDict

collector_env_num = 64
n_episode = 64
num_simulations = 50
update_per_collect = 40
batch_size = 256
max_env_step = int(2e6)

main_config = EasyDict(
    dict(
        exp_name="data_alphazero/othello_alphazero_sp_mode_seed0",
        env=dict(
            battle_mode="self_play_mode",
            bot_action_type="rule",
            mcts_bot_num_simulations=1000,
            collector_env_num=collector_env_num,
            n_evaluator_episode=20,
            scale=True,
            stop_value=2,  # never reached: training runs to max_env_step
        ),
        policy=dict(
            model=dict(
                observation_shape=(3, 8, 8), action_space_size=65, num_res_blocks=2, num_channels=32
            ),
            update_per_collect=update_per_collect,
            batch_size=batch_size,
            optim_type="Adam",
            learning_rate=2e-3,
            weight_decay=1e-4,
            grad_clip_value=1.0,
            n_episode=n_episode,
            eval_freq=2000,
            num_sampling_moves=20,
            eval_bots=["rule", "mcts"],
            eval_num_simulations=200,
            eval_opening_moves=2,
            root_value_target_weight=0.5,
            # No tactics: Othello is not won by a line, so there is no immediate win to take
            # or block, and its pass is a move like any other.
            mcts=dict(num_simulations=num_simulations, root_dirichlet_alpha=0.5, tactics=False),
            other=dict(replay_buffer=dict(replay_buffer_size=int(2e5))),
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(type="othello", import_names=["zoo.board_games.othello.envs.othello_env"]),
        env_manager=dict(type="base"),
        policy=dict(type="alphazero", import_names=["lzero.policy.alphazero"]),
    )
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
