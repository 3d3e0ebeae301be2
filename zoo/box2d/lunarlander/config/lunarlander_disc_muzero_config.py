"""MuZero on LunarLander-v3 (discrete engines, gymnasium Box2D); stop at a mean eval return of 200.

Needs the Box2D wheel: ``pip install -e ".[box2d]"``.

Run: ``python -m zoo.box2d.lunarlander.config.lunarlander_disc_muzero_config``.
"""

from easydict import EasyDict

collector_env_num = 8
evaluator_env_num = 8
max_env_step = int(1e6)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/lunarlander_disc_muzero_seed0",
        env=dict(
            env_id="LunarLander-v3",
            continuous=False,
            manually_discretization=False,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=200,
        ),
        # Only what this task changes: every other key keeps its default
        # (lzero/policy/muzero_config.py).
        policy=dict(
            model=dict(
                observation_shape=8,
                action_space_size=4,
            ),
            num_simulations=50,
            game_segment_length=300,
            eval_freq=200,
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(
            type="lunarlander_lightzero",
            import_names=["zoo.box2d.lunarlander.envs.lunarlander_lightzero_env"],
        ),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    # `lzero train` on this module: the same options, and Ctrl-C without a traceback.
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
