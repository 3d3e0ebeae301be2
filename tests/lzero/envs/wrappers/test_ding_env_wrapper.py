"""DingEnvWrapper keeps the BaseEnv contract on gymnasium envs, checked against raw gymnasium."""

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import BaseEnv, check_env
from lzero.envs.wrappers import DingEnvWrapper
from lzero.errors import ConfigError, GameOverError, IllegalActionError

ACTIONS = [0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1]


def _raw_episode(seed, actions, env_id="CartPole-v1"):
    env = gymnasium.make(env_id)
    obs, _ = env.reset(seed=seed)
    trace = [obs]
    for a in actions:
        obs, *_, term, trunc, _ = env.step(a)
        trace.append(obs)
        if term or trunc:
            break
    return trace


def _episode(env, actions):
    trace = [env.reset()]
    for a in actions:
        ts = env.step(a)
        trace.append(ts.obs)
        if ts.done:
            break
    return trace


def test_is_a_base_env_and_passes_check_env():
    env = DingEnvWrapper(gymnasium.make("CartPole-v1"))
    assert isinstance(env, BaseEnv)
    check_env(env)


def test_static_seed_matches_raw_gymnasium_reset_seed():
    env = DingEnvWrapper(gymnasium.make("CartPole-v1"))
    env.seed(7, dynamic_seed=False)
    for _ in range(2):  # every episode replays the same one
        ours = _episode(env, ACTIONS)
        ref = _raw_episode(7, ACTIONS)
        assert len(ours) == len(ref)
        for a, b in zip(ours, ref):
            assert a.dtype == np.float32 and np.array_equal(a, b)


def test_dynamic_seed_draws_episode_seeds_from_the_seeded_generator():
    runs = []
    for _ in range(2):
        env = DingEnvWrapper(lambda: gymnasium.make("CartPole-v1"))
        env.seed(3, dynamic_seed=True)
        runs.append([env.reset() for _ in range(4)])
    assert all(np.array_equal(a, b) for a, b in zip(*runs))
    assert len({r.tobytes() for r in runs[0]}) == 4
    # Reference: the BaseEnv rule, episode seed k = k-th draw of default_rng(seed).
    draws = np.random.default_rng(3)
    for obs in runs[0]:
        episode_seed = int(draws.integers(0, 2**31 - 1))
        assert np.array_equal(obs, _raw_episode(episode_seed, [])[0])


def test_done_is_terminated_or_truncated_and_truncation_is_kept():
    env = DingEnvWrapper(lambda: gymnasium.make("CartPole-v1", max_episode_steps=4))
    env.seed(0)
    env.reset()
    steps = [env.step(a) for a in (0, 1, 0, 1)]
    assert [s.done for s in steps] == [False, False, False, True]
    assert steps[-1].info["TimeLimit.truncated"] is True
    assert steps[-1].info["eval_episode_return"] == 4.0
    env = DingEnvWrapper(gymnasium.make("CartPole-v1"))
    env.reset()
    steps = []
    while not steps or not steps[-1].done:  # always pushing right: the pole falls fast
        steps.append(env.step(1))
    assert steps[-1].info["TimeLimit.truncated"] is False and len(steps) < 50
    assert steps[-1].info["eval_episode_return"] == float(len(steps))


def test_converts_dtypes_and_returns_fresh_arrays(counter_env_cls):
    env = DingEnvWrapper(counter_env_cls())
    assert env.observation_space == spaces.Box(-1.0, 100.0, (2,), np.float32)
    obs = env.reset()
    ts = env.step(np.int64(1))
    assert obs.dtype == np.float32 and ts.obs.dtype == np.float32
    assert ts.reward.dtype == np.float32 and ts.reward.shape == (1,) and ts.reward[0] == 0.5
    assert isinstance(ts.done, bool) and obs[0] == 0.0 and ts.obs[0] == 1.0
    assert type(env.env.unwrapped.played[-1]) is int


def test_episode_return_is_a_python_float(counter_env_cls):
    env = DingEnvWrapper(counter_env_cls(goal=2))
    env.reset()
    ts = [env.step(1), env.step(0), env.step(1)]
    assert [t.done for t in ts] == [False, False, True]
    assert ts[-1].info["eval_episode_return"] == 1.0
    assert type(ts[-1].info["eval_episode_return"]) is float


