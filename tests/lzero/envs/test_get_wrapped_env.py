"""get_wrappered_env builds LightZero-wrapped gym envs the way the MuZero entry asks for them."""

import pickle

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import check_env
from lzero.envs.get_wrapped_env import get_wrappered_env
from lzero.envs.wrappers import DingEnvWrapper
from lzero.errors import ConfigError

# The keys the MuZero entry passes (lzero/entry/train_muzero_with_gym_env.py).
ENTRY_CFG = dict(
    env_id="CartPole-v1",
    continuous=False,
    manually_discretization=False,
    each_dim_disc_size=11,
    is_train=True,
)


def test_discrete_task():
    factory = get_wrappered_env(ENTRY_CFG, "CartPole-v1")
    env = factory()
    assert isinstance(env, DingEnvWrapper) and env._init_flag is False  # lazy
    obs = env.reset()
    assert obs["observation"].shape == (4,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].tolist() == [1, 1] and obs["to_play"] == -1
    check_env(env)


def test_discretized_task_hits_both_torque_bounds():
    cfg = dict(ENTRY_CFG, env_id="Pendulum-v1", continuous=True, manually_discretization=True,
               each_dim_disc_size=5)  # fmt: skip
    env = get_wrappered_env(cfg, "Pendulum-v1")()
    assert env.action_space == spaces.Discrete(5)
    assert env.reset()["action_mask"].shape == (5,)
    inner = env.env.env  # LightZeroEnvWrapper -> ActionDiscretizationEnvWrapper
    assert inner.action_table[:, 0].tolist() == [-2.0, -1.0, 0.0, 1.0, 2.0]
    check_env(env)


def test_continuous_task_without_discretization():
    cfg = dict(ENTRY_CFG, continuous=True, env_id=None)
    env = get_wrappered_env(cfg, "Pendulum-v1")()
    assert env.reset()["action_mask"] is None and isinstance(env.action_space, spaces.Box)


def test_factory_is_picklable_and_envs_are_independent():
    factory = pickle.loads(pickle.dumps(get_wrappered_env(ENTRY_CFG, "CartPole-v1")))
    a, b = factory(), factory()
    a.seed(1, dynamic_seed=False)
    b.seed(1, dynamic_seed=False)
    assert np.array_equal(a.reset()["observation"], b.reset()["observation"])
    a.step(0)
    assert a.env is not b.env


def test_unknown_env_id_names_close_matches():
    with pytest.raises(
        ConfigError,
        match=r"unknown gymnasium id 'LunarLander-v9'; close matches: \['LunarLander-v3'",
    ):
        get_wrappered_env(dict(ENTRY_CFG, env_id=None), "LunarLander-v9")
    with pytest.raises(ConfigError, match=r"no close match in the gymnasium registry"):
        get_wrappered_env(dict(ENTRY_CFG, env_id=None), "zzzzzz")


def test_config_errors():
    with pytest.raises(
        ConfigError,
        match=r"expected wrapper_cfg\['env_id'\] to match env_id 'Acrobot-v1', got 'CartPole-v1'",
    ):
        get_wrappered_env(ENTRY_CFG, "Acrobot-v1")
    with pytest.raises(
        ConfigError, match=r"wrapper_cfg: unknown key 'continous'; did you mean 'continuous'"
    ):
        get_wrappered_env(dict(ENTRY_CFG, continous=True), "CartPole-v1")


def test_lightzeros_older_env_name_key_names_the_task():
    """LightZero's older wrapper configs call env_id env_name; it was an unknown key."""
    older = {k: v for k, v in ENTRY_CFG.items() if k != "env_id"}
    env = get_wrappered_env(dict(older, env_name="CartPole-v1"), "CartPole-v1")()
    assert env.reset()["action_mask"].tolist() == [1, 1]
    with pytest.raises(
        ConfigError, match=r"expected wrapper_cfg\['env_id'\] to match env_id 'Acrobot-v1'"
    ):
        get_wrappered_env(dict(older, env_name="CartPole-v1"), "Acrobot-v1")
    with pytest.raises(ConfigError, match=r"env_name.*and env_id, or both equal"):
        get_wrappered_env(dict(ENTRY_CFG, env_name="Acrobot-v1"), "CartPole-v1")


def test_discretizing_a_discrete_task_is_an_error():
    cfg = dict(ENTRY_CFG, manually_discretization=True)
    env = get_wrappered_env(cfg, "CartPole-v1")()
    with pytest.raises(
        ConfigError, match=r"expected a continuous \(Box\) action space, got Discrete\(2\)"
    ):
        env.reset()
