"""MuZero on Pendulum-v1 (gymnasium) with the torque discretised into 11 actions.

Run: ``python -m zoo.classic_control.pendulum.config.pendulum_cont_disc_muzero_config`` or
``lzero train zoo.classic_control.pendulum.config.pendulum_cont_disc_muzero_config``.
"""

from easydict import EasyDict

collector_env_num = 8
evaluator_env_num = 8
each_dim_disc_size = 11
max_env_step = int(1e5)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/pendulum_muzero_seed0",
        env=dict(
            env_id="Pendulum-v1",
            continuous=True,
            manually_discretization=True,
            each_dim_disc_size=each_dim_disc_size,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=-200,
        ),
        # Only what this task changes: every other key keeps its default
        # (lzero/policy/muzero_config.py).
        policy=dict(
            model=dict(
                observation_shape=3,
                action_space_size=each_dim_disc_size,
                latent_state_dim=64,
                support_scale=50,
            ),
            num_simulations=50,
            discount_factor=0.99,
            eval_freq=200,
            replay_buffer_size=int(1e5),
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(
            type="pendulum_lightzero",
            import_names=["zoo.classic_control.pendulum.envs.pendulum_lightzero_env"],
        ),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    # `lzero train` on this module: the same options, and Ctrl-C without a traceback.
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
