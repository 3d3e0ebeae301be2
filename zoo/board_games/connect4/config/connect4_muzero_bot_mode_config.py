"""MuZero on Connect4 against the rule bot (``play_with_bot_mode``; LightZero's file name and
keys), sized for 2 CPU cores: the agent is player 1, the env's rule bot replies, and the tree
is one-player (the bot's reply is part of the env's step).

Run: ``lzero train zoo.board_games.connect4.config.connect4_muzero_bot_mode_config``.
"""

from easydict import EasyDict

collector_env_num = 8
n_episode = 8
evaluator_env_num = 5
num_simulations = 50
batch_size = 128
max_env_step = int(5e5)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/connect4_muzero_bot_mode_seed0",
        env=dict(
            battle_mode="play_with_bot_mode",
            bot_action_type="rule",
            channel_last=False,
            scale=True,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=1,
        ),
        policy=dict(
            model=dict(
                model_type="conv",
                observation_shape=(3, 6, 7),
                action_space_size=7,
                image_channel=3,
                num_res_blocks=1,
                num_channels=32,
                fc_reward_layers=[32],
                fc_value_layers=[32],
                fc_policy_layers=[32],
                support_scale=10,
                reward_support_size=21,
                value_support_size=21,
            ),
            env_type="board_games",
            num_simulations=num_simulations,
            game_segment_length=21,  # an agent's moves in a game at most
            # In board games the value target is the game's outcome: td_steps spans a game.
            td_steps=21,
            num_unroll_steps=3,
            discount_factor=1,
            batch_size=batch_size,
            replay_ratio=0.5,
            learning_rate=3e-3,
            grad_clip_value=0.5,
            fixed_temperature_value=1.0,
            n_episode=n_episode,
            eval_freq=500,
            replay_buffer_size=int(1e5),
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(type="connect4", import_names=["zoo.board_games.connect4.envs.connect4_env"]),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
