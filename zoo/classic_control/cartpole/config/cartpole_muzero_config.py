"""MuZero on CartPole-v0 (gymnasium), tuned to reach a mean eval return of 195 fast on 2 CPU cores.

Run: ``python -m zoo.classic_control.cartpole.config.cartpole_muzero_config`` or
``lzero train zoo.classic_control.cartpole.config.cartpole_muzero_config``.
"""

from easydict import EasyDict

collector_env_num = 8
evaluator_env_num = 8
max_env_step = int(3e4)

main_config = EasyDict(
    dict(
        exp_name="data_muzero/cartpole_muzero_seed0",
        env=dict(
            env_id="CartPole-v0",
            continuous=False,
            manually_discretization=False,
            collector_env_num=collector_env_num,
            evaluator_env_num=evaluator_env_num,
            n_evaluator_episode=evaluator_env_num,
            stop_value=195,
        ),
        # Only what this task changes: every other key keeps its default
        # (lzero/policy/muzero_config.py).
        policy=dict(
            model=dict(
                observation_shape=4,
                action_space_size=2,
                # bench_muzero_cartpole.py, seeds 0-9: 195 reached within 30,000 env steps on
                # all but seed 5 (stalled near 150); with LightZero's 128, missed on seeds 2, 3
                # and 6 of 0-6 (stopped there). Seed 5's agent balances the pole and drifts:
                # 12 of 16 greedy episodes of its best checkpoint ended with the cart past
                # x = 2.4 (the other 4 lasted 200 steps). Over seeds 0-9,
                # td_steps 5 missed seed 9, td_steps 50 seeds 1 and 9, num_simulations 50
                # seeds 6 and 8 (each fixed seed 5): none is more robust, so none is used.
                latent_state_dim=64,
                support_scale=50,
            ),
            replay_buffer_size=int(1e5),
        ),
    )
)

create_config = EasyDict(
    dict(
        env=dict(type="cartpole_lightzero", import_names=[]),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
)

if __name__ == "__main__":
    # `lzero train` on this module: the same options, and Ctrl-C without a traceback.
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
