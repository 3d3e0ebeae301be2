"""MuZero on BipedalWalker-v3 with its `[4]` motor torques discretized to 3 ** 4 = 81 actions.

Each motor gets -1, 0 or 1 (both bounds included); a finer grid grows as n ** 4 (5 -> 625
actions). Needs the Box2D wheel: ``pip install -e ".[box2d]"``.

Run: ``python -m zoo.box2d.bipedalwalker.config.bipedalwalker_cont_disc_muzero_config``.
"""

from easydict import EasyDict

collector_env_num = 8
evaluator_env_num = 8
max_env_step = int(1e6)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/bipedalwalker_cont_disc_muzero_seed0",
        env=dict(
            env_id="BipedalWalker-v3",
            continuous=True,
            manually_discretization=True,
            each_dim_disc_size=3,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=300,
        ),
        # Only what this task changes: every other key keeps its default
        # (lzero/policy/muzero_config.py).
        policy=dict(
            model=dict(
                observation_shape=24,
                action_space_size=81,
                latent_state_dim=256,
                hidden_size=256,
            ),
            num_simulations=50,
            game_segment_length=400,
            eval_freq=200,
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(
            type="bipedalwalker_lightzero",
            import_names=["zoo.box2d.bipedalwalker.envs.bipedalwalker_lightzero_env"],
        ),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    # `lzero train` on this module: the same options, and Ctrl-C without a traceback.
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
