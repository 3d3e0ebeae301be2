"""The single classic-control env over the kernels against ``gymnasium.make`` of the same id."""

from __future__ import annotations

import copy
import pickle
import warnings

import gymnasium
import numpy as np
import pytest

from lzero.envs.classic_control.single_env import ClassicControlEnv, make_classic_env
from lzero.envs.classic_control.stepper import TASKS


def _action(space, rng):
    if isinstance(space, gymnasium.spaces.Box):
        dtype = np.float32 if rng.random() < 0.5 else np.float64  # NumPy follows the dtype
        return np.array([rng.uniform(-1.5, 1.5) * space.high[0]], dtype)
    return int(rng.integers(space.n))


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_episodes_are_gymnasiums_from_the_same_seed(task_id):
    ours = make_classic_env(task_id, max_episode_steps=120)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make(task_id, max_episode_steps=120)
    assert isinstance(ours.unwrapped, ClassicControlEnv) and ours.spec.id == task_id
    assert ours.observation_space == ref.observation_space and ours.action_space == ref.action_space
    rng, episodes = np.random.default_rng(0), 0
    first = [ours.reset(seed=9), ref.reset(seed=9)]
    assert np.array_equal(first[0][0], first[1][0])
    for _ in range(600):
        a = _action(ref.action_space, rng)
        got, want = ours.step(a), ref.step(a)
        assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
        if got[2] or got[3]:  # unseeded resets go on with the same generator
            assert np.array_equal(ours.reset()[0], ref.reset()[0])
            episodes += 1
    assert episodes >= 3
    # The generator is left where gymnasium's env leaves it.
    assert (
        ours.unwrapped.np_random.bit_generator.state == ref.unwrapped.np_random.bit_generator.state
    )


def test_bad_calls_raise_and_say_what_was_expected():
    env = ClassicControlEnv("CartPole-v1")
    with pytest.raises(RuntimeError, match="step: expected reset"):
        env.step(0)
    env.reset(seed=0)
    before = env.state
    with pytest.raises(ValueError, match=r"expected an action in \[0, 2\), got 2"):
        env.step(2)
    assert env.state == before
    with pytest.raises(ValueError, match="options: expected None"):
        env.reset(options={"low": -0.1})
    with pytest.raises(ValueError, match="render_mode: expected None"):
        ClassicControlEnv("CartPole-v1", render_mode="rgb_array")
    with pytest.raises(KeyError, match="task_id: expected one of"):
        ClassicControlEnv("LunarLander-v3")


def test_envs_deep_copy_and_pickle_mid_episode():
    # DI-engine's managers and LightZero's code deep-copy and pickle envs.
    env = make_classic_env("Acrobot-v1")
    env.reset(seed=1)
    env.step(2)
    for clone in (copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))):
        twin = clone(env)
        assert twin.unwrapped.state == env.unwrapped.state
        got, want = twin.step(0), env.step(0)
        assert np.array_equal(got[0], want[0]) and got[1:4] == want[1:4]
