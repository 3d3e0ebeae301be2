"""MuZero on MountainCar-v0 (gymnasium); stop at a mean eval return of -110 (the task's threshold).

The reward is -1 per step until the flag, so early episodes all return -200: expect a long
flat start before the search finds the hill.

Run: ``python -m zoo.classic_control.mountain_car.config.mountain_car_muzero_config``.
"""

from easydict import EasyDict

collector_env_num = 8
evaluator_env_num = 8
max_env_step = int(2e5)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/mountain_car_muzero_seed0",
        env=dict(
            env_id="MountainCar-v0",
            continuous=False,
            manually_discretization=False,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=-110,
        ),
        # Only what this task changes: every other key keeps its default
        # (lzero/policy/muzero_config.py).
        policy=dict(
            model=dict(
                observation_shape=2,
                action_space_size=3,
                latent_state_dim=64,
            ),
            num_simulations=50,
            game_segment_length=200,
            eval_freq=200,
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(
            type="mountain_car_lightzero",
            import_names=["zoo.classic_control.mountain_car.envs.mtcar_lightzero_env"],
        ),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    # `lzero train` on this module: the same options, and Ctrl-C without a traceback.
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
