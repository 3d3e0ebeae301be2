"""Legacy gym-style envs (seed(), reset() -> obs, 4-value step) work through DingEnvWrapper."""

import os

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import check_env
from lzero.envs.wrappers import DingEnvWrapper, LegacyGymAdapter, LightZeroEnvWrapper
from lzero.envs.wrappers.conversions import to_gymnasium_space
from lzero.errors import ConfigError

ACTIONS = [1, 1, 0, 1, 0, 0, 0, 1, 1, 1]


def _legacy_reference(env_cls, seed, actions):
    """Plays the legacy env directly, the old way."""
    env = env_cls()
    env.seed(seed)
    trace = [env.reset()]
    for a in actions:
        obs, reward, done, info = env.step(a)
        trace.append(obs)
        if done:
            break
    return trace, info


def test_spaces_are_rebuilt_as_gymnasium_spaces(legacy_env_cls):
    env = DingEnvWrapper(legacy_env_cls())
    assert env.observation_space == spaces.Box(-10.0, 10.0, (1,), np.float32)
    assert env.action_space == spaces.Discrete(2)
    with pytest.raises(TypeError, match=r"expected a gym space \(Box, Discrete, .*\), got str"):
        to_gymnasium_space("Box")


def test_seeded_episodes_match_the_legacy_env_played_directly(legacy_env_cls):
    env = DingEnvWrapper(legacy_env_cls)  # a factory: the class itself
    env.seed(11, dynamic_seed=False)
    for _ in range(2):
        obs = [env.reset()]
        for a in ACTIONS:
            ts = env.step(a)
            obs.append(ts.obs)
            if ts.done:
                break
        ref, ref_info = _legacy_reference(legacy_env_cls, 11, ACTIONS)
        assert len(obs) == len(ref)
        assert all(
            o.dtype == np.float32 and np.array_equal(o, r.astype(np.float32))
            for o, r in zip(obs, ref)
        )
        assert ts.info["TimeLimit.truncated"] is bool(ref_info.get("TimeLimit.truncated", False))
        assert ts.info["eval_episode_return"] == float(len(obs) - 1)


def test_time_limit_and_termination(legacy_env_cls):
    env = DingEnvWrapper(legacy_env_cls(limit=3))
    env.seed(0)
    env.reset()
    steps = [env.step(a) for a in (1, 0, 1)]
    assert [s.done for s in steps] == [False, False, True]
    assert steps[-1].info["TimeLimit.truncated"] is True
    env.reset()
    for _ in range(10):  # walking right: falls off at |pos| >= 2 within 6 steps
        ts = env.step(1)
        if ts.done:
            break
    assert ts.info["TimeLimit.truncated"] is False and ts.reward.dtype == np.float32


def test_passes_check_env_with_and_without_the_lightzero_wrapper(legacy_env_cls):
    check_env(DingEnvWrapper(legacy_env_cls()))
    env = DingEnvWrapper(legacy_env_cls(), cfg={"env_wrapper": [lambda e: LightZeroEnvWrapper(e)]})
    check_env(env)
    obs = env.reset()
    assert obs["action_mask"].tolist() == [1, 1] and obs["to_play"] == -1


def test_replay_uses_legacy_render_mode(tmp_path, legacy_env_cls):
    env = DingEnvWrapper(legacy_env_cls(limit=4))
    env.seed(2, dynamic_seed=False)
    env.enable_save_replay(str(tmp_path))
    env.reset()
    for a in (1, 0, 1, 0):
        ts = env.step(a)
    import imageio.v3 as iio

    assert iio.imread(ts.info["replay_path"], index=None).shape == (5, 4, 4, 3)
    # Named after the legacy env, not after our adapter (LegacyGymAdapter_seed2_...).
    assert os.path.basename(ts.info["replay_path"]).startswith(f"{legacy_env_cls.__name__}_seed2_")


class NoSeedEnv:
    observation_space = spaces.Box(0, 1, (1,), np.float32)
    action_space = spaces.Discrete(2)

    def reset(self):
        return np.zeros(1, np.float32)

    def step(self, action):
        return np.zeros(1, np.float32), 0.0, True, {}


def test_an_unseedable_legacy_env_refuses_a_seed():
    env = DingEnvWrapper(NoSeedEnv())
    env.reset()  # unseeded is fine
    env.seed(1)
    with pytest.raises(
        ConfigError,
        match=r"expected the legacy env NoSeedEnv to have a seed\(\) method.*seed_api=False",
    ):
        env.reset()
    quiet = DingEnvWrapper(NoSeedEnv(), seed_api=False)  # the way the message names
    quiet.seed(1)
    assert quiet.reset().shape == (1,)


