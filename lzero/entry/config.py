"""Compiles LightZero-shaped ``[main_config, create_config]`` pairs for the MuZero entries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from easydict import EasyDict

from lzero.envs.config import check_positive_ints, merge_config, merge_config_pair
from lzero.errors import ConfigError
from lzero.policy.muzero_config import MUZERO_POLICY_CONFIG, policy_config

ENV_CONFIG = dict(
    env_id=None,  # (str) gymnasium id of the task, e.g. 'CartPole-v0'
    continuous=False,  # (bool) the gym action space is continuous (Box)
    manually_discretization=False,  # (bool) discretise a continuous action space on a grid
    each_dim_disc_size=11,  # (int) grid points per action dimension when discretising
    collector_env_num=8,  # (int) envs stepped together by the collector
    evaluator_env_num=3,  # (int) envs stepped together by the evaluator
    n_evaluator_episode=3,  # (int) episodes per evaluation
    stop_value=int(1e10),  # (float) stop training once the mean eval return reaches this
    manager=dict(),  # (dict) passed to the env manager as its cfg (free-form)
)

MAIN_CONFIG = dict(
    exp_name="data_muzero/default",  # (str) output directory: ckpt/, progress.csv, PNG
    env=ENV_CONFIG,
    policy=MUZERO_POLICY_CONFIG,
)

CREATE_CONFIG = dict(
    env=dict(type=None, import_names=[]),  # (dict) env registry entry (unused for gym envs)
    env_manager=dict(type="base"),  # (dict) 'base' (in-process) or 'subprocess'
    policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),  # (dict) must be muzero
)


def compile_config(input_cfg: Sequence[Mapping]) -> EasyDict:
    """Validates and merges ``[main_config, create_config]`` over the defaults.

    Returns:
        The main config with ``env_manager`` (from the create config) added.

    Raises:
        ConfigError: the input is not a pair of dicts, a key is unknown, the policy type
            is not ``'muzero'``, or settings contradict each other.
    """
    main_user, create = merge_config_pair(input_cfg, CREATE_CONFIG, "muzero")
    if create.env_manager.type not in ("base", "subprocess"):
        raise ConfigError(
            f"create_config.env_manager: expected type 'base' or 'subprocess', "
            f"got {create.env_manager.type!r}"
        )
    policy_user = dict(main_user.pop("policy", {}) or {})
    policy_user.setdefault("type", create.policy.type)
    policy = policy_config(policy_user)
    main = merge_config(
        {k: v for k, v in MAIN_CONFIG.items() if k != "policy"}, main_user, where="main_config"
    )
    env = main.env
    if not env.env_id:
        raise ConfigError("main_config.env: expected an env_id such as 'CartPole-v0', got none")
    if env.continuous and not env.manually_discretization:
        raise ConfigError(
            "main_config.env: expected manually_discretization=True for a continuous "
            "env (MuZero needs discrete actions), got False"
        )
    if not env.continuous and env.manually_discretization:
        raise ConfigError(
            "main_config.env: expected manually_discretization=False for a discrete "
            "env (continuous=False), got True"
        )
    check_positive_ints(
        env,
        ("collector_env_num", "evaluator_env_num", "n_evaluator_episode", "each_dim_disc_size"),
        where="main_config.env",
    )
    main.policy = policy
    main.env_manager = create.env_manager
    return main
