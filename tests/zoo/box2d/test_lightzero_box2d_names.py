"""LightZero's Box2D module and type names build and step with the env dicts of LightZero's
own configs, and mean what LightZero means by them."""

from __future__ import annotations

import numpy as np
import pytest

from lzero.envs.registry import create_env
from lzero.errors import ConfigError

# (type, module, env dict as in LightZero's zoo/box2d configs)
CASES = [
    ("lunarlander", "zoo.box2d.lunarlander.envs.lunarlander_env",
     dict(env_name="LunarLander-v2", continuous=False, manually_discretization=False,
          collector_env_num=8, evaluator_env_num=3, n_evaluator_episode=3,
          manager=dict(shared_memory=False))),
    ("lunarlander", "zoo.box2d.lunarlander.envs.lunarlander_env",
     dict(env_name="LunarLanderContinuous-v2", continuous=True, manually_discretization=False)),
    ("lunarlander_cont_disc", "zoo.box2d.lunarlander.envs.lunarlander_cont_disc_env",
     dict(env_name="LunarLanderContinuous-v2", continuous=False, manually_discretization=True,
          each_dim_disc_size=4)),
    # Newer LightZero configs name the task env_id (the cont_disc and sampled ones, v2 ids).
    ("lunarlander_cont_disc", "zoo.box2d.lunarlander.envs.lunarlander_cont_disc_env",
     dict(env_id="LunarLanderContinuous-v2", continuous=False, manually_discretization=True,
          each_dim_disc_size=4)),
    ("lunarlander", "zoo.box2d.lunarlander.envs.lunarlander_env",
     dict(env_id="LunarLanderContinuous-v2", continuous=True, manually_discretization=False)),
    ("lunarlander", "zoo.box2d.lunarlander.envs.lunarlander_env",
     dict(env_id="LunarLander-v2", continuous=False, manually_discretization=False)),
    ("bipedalwalker", "zoo.box2d.bipedalwalker.envs.bipedalwalker_env",
     dict(env_name="BipedalWalker-v3", env_type="normal", act_scale=True, rew_clip=True)),
    ("bipedalwalker_cont_disc", "zoo.box2d.bipedalwalker.envs.bipedalwalker_cont_disc_env",
     dict(env_name="BipedalWalker-v3", act_scale=True, rew_clip=True, each_dim_disc_size=4)),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "module", "cfg"), CASES)
def test_lightzero_configs_build_and_step(kind, module, cfg):
    env = create_env(dict(type=kind, import_names=[module]), cfg)
    env.seed(0)
    obs = env.reset()
    discrete = hasattr(env.action_space, "n")
    if discrete:
        assert obs["action_mask"].shape == (env.action_space.n,)
    if kind.endswith("cont_disc"):
        dims = 2 if kind.startswith("lunar") else 4
        assert env.action_space.n == 4**dims  # each_dim_disc_size ** action dims
    action = 0 if discrete else np.zeros(env.action_space.shape, np.float32)
    timestep = env.step(action)
    assert timestep.reward.shape == (1,)
    env.close()


def test_bipedal_walker_clips_a_fall_at_minus_ten_but_not_the_return():
    env = create_env(
        dict(type="bipedalwalker", import_names=["zoo.box2d.bipedalwalker.envs.bipedalwalker_env"]),
        dict(rew_clip=True),
    )
    env.seed(0)
    env.reset()
    rewards, done = [], False
    while not done:  # full throttle backwards until it falls or time runs out
        timestep = env.step(np.array([-1.0, 1.0, -1.0, 1.0], np.float32))
        rewards.append(float(timestep.reward[0]))
        done = timestep.done
    assert min(rewards) == -10.0  # the fall's -100, clipped
    assert timestep.info["eval_episode_return"] == pytest.approx(sum(rewards) - 90.0, abs=1e-3)


def test_values_lightzero_has_but_we_cannot_honour_are_refused():
    with pytest.raises(ConfigError, match="delay_reward_step: expected 0"):
        create_env(
            dict(type="lunarlander", import_names=["zoo.box2d.lunarlander.envs.lunarlander_env"]),
            dict(delay_reward_step=3),
        )
    with pytest.raises(ConfigError, match="env_type: expected 'normal' or 'hardcore'"):
        create_env(
            dict(
                type="bipedalwalker",
                import_names=["zoo.box2d.bipedalwalker.envs.bipedalwalker_env"],
            ),
            dict(env_type="easy"),
        )
