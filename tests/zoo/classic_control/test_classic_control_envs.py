"""Every classic_control task passes check_env and its configs match its env."""

import numpy as np
import pytest
from gym_tasks import (
    build,
    check_config_matches_its_env,
    check_entry_points,
    config_modules,
)
from gymnasium import spaces

from lzero.envs import ENV_REGISTRY, check_env
from lzero.errors import ConfigError

PKG = "zoo.classic_control"
CASES = {
    "cartpole": ("cartpole_lightzero", f"{PKG}.cartpole.envs.cartpole_lightzero_env", {}, spaces.Discrete(2), 4),
    "pendulum": ("pendulum_lightzero", f"{PKG}.pendulum.envs.pendulum_lightzero_env", {}, spaces.Box(-2.0, 2.0, (1,), np.float32), 3),
    "pendulum_disc": ("pendulum_lightzero", f"{PKG}.pendulum.envs.pendulum_lightzero_env",
                      {"manually_discretization": True, "each_dim_disc_size": 11}, spaces.Discrete(11), 3),
    "mountain_car": ("mountain_car_lightzero", f"{PKG}.mountain_car.envs.mtcar_lightzero_env", {}, spaces.Discrete(3), 2),
    "acrobot": ("acrobot_lightzero", f"{PKG}.acrobot.envs.acrobot_lightzero_env", {}, spaces.Discrete(3), 6),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_env_passes_check_env(case):
    name, module, cfg, action_space, obs_dim = CASES[case]
    env = build(name, module, dict(cfg, collector_env_num=8, stop_value=1))
    assert env.action_space == action_space
    assert env.observation_space["observation"].shape == (obs_dim,)
    check_env(env)
    assert name in ENV_REGISTRY.names()


def test_pendulum_grid_reaches_both_torque_limits():
    env = build(
        "pendulum_lightzero",
        CASES["pendulum"][1],
        {"manually_discretization": True, "each_dim_disc_size": 3},
    )
    table = env.env.env.action_table
    assert table[:, 0].tolist() == [-2.0, 0.0, 2.0]


def test_pendulum_continuous_false_is_lightzeros_discrete_pendulum():
    # LightZero's PendulumEnv: continuous=False alone gives Discrete(11) over -2..2.
    env = build("pendulum_lightzero", CASES["pendulum"][1], {"continuous": False})
    assert env.action_space.n == 11
    table = env.env.env.action_table
    assert table[[0, 5, 10], 0].tolist() == [-2.0, 0.0, 2.0]
    # With manually_discretization given, that setting is kept (False: a Box is refused).
    env = build(
        "pendulum_lightzero",
        CASES["pendulum"][1],
        {"continuous": False, "manually_discretization": False},
    )
    with pytest.raises(ConfigError, match="expected a Discrete action space, got Box"):
        env.reset()


def test_max_episode_steps_cuts_episodes():
    env = build("mountain_car_lightzero", CASES["mountain_car"][1], {"max_episode_steps": 7})
    env.seed(0)
    env.reset()
    steps = [env.step(1) for _ in range(7)]
    assert [s.done for s in steps] == [False] * 6 + [True]
    assert steps[-1].info["TimeLimit.truncated"] is True
    assert steps[-1].info["eval_episode_return"] == -7.0


@pytest.mark.parametrize("module", config_modules("classic_control"))
def test_config_matches_its_env(module):
    check_config_matches_its_env(module)


def test_entry_points_name_the_registering_modules():
    check_entry_points({name: module for name, module, *_ in CASES.values()})


def test_cartpole_v0_is_built_without_gymnasiums_deprecation_warning():
    # CartPole-v0 (200 steps, LightZero's task) is our choice, so gymnasium's "out of date,
    # upgrade to v1" warning is noise on every build; other warnings still show.
    import warnings

    env = build("cartpole_lightzero", f"{PKG}.cartpole.envs.cartpole_lightzero_env", {})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.reset()
    assert env.env.spec.id == "CartPole-v0" and env.env.spec.max_episode_steps == 200


def test_lightzero_env_name_is_the_task_and_inert_keys_are_accepted():
    # LightZero's cartpole_unizero and mountain_car configs name the task env_name; its
    # Stochastic MuZero config adds enable_chance, its agents save_replay.
    env = build("cartpole_lightzero", f"{PKG}.cartpole.envs.cartpole_lightzero_env",
                dict(env_name="CartPole-v1", enable_chance=False, save_replay=False))  # fmt: skip
    env.reset()
    assert env._env.spec.id == "CartPole-v1"
    with pytest.raises(ConfigError, match="env_name: expected the same task as env_id"):
        build("cartpole_lightzero", f"{PKG}.cartpole.envs.cartpole_lightzero_env",
              dict(env_name="CartPole-v1", env_id="CartPole-v0"))  # fmt: skip


@pytest.mark.parametrize("case", ["cartpole", "pendulum_disc", "acrobot"])
def test_the_numba_kernel_inside_plays_gymnasiums_episodes(case):
    # classic_kernels (default True) swaps gymnasium's env for the kernel's, bit for bit.
    from lzero.envs.classic_control.single_env import ClassicControlEnv

    name, module, cfg, _, _ = CASES[case]
    envs = [
        build(name, module, dict(cfg, classic_kernels=k, max_episode_steps=60))
        for k in (True, False)
    ]
    for env in envs:
        env.seed(3)
        env.reset()
    assert isinstance(envs[0]._env.unwrapped, ClassicControlEnv)
    assert not isinstance(envs[1]._env.unwrapped, ClassicControlEnv)
    rng, ends = np.random.default_rng(0), 0
    for _ in range(400):
        a = int(rng.integers(envs[0].action_space.n))
        got, want = (env.step(a) for env in envs)
        assert np.array_equal(got.obs["observation"], want.obs["observation"])
        assert got.reward == want.reward and got.done == want.done
        if got.done:
            assert got.info["eval_episode_return"] == want.info["eval_episode_return"]
            ends += 1
            assert np.array_equal(envs[0].reset()["observation"], envs[1].reset()["observation"])
    assert ends >= 1
