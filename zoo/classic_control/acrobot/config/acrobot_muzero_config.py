"""MuZero on Acrobot-v1 (gymnasium); stop at a mean eval return of -100 (the task's threshold).

Acrobot's pure-Python dynamics make each env step slow (about 2 ms), so collection dominates.

Run: ``python -m zoo.classic_control.acrobot.config.acrobot_muzero_config``.
"""

from easydict import EasyDict

collector_env_num = 8
evaluator_env_num = 8
max_env_step = int(1e5)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/acrobot_muzero_seed0",
        env=dict(
            env_id="Acrobot-v1",
            continuous=False,
            manually_discretization=False,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=-100,
        ),
        # Only what this task changes: every other key keeps its default
        # (lzero/policy/muzero_config.py).
        policy=dict(
            model=dict(
                observation_shape=6,
                action_space_size=3,
                latent_state_dim=64,
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
            type="acrobot_lightzero",
            import_names=["zoo.classic_control.acrobot.envs.acrobot_lightzero_env"],
        ),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    # `lzero train` on this module: the same options, and Ctrl-C without a traceback.
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
