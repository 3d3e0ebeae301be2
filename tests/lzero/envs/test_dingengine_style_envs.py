"""Envs written the way DI-engine's demo envs are: ``seed(self, seed)`` with one argument, an
``__init__`` that does not call ours, and masked discrete actions. ``check_env`` and the
managers run them, instead of failing with a TypeError or the env's own illegal-move error."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import BaseEnv, BaseEnvTimestep, check_env, to_reward
from lzero.envs.env_manager import BaseEnvManager, SubprocessEnvManager


class PickEnv(BaseEnv):
    """Pick each of 5 cells once; a cell already picked is an error (it is masked out)."""

    def __init__(self, cfg=None):  # no super().__init__, as DI-engine's demo envs
        self._taken = np.zeros(5, np.int8)

    def seed(self, seed):  # one argument, as DI-engine's demo envs
        self._seed = seed

    def reset(self):
        self._taken[:] = 0
        return self._obs()

    def step(self, action):
        if self._taken[action]:
            raise ValueError(f"cell {action} is taken")
        self._taken[action] = 1
        done = bool(self._taken.all())
        info = {"eval_episode_return": 5.0} if done else {}
        return BaseEnvTimestep(self._obs(), to_reward(1.0), done, info)

    def _obs(self):
        return {"observation": self._taken.astype(np.float32), "action_mask": 1 - self._taken}

    def close(self):
        pass

    observation_space = spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (5,), np.float32),
            "action_mask": spaces.Box(0, 1, (5,), np.int8),
        }
    )
    action_space = spaces.Discrete(5)
    reward_space = spaces.Box(0, 1, (1,), np.float32)


def test_check_env_draws_from_the_action_mask_and_seeds_a_one_argument_seed():
    check_env(PickEnv())


def test_an_env_without_our_init_still_seeds_and_draws_random_actions():
    env = PickEnv()
    BaseEnv.seed(env, 3, dynamic_seed=False)
    env._start_episode()
    first = env.random_action()
    env._start_episode()
    assert env.random_action() == first and env.action_space.contains(first)


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_managers_seed_a_one_argument_seed(manager_cls):
    with manager_cls([PickEnv, PickEnv], dict(shared_memory=False)) as manager:
        manager.seed(7)
        manager.launch()
        obs = manager.ready_obs
        assert sorted(obs) == [0, 1]
        manager.step({i: 0 for i in obs})