def test_gymnasiums_wrappers_name_the_way_a_legacy_env_reaches_them(legacy_env_cls):
    from lzero.envs.wrappers import ActionDiscretizationEnvWrapper

    for wrapper in (LightZeroEnvWrapper, ActionDiscretizationEnvWrapper):
        with pytest.raises(
            TypeError,
            match=rf"{wrapper.__name__}: expected a gymnasium.Env, got .*DingEnvWrapper\(env, cfg=",
        ):
            wrapper(legacy_env_cls(), {})
    # the way it names works
    env = DingEnvWrapper(
        legacy_env_cls(), cfg={"env_wrapper": [lambda e: LightZeroEnvWrapper(e, {})]}
    )
    assert set(env.reset()) == {"observation", "action_mask", "to_play"}


class Gym026Env(NoSeedEnv):
    """gym 0.26 style, but not a gymnasium.Env: reset(seed=...) -> (obs, info), 5-value step."""

    def reset(self, *, seed=None, options=None):
        self.start = np.random.default_rng(seed).uniform(0, 1, 1).astype(np.float32)
        return self.start, {"seeded_with": seed}

    def step(self, action):
        return self.start.copy(), 1.0, False, True, {}


def test_gym_026_style_envs_are_adapted_too():
    adapter = LegacyGymAdapter(Gym026Env())
    obs, info = adapter.reset(seed=5)
    assert info == {"seeded_with": 5}
    assert adapter.step(0)[2:4] == (False, True)
    env = DingEnvWrapper(Gym026Env())
    env.seed(5, dynamic_seed=False)
    first = env.reset()
    ts = env.step(0)
    assert np.array_equal(first, obs) and ts.done and ts.info["TimeLimit.truncated"] is True


def test_a_step_of_the_wrong_length_is_an_error():
    class Broken(NoSeedEnv):
        def step(self, action):
            return (np.zeros(1, np.float32), 0.0, True)

    env = DingEnvWrapper(Broken())
    env.reset()
    with pytest.raises(TypeError, match="expected 4 or 5 values from the legacy env, got 3"):
        env.step(0)


def test_a_legacy_class_registered_under_a_gymnasium_id_builds_from_the_id(legacy_env_cls):
    """gymnasium.make refuses a class that is not a gymnasium.Env, so a legacy env registered
    by id (the only way into train_muzero_with_gym_env and get_wrappered_env) failed with
    gymnasium's TypeError; it is built from its entry point and adapted, as an instance is."""
    import gymnasium

    from lzero.envs import get_wrappered_env

    env_id = "TestLegacyWalkById-v0"
    gymnasium.register(
        env_id, entry_point=legacy_env_cls, kwargs={"limit": 50}, max_episode_steps=3
    )
    try:
        by_id = DingEnvWrapper(cfg={"env_id": env_id})
        by_id.seed(11, dynamic_seed=False)
        trace, _ = _legacy_reference(lambda: legacy_env_cls(limit=50), 11, ACTIONS)
        first = by_id.reset()
        np.testing.assert_allclose(np.ravel(first), np.ravel(trace[0]))
        steps = [by_id.step(a) for a in (1, 0, 1)]
        np.testing.assert_allclose(np.ravel(steps[0].obs), np.ravel(trace[1]))
        assert [t.done for t in steps] == [False, False, True]  # the spec's time limit
        assert steps[-1].info.get("TimeLimit.truncated")
        wrapped = get_wrappered_env({"env_id": env_id}, env_id)()
        wrapped.seed(0)
        assert set(wrapped.reset()) >= {"observation", "action_mask", "to_play"}
        # The pool too (it had raised gymnasium's TypeError), in this process: spawned
        # workers do not see an id registered by a script.
        from lzero.envs import make

        pool = make(env_id, env_type="gymnasium", num_envs=2, num_threads=1, seed=11)
        obs, _ = pool.reset()
        np.testing.assert_allclose(np.ravel(obs[0]), np.ravel(trace[0]))
        truncated = [pool.step(np.array([1, 1]))[3] for _ in range(3)]
        assert [bool(t[0]) for t in truncated] == [False, False, True]  # the spec's limit
        pool.close()
    finally:
        del gymnasium.envs.registry[env_id]
