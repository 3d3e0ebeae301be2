"""DI-engine's wrapper presets and wrapper dicts in DingEnvWrapper's env_wrapper, checked against
the same gymnasium env stepped with gymnasium's own wrappers, or alone."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from lzero.envs import DingEnvWrapper
from lzero.envs.wrappers import get_default_wrappers
from lzero.errors import ConfigError


def returns(env, actions):
    env.seed(3, dynamic_seed=False)
    obs = [env.reset()]
    rewards = []
    for a in actions:
        ts = env.step(a)
        obs.append(ts.obs)
        rewards.append(float(ts.reward[0]))
        if ts.done:
            return obs, rewards, ts.info
    return obs, rewards, None


@pytest.mark.parametrize("preset", ["default", "mujoco_default"])
def test_presets_step_as_the_bare_env(preset):
    actions = [1] * 40
    plain = returns(DingEnvWrapper(cfg={"env_id": "CartPole-v1"}), actions)
    preset_run = returns(
        DingEnvWrapper(cfg={"env_id": "CartPole-v1", "env_wrapper": preset}), actions
    )
    np.testing.assert_array_equal(np.stack(plain[0]), np.stack(preset_run[0]))
    assert plain[1] == preset_run[1]
    assert preset_run[2]["eval_episode_return"] == sum(plain[1])
    assert get_default_wrappers(preset) == [{"type": "eval_episode_return"}]


def test_wrapper_dicts_build_gymnasiums_wrappers():
    cfg = {
        "env_id": "CartPole-v1",
        "env_wrapper": [
            {"type": "time_limit", "kwargs": {"max_limit": 5}},
            {"type": "frame_stack", "kwargs": {"n_frames": 2}},
        ],
    }
    obs, rewards, info = returns(DingEnvWrapper(cfg=cfg), [0, 1] * 10)
    assert len(rewards) == 5 and info["TimeLimit.truncated"]
    plain, _, _ = returns(DingEnvWrapper(cfg={"env_id": "CartPole-v1"}), [0, 1, 0])
    ref = gymnasium.wrappers.FrameStackObservation(gymnasium.make("CartPole-v1"), 2)
    assert obs[0].shape == (2, 4)
    np.testing.assert_array_equal(obs[0], ref.reset(seed=0)[0] * 0 + np.stack([plain[0]] * 2))
    np.testing.assert_array_equal(obs[3], np.stack([plain[2], plain[3]]))


@pytest.mark.parametrize("caller", ["collector", "evaluator"])
def test_a_listed_clip_reward_wraps_either_callers_env(caller):
    """As DI-engine's create_env_wrapper: the evaluator's env had silently dropped it."""
    scaled = [lambda env: gymnasium.wrappers.TransformReward(env, lambda r: 5.0 * r)]
    env = DingEnvWrapper(
        cfg={"env_id": "CartPole-v1", "env_wrapper": [*scaled, {"type": "clip_reward"}]},
        caller=caller,
    )
    _, rewards, _ = returns(env, [0, 1, 0])
    assert rewards == [1.0] * 3


def test_seed_api_false_leaves_the_env_unseeded():
    env = DingEnvWrapper(cfg={"env_id": "CartPole-v1"}, seed_api=False)
    env.seed(0, dynamic_seed=False)
    firsts = {tuple(env.reset().tolist()) for _ in range(3)}
    assert len(firsts) == 3  # a static seed would replay one start


def test_unknown_and_refused_presets():
    with pytest.raises(ConfigError, match=r"unknown env_wrapper 'defualt'; did you mean 'default'"):
        DingEnvWrapper(cfg={"env_id": "CartPole-v1", "env_wrapper": "defualt"})
    with pytest.raises(ConfigError, match=r"'atari_default': expected a preset offered here"):
        DingEnvWrapper(cfg={"env_id": "CartPole-v1", "env_wrapper": "atari_default"})
    with pytest.raises(ConfigError, match=r"unknown env_wrapper type 'frame_stak'; did you mean"):
        DingEnvWrapper(cfg={"env_id": "CartPole-v1", "env_wrapper": [{"type": "frame_stak"}]})
    with pytest.raises(ConfigError, match=r"expected callables env -> env or wrapper dicts, got 3"):
        DingEnvWrapper(cfg={"env_id": "CartPole-v1", "env_wrapper": [3]})


@pytest.mark.parametrize("caller", ["collector", "evaluator"])
@pytest.mark.parametrize(
    ("wrapper", "match"),
    [
        # A misspelt argument was a TypeError from a lambda, naming neither wrapper nor keys.
        ({"type": "time_limit", "kwargs": {"max_limt": 10}}, r"'time_limit': expected kwargs \['max_limit'\], got \['max_limt'\]"),
        ({"type": "time_limit"}, r"'time_limit': expected kwargs \['max_limit'\], got \[\]"),
        ({"type": "time_limit", "kwargs": {"max_limit": 2.7}}, "expected max_limit to be a positive int, got 2.7"),
        ({"type": "frame_stack", "kwargs": {"n_frames": 0}}, "expected n_frames to be a positive int"),
        # Its arguments were once not checked at all for the evaluator.
        ({"type": "reward_clip", "kwargs": {"lo": -1}}, r"expected kwargs \['low=-1.0', 'high=1.0'\], got \['lo'\]"),
        ({"type": "reward_clip", "kwargs": {"low": 1, "high": -1}}, "expected numbers low <= high"),
    ],
)  # fmt: skip
def test_wrapper_dict_arguments_are_checked_for_either_caller(wrapper, match, caller):
    cfg = {"env_id": "CartPole-v1", "env_wrapper": [wrapper]}
    with pytest.raises(ConfigError, match=match):
        DingEnvWrapper(cfg=cfg, caller=caller)


def test_an_unknown_caller_is_refused():
    # It was taken as the evaluator.
    with pytest.raises(
        ConfigError, match="caller: expected 'collector' or 'evaluator', got 'bogus'"
    ):
        DingEnvWrapper(cfg={"env_id": "CartPole-v1"}, caller="bogus")