def test_factory_is_lazy_and_rebuilt_after_close(counter_env_cls):
    calls = []

    def factory():
        calls.append(1)
        return counter_env_cls()

    env = DingEnvWrapper(factory)
    assert calls == [] and env._init_flag is False
    assert env.action_space == spaces.Discrete(2)
    env.reset()
    assert len(calls) == 1 and env._init_flag is True
    env.close()
    env.reset()
    assert len(calls) == 2


def test_env_wrappers_are_applied_in_order(counter_env_cls):
    order = []

    def tag(name):
        def wrap(env):
            order.append(name)
            return gymnasium.wrappers.TransformReward(env, lambda r: r * 2)

        return wrap

    env = DingEnvWrapper(counter_env_cls(), cfg={"env_wrapper": [tag("inner"), tag("outer")]})
    env.reset()
    assert order == ["inner", "outer"] and env.step(1).reward[0] == 2.0


def test_random_action_is_seeded():
    seqs = []
    for _ in range(2):
        env = DingEnvWrapper(gymnasium.make("Pendulum-v1"))
        env.seed(5, dynamic_seed=False)
        env.reset()
        seqs.append([env.random_action() for _ in range(5)])
    assert all(np.array_equal(a, b) for a, b in zip(*seqs))
    assert all(env.action_space.contains(a) for a in seqs[0])


def test_env_from_cfg_env_id():
    env = DingEnvWrapper(cfg={"env_id": "CartPole-v1"})
    assert env.reset().shape == (4,) and repr(env).startswith("DingEnvWrapper(CartPole-v1")


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (2, r"action: expected an int in \[0, 2\), got 2"),
        (-1, r"expected an int in \[0, 2\), got -1"),
        (0.5, r"expected an int in \[0, 2\), got 0.5"),
        (np.array([0, 1]), r"expected an int in \[0, 2\), got array"),
    ],
)
def test_bad_discrete_actions_are_errors(action, message):
    env = DingEnvWrapper(gymnasium.make("CartPole-v1"))
    env.reset()
    with pytest.raises(IllegalActionError, match=message):
        env.step(action)


def test_continuous_actions_are_shape_checked():
    env = DingEnvWrapper(gymnasium.make("Pendulum-v1"))
    env.reset()
    with pytest.raises(
        IllegalActionError, match=r"expected an array of shape \(1,\), got shape \(2,\)"
    ):
        env.step([0.1, 0.2])
    assert env.step(np.float64(0.3)).obs.shape == (3,)  # a scalar is fine for shape (1,)
    assert env.step([0.3]).obs.shape == (3,)


def test_step_outside_an_episode_is_an_error(counter_env_cls):
    env = DingEnvWrapper(counter_env_cls(goal=1))
    with pytest.raises(GameOverError, match="expected a running episode, got none"):
        env.step(0)
    env.reset()
    assert env.step(1).done
    with pytest.raises(GameOverError, match="call reset first"):
        env.step(1)


def test_config_errors(counter_env_cls):
    with pytest.raises(ConfigError, match=r"env_wrapper: expected a preset name or a list"):
        DingEnvWrapper(counter_env_cls(), cfg={"env_wrapper": 3})
    with pytest.raises(
        ConfigError, match=r"unknown key 'env_wrappers'; did you mean 'env_wrapper'"
    ):
        DingEnvWrapper(counter_env_cls(), cfg={"env_wrappers": []})
    with pytest.raises(ConfigError, match=r"expected an env, an env factory or cfg\['env_id'\]"):
        DingEnvWrapper()
    with pytest.raises(
        ConfigError, match=r"unknown gymnasium id 'CartPol-v1'; close matches: \['CartPole-v1'"
    ):
        DingEnvWrapper(cfg={"env_id": "CartPol-v1"})
    with pytest.raises(
        ConfigError, match=r"replay_format: expected one of \['gif', 'mp4'\], got 'avi'"
    ):
        DingEnvWrapper(counter_env_cls(), cfg={"replay_format": "avi"})
    # Refused when built: it failed when the first replay was written, out of the episode's
    # last step (ZeroDivisionError for 0), losing that step's result.
    for fps in (0, -5, "fast", float("nan"), True):
        with pytest.raises(ConfigError, match="replay_fps: expected a positive number of frames"):
            DingEnvWrapper(counter_env_cls(), cfg={"replay_fps": fps})


