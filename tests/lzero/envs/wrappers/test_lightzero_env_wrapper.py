"""LightZeroEnvWrapper returns LightZero observation dicts with a matching Dict space."""

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import check_env
from lzero.envs.wrappers import ActionDiscretizationEnvWrapper, DingEnvWrapper, LightZeroEnvWrapper
from lzero.errors import ConfigError


def test_discrete_actions_get_an_all_ones_int8_mask():
    env = LightZeroEnvWrapper(gymnasium.make("Acrobot-v1"), {"env_id": "Acrobot-v1"})
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"observation", "action_mask", "to_play"}
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].tolist() == [1, 1, 1]
    assert obs["to_play"] == -1
    assert env.observation_space.contains(obs)
    assert env.observation_space["observation"] == gymnasium.make("Acrobot-v1").observation_space


def test_continuous_actions_get_no_mask_and_the_space_has_no_mask_entry():
    env = LightZeroEnvWrapper(gymnasium.make("Pendulum-v1"), {"continuous": True})
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"] is None and obs["to_play"] == -1
    assert set(env.observation_space.spaces) == {"observation", "to_play"}
    assert env.action_space == gymnasium.make("Pendulum-v1").action_space


def test_discretized_env_gets_a_mask_of_the_product_size():
    inner = ActionDiscretizationEnvWrapper(gymnasium.make("Pendulum-v1"), {"each_dim_disc_size": 7})
    env = LightZeroEnvWrapper(inner, {"continuous": True, "manually_discretization": True})
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].shape == (7,)
    assert env.observation_space["action_mask"] == spaces.Box(0, 1, (7,), np.int8)


def test_episode_return_is_reported_at_the_end():
    env = LightZeroEnvWrapper(gymnasium.make("CartPole-v1"))
    env.reset(seed=1)
    total = 0.0
    while True:
        obs, reward, term, trunc, info = env.step(1)
        total += reward
        if term or trunc:
            break
    assert info["eval_episode_return"] == total


def test_through_ding_env_wrapper_passes_check_env():
    cfg = {"env_wrapper": [lambda e: LightZeroEnvWrapper(e, {"continuous": True})]}
    env = DingEnvWrapper(gymnasium.make("Pendulum-v1"), cfg)
    check_env(env)
    obs = env.reset()
    assert obs["observation"].dtype == np.float32 and obs["action_mask"] is None


@pytest.mark.parametrize(
    ("env_id", "cfg", "message"),
    [
        (
            "Pendulum-v1",
            {},
            r"expected a Discrete action space, got Box.*\(continuous=False says the env's own "
            r"actions are discrete; manually_discretization=True discretizes a Box\)",
        ),
        (  # the flag alone does not discretize: ActionDiscretizationEnvWrapper does
            "Pendulum-v1",
            {"continuous": True, "manually_discretization": True},
            r"got Box.*only through ActionDiscretizationEnvWrapper",
        ),
        (
            "CartPole-v1",
            {"continuous": True},
            r"expected a Box action space \(continuous=True\), got Discrete\(2\)",
        ),
        (
            "CartPole-v1",
            {"is_training": True},
            r"unknown key 'is_training'; did you mean 'is_train'",
        ),
    ],
)
def test_config_errors(env_id, cfg, message):
    with pytest.raises(ConfigError, match=message):
        LightZeroEnvWrapper(gymnasium.make(env_id), cfg)


def test_wrappers_are_registered_by_name():
    from lzero.envs import ENV_WRAPPER_REGISTRY

    assert ENV_WRAPPER_REGISTRY.get("lightzero") is LightZeroEnvWrapper
    assert ENV_WRAPPER_REGISTRY.get("action_discretization") is ActionDiscretizationEnvWrapper
