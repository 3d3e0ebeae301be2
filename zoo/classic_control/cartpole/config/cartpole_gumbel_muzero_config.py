"""Gumbel MuZero on CartPole (LightZero's file name): the MuZero config with Gumbel MuZero's
search (Danihelka et al. 2022) of 16 simulations a step over both actions.

Run: ``lzero train zoo.classic_control.cartpole.config.cartpole_gumbel_muzero_config``.
"""

from lzero.policy.muzero_config import gumbel_muzero_variant
from zoo.classic_control.cartpole.config import cartpole_muzero_config as base

main_config, create_config, max_env_step = gumbel_muzero_variant(
    base,
    "data_muzero/cartpole_gumbel_muzero_seed0",
    num_simulations=16,
    max_num_considered_actions=2,
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