def test_array_rewards_of_one_element_are_accepted(counter_env_cls):
    env = DingEnvWrapper(
        counter_env_cls(goal=1),
        cfg={
            "env_wrapper": [
                lambda e: gymnasium.wrappers.TransformReward(e, lambda r: np.array([r]))
            ]
        },
    )
    env.reset()
    ts = env.step(1)
    assert ts.reward.shape == (1,) and ts.info["eval_episode_return"] == 0.5


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (None, r"action: expected an array of shape \(1,\) of numbers, got None"),
        ("x", r"action: expected an array of shape \(1,\) of numbers, got 'x'"),
        ([None], r"action: expected an array of shape \(1,\) of numbers, got \[None\]"),
        ([np.nan], r"action: expected finite numbers .*got \[nan\]"),
        (np.array([-np.inf]), r"action: expected finite numbers .*got array\(\[-inf\]\)"),
    ],
)
def test_continuous_actions_must_be_numbers(action, message):
    # np.array(None, dtype=float32) is nan: None used to reach the env as a nan torque.
    env = DingEnvWrapper(gymnasium.make("Pendulum-v1"))
    env.reset()
    with pytest.raises(IllegalActionError, match=message):
        env.step(action)
    ts = env.step([0.3])  # the refused action changed nothing: the state is still finite
    assert np.isfinite(ts.reward).all() and np.isfinite(ts.obs).all()


def test_env_wrapper_that_is_not_a_list_is_a_config_error(counter_env_cls):
    # A single callable used to fail inside list() with "object is not iterable".
    with pytest.raises(
        ConfigError, match=r"env_wrapper: expected a preset name or a list of callables"
    ):
        DingEnvWrapper(counter_env_cls(), cfg={"env_wrapper": len})


@pytest.mark.parametrize("env", [42, "CartPole-v1", object()])
def test_something_that_is_not_an_env_is_a_type_error(env):
    with pytest.raises(TypeError, match=r"expected a gymnasium env, a gym-style env .* got"):
        DingEnvWrapper(env)


def test_legacy_box2d_ids_build_gymnasiums_v3_tasks():
    pytest.importorskip("Box2D")
    env = DingEnvWrapper(cfg={"env_id": "LunarLander-v2"})
    env.seed(1, dynamic_seed=False)
    ref = gymnasium.make("LunarLander-v3")
    np.testing.assert_allclose(env.reset(), ref.reset(seed=env._episode_seed)[0])
    np.testing.assert_allclose(env.step(2).obs, ref.step(2)[0])


def test_collector_and_evaluator_configs_say_is_train_and_build_envs():
    """DI-engine's create_*_env_cfg set is_train (True for collectors, False for evaluators);
    the configs they return build envs, and the caller's config is left as it was."""
    cfg = {"env_id": "CartPole-v1", "collector_env_num": 2, "evaluator_env_num": 3}
    collect = DingEnvWrapper.create_collector_env_cfg(cfg)
    evaluate = DingEnvWrapper.create_evaluator_env_cfg(cfg)
    assert [c.is_train for c in collect] == [True, True]
    assert [c.is_train for c in evaluate] == [False, False, False]
    assert cfg == {"env_id": "CartPole-v1", "collector_env_num": 2, "evaluator_env_num": 3}
    for c in (collect[0], evaluate[0]):
        env = DingEnvWrapper(cfg=c)
        env.seed(0)
        assert env.reset().shape == (4,)
        env.close()


def test_di_engines_act_scale_and_rew_clip():
    # DI-engine's keys (refused as unknown before): actions in [-1, 1] map onto the bounds,
    # rewards are clipped below at -10.
    plain = DingEnvWrapper(gymnasium.make("Pendulum-v1"))
    scaled = DingEnvWrapper(gymnasium.make("Pendulum-v1"), cfg=dict(act_scale=True, rew_clip=True))
    for env in (plain, scaled):
        env.seed(0, dynamic_seed=False)
        env.reset()
    # Pendulum's torque bounds are [-2, 2]: 0.5 in [-1, 1] is 1.0; 3.0 is clipped to 2.0.
    for unit, torque in ((0.5, 1.0), (3.0, 2.0), (-1.0, -2.0)):
        a, b = plain.step(np.array([torque], np.float32)), scaled.step(np.array([unit], np.float32))
        np.testing.assert_array_equal(a.obs, b.obs)
        assert b.reward[0] == max(-10.0, a.reward[0])
    with pytest.raises(ConfigError, match="act_scale maps actions onto a Box"):
        DingEnvWrapper(gymnasium.make("CartPole-v1"), cfg=dict(act_scale=True))


