"""DI-engine's env checks under their names: correct envs pass (a DI-engine-style demo env,
our walk env, a board game with masked moves), and each broken rule fails with its message."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import (
    ENV_REGISTRY,
    BaseEnv,
    BaseEnvTimestep,
    check_all,
    check_array_space,
    check_different_memory,
    demonstrate_correct_procedure,
)
from lzero.envs.env_implementation_check import check_obs_deepcopy, check_space_dtype, check_step
from lzero.errors import EnvCheckError


class DemoEnv(BaseEnv):
    """Written as DI-engine's demo env: no super().__init__, ``seed(self, seed)``, a dict of a
    tuple of boxes as observation, episodes of 30 steps, lazy init."""

    def __init__(self, cfg=None):
        self._rng = np.random.default_rng(0)

    def seed(self, seed):
        self._seed = seed

    def reset(self):
        self._env, self._t = "the real env", 0
        return self._obs()

    def _obs(self):
        return {
            "demo": (
                self._rng.uniform(-10, 10, 4).astype(np.float32),
                self._rng.uniform(-100, 100, 1).astype(np.float32),
            )
        }

    def step(self, action):
        self._t += 1
        done = self._t == 30
        info = {"eval_episode_return": 30.0} if done else {}
        return BaseEnvTimestep(self._obs(), np.array([1.0], np.float32), done, info)

    def close(self):
        pass

    def random_action(self):
        return int(self._rng.integers(5))

    observation_space = spaces.Dict(
        {
            "demo": spaces.Tuple(
                [spaces.Box(-10, 10, (4,), np.float32), spaces.Box(-100, 100, (1,), np.float32)]
            )
        }
    )
    action_space = spaces.Discrete(5)
    reward_space = spaces.Box(0, 1, (1,), np.float32)


def test_correct_envs_pass(walk_env_cls):
    check_all(DemoEnv({}))
    demonstrate_correct_procedure(DemoEnv)
    check_all(walk_env_cls())
    demonstrate_correct_procedure(walk_env_cls)
    # A board game: every step must be a legal move, drawn from the mask.
    check_all(ENV_REGISTRY.build("tictactoe", {"battle_mode": "self_play_mode"}))


def test_check_array_space():
    check_array_space(np.array(2, np.int64), spaces.Discrete(10), "d")
    with pytest.raises(EnvCheckError, match=r"d: expected values in \[0, 10\), got 10"):
        check_array_space(np.array(10, np.int64), spaces.Discrete(10), "d")
    check_array_space(np.array([1, 2], np.int64), spaces.MultiDiscrete([2, 3]), "m")
    with pytest.raises(EnvCheckError, match=r"m: expected values in \[0, \[2 3\]\)"):
        check_array_space(np.array([1, 3], np.int64), spaces.MultiDiscrete([2, 3]), "m")
    box = spaces.Box(0, 10, (3,), np.int64)
    with pytest.raises(EnvCheckError, match=r"s\[1\]: expected dtype int64, got float32"):
        check_array_space((np.arange(3), np.ones(3, np.float32)), [box, box], "s")
    with pytest.raises(EnvCheckError, match=r"o\['a'\]: expected shape \(3,\), got \(2,\)"):
        check_array_space({"a": np.arange(2)}, {"a": box}, "o")
    with pytest.raises(EnvCheckError, match=r"o\['b'\]: expected a space for it, got none"):
        check_array_space({"b": np.arange(3)}, {"a": box}, "o")
    with pytest.raises(TypeError, match="t: expected an np.ndarray or a sequence or dict"):
        check_array_space(1, {"a": box}, "t")


def test_check_different_memory():
    shared = np.arange(3)
    with pytest.raises(EnvCheckError, match="step 4: expected a new array"):
        check_different_memory((shared, np.ones(2)), (shared, np.ones(2)), 4)
    with pytest.raises(EnvCheckError, match="expected a new array"):
        check_different_memory({"a": shared}, {"a": shared[1:]}, 1)  # a view shares memory
    with pytest.raises(EnvCheckError, match="expected observations of one type, got int and dict"):
        check_different_memory(1, {"a": shared}, -1)
    with pytest.raises(TypeError, match="expected np.ndarray or sequences or dicts"):
        check_different_memory(1, 2, -1)
    check_different_memory({"a": np.arange(3), "to_play": 1}, {"a": np.arange(3), "to_play": 2}, 1)


def _variant(walk_env_cls, **overrides):
    return type("Variant", (walk_env_cls,), overrides)()


def test_broken_envs_fail_with_their_rule(walk_env_cls):
    reused = np.zeros(1, np.float32)

    def same_array(self):
        reused[0] = self._pos
        return {"observation": reused, "action_mask": np.ones(2, np.int8), "to_play": -1}

    with pytest.raises(EnvCheckError, match="step 1: expected a new array"):
        check_obs_deepcopy(_variant(walk_env_cls, _obs=same_array))

    def no_return(self, action):
        obs, reward, done, _ = walk_env_cls.step(self, action)
        return BaseEnvTimestep(obs, reward, done, {})

    with pytest.raises(EnvCheckError, match=r"expected info\['eval_episode_return'\]"):
        check_step(_variant(walk_env_cls, step=no_return))
    wide = property(lambda self: spaces.Box(0.0, 1.0, (1,), np.float64))
    with pytest.raises(EnvCheckError, match="rew space: expected dtype float32, got float64"):
        check_space_dtype(_variant(walk_env_cls, reward_space=wide))
    with pytest.raises(EnvCheckError, match=r"expected 3 episodes within max_steps=1, got 0"):
        check_step(walk_env_cls(), max_steps=1)


def test_demonstrate_correct_procedure_wants_lazy_init_and_a_kept_seed():
    class Eager(DemoEnv):
        def __init__(self, cfg=None):
            super().__init__(cfg)
            self._env = "built at once"

    with pytest.raises(EnvCheckError, match=r"init: expected lazy init"):
        demonstrate_correct_procedure(Eager)

    class Forgets(DemoEnv):
        def reset(self):
            self._seed = None
            return super().reset()

    with pytest.raises(EnvCheckError, match="expected env._seed to stay 4, got None"):
        demonstrate_correct_procedure(Forgets)
