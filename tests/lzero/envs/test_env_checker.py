"""check_env passes a correct env and catches each broken rule with its own message."""

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import BaseEnvTimestep, check_env, to_reward
from lzero.errors import EnvCheckError


def test_correct_env_passes(walk_env_cls):
    check_env(walk_env_cls())


def _broken(walk_env_cls, **overrides):
    return type("Broken", (walk_env_cls,), overrides)()


def _step_with(transform):
    def step(self, action):
        return transform(self, super(type(self), self).step(action))

    return step


CASES = {
    "missing space": (
        {"reward_space": property(lambda self: None)},
        r"reward_space: expected a gymnasium space, got None",
    ),
    "list observation": (
        {
            "_obs": lambda self: {
                "observation": [float(self._pos)],
                "action_mask": np.ones(2, np.int8),
                "to_play": -1,
            }
        },
        r"reset: obs\['observation'\]: expected a NumPy array, got list",
    ),
    "float64 observation": (
        {
            "_obs": lambda self: {
                "observation": np.array([self._pos], np.float64),
                "action_mask": np.ones(2, np.int8),
                "to_play": -1,
            }
        },
        r"obs\['observation'\]: expected dtype in .*got float64",
    ),
    "wrong shape": (
        {
            "_obs": lambda self: {
                "observation": np.array([self._pos, 0], np.float32),
                "action_mask": np.ones(2, np.int8),
                "to_play": -1,
            }
        },
        r"expected shape \(1,\), got \(2,\)",
    ),
    "outside space": (
        {
            "observation_space": property(
                lambda self: spaces.Dict(
                    {
                        "observation": spaces.Box(0, 1, (1,), np.float32),
                        "action_mask": spaces.Box(0, 1, (2,), np.int8),
                    }
                )
            )
        },
        r"value lies outside the observation space",
    ),
    "key without space": (
        {
            "observation_space": property(
                lambda self: spaces.Dict({"observation": spaces.Box(0, 10, (1,), np.float32)})
            )
        },
        r"obs\['action_mask'\]: the observation space has no entry",
    ),
    "observation without a key of its space": (
        {"_obs": lambda self: {"observation": np.array([self._pos], np.float32), "to_play": -1}},
        r"reset: expected the keys of observation_space .*without \['action_mask'\]",
    ),
    "no legal action while the episode goes on": (
        {
            "_obs": lambda self: {
                "observation": np.array([self._pos], np.float32),
                "action_mask": np.zeros(2, np.int8),
                "to_play": -1,
            }
        },
        r"reset: obs\['action_mask'\]: expected at least one legal action .*got none",
    ),
    "to_play outside its space": (
        {
            "observation_space": property(
                lambda self: spaces.Dict(
                    {
                        "observation": spaces.Box(0, 10, (1,), np.float32),
                        "action_mask": spaces.Box(0, 1, (2,), np.int8),
                        "to_play": spaces.Discrete(3, start=-1),
                    }
                )
            ),
            "_obs": lambda self: {
                "observation": np.array([self._pos], np.float32),
                "action_mask": np.ones(2, np.int8),
                "to_play": 7,
            },
        },
        r"reset: obs\['to_play'\] = 7 lies outside its space Discrete\(3, start=-1\)",
    ),
    "info not a dict": (
        {"step": _step_with(lambda self, ts: ts._replace(info=None) if not ts.done else ts)},
        r"step 0: expected info to be a dict, got NoneType",
    ),
    "reset raises": (
        {"reset": lambda self: 1 / 0},
        r"reset: env.reset\(\) raised ZeroDivisionError: division by zero",
    ),
    "step raises": (
        {"step": _step_with(lambda self, ts: 1 / 0)},
        r"step 0: env.step\(\d\) raised ZeroDivisionError: division by zero",
    ),
    "python float reward": (
        {"step": _step_with(lambda self, ts: ts._replace(reward=float(ts.reward[0])))},
        r"expected reward as a float32 array of shape \(1,\), got float",
    ),
    "scalar reward array": (
        {"step": _step_with(lambda self, ts: ts._replace(reward=np.zeros((), np.float64)))},
        r"expected reward as a float32 array of shape \(1,\), got float64 array of shape \(\)",
    ),
    "numpy bool done": (
        {"step": _step_with(lambda self, ts: ts._replace(done=np.bool_(ts.done)))},
        r"expected done to be a bool, got numpy\.bool",
    ),
    "missing return": (
        {"step": _step_with(lambda self, ts: ts._replace(info={}))},
        r"expected info\['eval_episode_return'\] to be a Python float .* got NoneType",
    ),
    "not a timestep": (
        {"step": _step_with(lambda self, ts: ts[:3])},
        r"step: expected a BaseEnvTimestep, got tuple",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_env_is_caught(walk_env_cls, case):
    overrides, message = CASES[case]
    with pytest.raises(EnvCheckError, match=message):
        check_env(_broken(walk_env_cls, **overrides))


def test_aliasing_observation_is_caught(walk_env_cls):
    class Aliasing(walk_env_cls):
        def reset(self):
            self._buf = np.zeros(1, np.float32)
            super().reset()
            return self._obs()

        def _obs(self):
            self._buf[0] = self._pos  # the same array every time
            return {"observation": self._buf, "action_mask": np.ones(2, np.int8), "to_play": -1}

    with pytest.raises(
        EnvCheckError, match=r"step 0: the observation returned at reset was changed"
    ):
        check_env(Aliasing())


def test_an_observation_changed_steps_later_is_caught_by_the_episodes_end(walk_env_cls):
    """Each step compares the observation before it; the episode's end compares them all (each
    step comparing them all made the check quadratic: 36 s for BipedalWalker)."""

    class Keeping(walk_env_cls):
        def reset(self):
            self._first, self._steps = super().reset(), 0
            return self._first

        def step(self, action):
            self._steps += 1
            if self._steps == 2:  # the reset observation, changed a step late
                self._first["observation"][...] = -1.0
            return super().step(action)

    with pytest.raises(EnvCheckError, match=r"the observation returned at reset was changed"):
        check_env(Keeping())


def test_unseeded_randomness_is_caught(walk_env_cls):
    class Unseeded(walk_env_cls):
        last_start = None

        def reset(self):
            super().reset()
            # Unseeded draws, redrawn until this episode starts elsewhere than the last one:
            # a single draw repeats the last start one time in seven, and then the checker's
            # two episodes are the same (the test failed that often).
            rng = np.random.default_rng()
            start = int(rng.integers(2, 9))
            while start == self.last_start:
                start = int(rng.integers(2, 9))
            self._pos = self.last_start = start
            return self._obs()

    with pytest.raises(
        EnvCheckError, match=r"static seed 0: two episodes with the same actions differ"
    ):
        check_env(Unseeded())


def test_endless_episode_is_reported(walk_env_cls):
    class Endless(walk_env_cls):
        def step(self, action):
            return BaseEnvTimestep(self._obs(), to_reward(0.0), False, {})

    with pytest.raises(EnvCheckError, match=r"did not end within max_steps=50"):
        check_env(Endless(), max_steps=50)


def test_tuple_observations_are_checked_part_by_part():
    """DingEnvWrapper keeps a Tuple space's observations as tuples of arrays (Blackjack), and
    check_env refused every one of them as not an array."""
    import gymnasium

    from lzero.envs import DingEnvWrapper

    check_env(DingEnvWrapper(gymnasium.make("Blackjack-v1")))

    class Broken(DingEnvWrapper):
        def reset(self):
            return super().reset()[:2]  # a part short

    with pytest.raises(EnvCheckError, match=r"expected a tuple of 3 parts .*, got 2"):
        check_env(Broken(gymnasium.make("Blackjack-v1")))


def test_an_env_without_a_mask_that_shares_its_generator_passes():
    """Without an action mask the checker draws ``env.random_action()``, from the generator the
    env's dynamics use too. The replay took its actions from the first episode without drawing,
    so the env's draws were shifted, and a reproducible env was reported as not."""
    from lzero.envs import BaseEnv

    class Coin(BaseEnv):
        config = dict()
        observation_space = spaces.Box(0, 10, (1,), np.float32)
        action_space = spaces.Discrete(2)
        reward_space = spaces.Box(0.0, 1.0, (1,), np.float32)

        def reset(self):
            self._start_episode()
            self.t, self.ret = 0, 0.0
            return np.zeros(1, np.float32)

        def step(self, action):
            self.t += 1
            reward = float(self.np_random.random() < 0.5)  # seeded, in the dynamics
            self.ret += reward
            done = self.t >= 5
            info = {"eval_episode_return": self.ret} if done else {}
            return BaseEnvTimestep(np.array([self.t], np.float32), to_reward(reward), done, info)

        def close(self):
            pass

    check_env(Coin({}))

    class Unseeded(Coin):
        def step(self, action):
            timestep = super().step(action)
            return timestep._replace(reward=to_reward(float(np.random.default_rng().random())))

    with pytest.raises(EnvCheckError, match=r"static seed 0: two episodes .* differ at step 1"):
        check_env(Unseeded({}))
