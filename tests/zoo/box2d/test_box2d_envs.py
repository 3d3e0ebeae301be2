"""Every box2d task passes check_env and its configs match its env."""

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

pytest.importorskip("Box2D", reason="the box2d tasks need the Box2D wheel (pip install Box2D)")

LUNAR = ("lunarlander_lightzero", "zoo.box2d.lunarlander.envs.lunarlander_lightzero_env")
WALKER = ("bipedalwalker_lightzero", "zoo.box2d.bipedalwalker.envs.bipedalwalker_lightzero_env")
LUNAR_CONT = {"env_id": "LunarLanderContinuous-v3", "continuous": True}
CASES = {
    "lunarlander": (*LUNAR, {}, spaces.Discrete(4), 8),
    "lunarlander_cont": (*LUNAR, LUNAR_CONT, spaces.Box(-1.0, 1.0, (2,), np.float32), 8),
    "lunarlander_cont_disc": (*LUNAR, dict(LUNAR_CONT, manually_discretization=True, each_dim_disc_size=5), spaces.Discrete(25), 8),
    "bipedalwalker": (*WALKER, {}, spaces.Box(-1.0, 1.0, (4,), np.float32), 24),
    "bipedalwalker_disc": (*WALKER, {"manually_discretization": True, "each_dim_disc_size": 3}, spaces.Discrete(81), 24),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_env_passes_check_env(case):
    name, module, cfg, action_space, obs_dim = CASES[case]
    env = build(name, module, cfg)
    assert env.action_space == action_space
    assert env.observation_space["observation"].shape == (obs_dim,)
    # Full-length episodes: random play ends LunarLander in ~100 steps and BipedalWalker
    # within its 1600-step limit (about a second when it walks the whole way).
    check_env(env)
    assert name in ENV_REGISTRY.names()


def test_discretized_lander_plays_the_grid_corners():
    env = build(*LUNAR, dict(LUNAR_CONT, manually_discretization=True, each_dim_disc_size=5))
    table = env.env.env.action_table
    assert table[0].tolist() == [-1.0, -1.0] and table[-1].tolist() == [1.0, 1.0]
    assert table[12].tolist() == [0.0, 0.0]  # the centre of the 5 x 5 grid


def test_wrong_variant_is_reported():
    from lzero.errors import ConfigError

    env = build(*LUNAR, {"continuous": True})  # LunarLander-v3 has discrete engines
    with pytest.raises(
        ConfigError, match=r"expected a Box action space \(continuous=True\), got Discrete\(4\)"
    ):
        env.reset()


@pytest.mark.parametrize("module", config_modules("box2d"))
def test_config_matches_its_env(module):
    check_config_matches_its_env(module)


def test_entry_points_name_the_registering_modules():
    check_entry_points(dict([LUNAR, WALKER]))