def test_act_scale_maps_onto_an_integer_box_as_di_engine():
    """The check before the map had taken [-1, 1] for the integer Box's own values: 0.5 was
    refused as not whole."""

    class Knob(gymnasium.Env):
        observation_space = spaces.Box(0, 1, (1,), np.float32)
        action_space = spaces.Box(0, 10, (1,), np.int64)

        def reset(self, *, seed=None, options=None):
            return np.zeros(1, np.float32), {}

        def step(self, action):
            self.played = action
            return np.zeros(1, np.float32), 0.0, False, False, {}

    env = DingEnvWrapper(Knob(), cfg=dict(act_scale=True))
    env.reset()
    env.step(np.array([0.5]))  # (0.5 + 1) / 2 * 10 = 7.5, cast as DI-engine casts
    assert env.env.unwrapped.played.tolist() == [7] and env.env.unwrapped.played.dtype == np.int64
    env.step(np.array([1e300]))  # clipped to 1 first, not refused as overflowing float32
    assert env.env.unwrapped.played.tolist() == [10]


@pytest.mark.parametrize("action", ["0.5", True, None, [0.1, 0.2]])
def test_act_scale_refuses_what_is_not_an_action_before_mapping_it(action):
    """The map to the bounds cast the action to floats first: '0.5' and True were played,
    None became NaN."""
    env = DingEnvWrapper(gymnasium.make("Pendulum-v1"), cfg=dict(act_scale=True))
    env.seed(0, dynamic_seed=False)
    env.reset()
    before = env.env.unwrapped.state.copy()
    with pytest.raises(IllegalActionError, match=r"action: expected an array of shape \(1,\)"):
        env.step(action)
    np.testing.assert_array_equal(env.env.unwrapped.state, before)


def test_rew_clip_raises_rewards_below_minus_ten():
    class Costly(gymnasium.Wrapper):
        def step(self, action):
            obs, reward, term, trunc, info = self.env.step(action)
            return obs, -25.0, term, trunc, info

    env = DingEnvWrapper(Costly(gymnasium.make("CartPole-v1")), cfg=dict(rew_clip=True))
    env.seed(0, dynamic_seed=False)
    env.reset()
    steps = [env.step(0)]
    while not steps[-1].done:
        steps.append(env.step(0))
    assert all(ts.reward[0] == -10.0 for ts in steps)
    # The episode's return is the env's own (DI-engine's order: added up, then clipped).
    assert steps[-1].info["eval_episode_return"] == -25.0 * len(steps)


def test_clone_builds_another_env_of_the_same_task():
    env = DingEnvWrapper(gymnasium.make("CartPole-v1"), cfg=dict(rew_clip=True))
    twin = env.clone(caller="evaluator")
    assert twin.env is not env.env and twin._cfg.rew_clip and twin._caller == "evaluator"
    for e in (env, twin):
        e.seed(3, dynamic_seed=False)
    np.testing.assert_array_equal(env.reset(), twin.reset())
    from_id = DingEnvWrapper(cfg=dict(env_id="CartPole-v1")).clone()
    assert from_id.env.spec.id == "CartPole-v1"


def test_clone_of_an_env_whose_wrappers_its_spec_cannot_rebuild_is_a_copy():
    """gymnasium.make(spec) refuses a wrapper without RecordConstructorArgs; the clone then
    failed at its first reset."""

    class Shifted(gymnasium.ObservationWrapper):
        def observation(self, obs):
            return obs + 1.0

    env = DingEnvWrapper(Shifted(gymnasium.make("CartPole-v1")))
    twin = env.clone()
    assert twin.env is not env.env and isinstance(twin.env, Shifted)
    for e in (env, twin):
        e.seed(3, dynamic_seed=False)
    np.testing.assert_array_equal(env.reset(), twin.reset())


def test_a_clone_made_from_the_spec_is_rebuilt_after_close():
    twin = DingEnvWrapper(gymnasium.make("CartPole-v1")).clone()
    twin.reset()
    first = twin.env
    twin.close()
    assert twin.reset().shape == (4,) and twin.env is not first  # a new env, not the closed one


def test_a_lightzero_gym_env_clones_itself():
    from lzero.envs import ENV_REGISTRY

    env = ENV_REGISTRY.build("cartpole_lightzero", {"env_name": "CartPole-v1"})
    twin = env.clone()
    assert type(twin) is type(env) and twin._cfg.env_id == "CartPole-v1"
    for e in (env, twin):
        e.seed(1, dynamic_seed=False)
    np.testing.assert_array_equal(env.reset()["observation"], twin.reset()["observation"])
