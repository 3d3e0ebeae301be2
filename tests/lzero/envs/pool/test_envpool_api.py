"""envpool's API on our pool, checked against gymnasium envs stepped one by one: make_gym and
make_gymnasium (envpool >= 0.7: ``(obs, info)`` resets, 5-tuple steps, a gymnasium VectorEnv),
make_dm, the spec's views, seed sequences, render, seed() and info['players']['env_id']."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import lzero
from lzero.envs import make
from lzero.envs.pool import __version__, make_dm, make_gym, make_gymnasium, make_spec

N = 3


def gymnasium_envs(seeds, **kwargs):
    """CartPole-v1 envs reset once with their seed: what env ``i`` of a pool starts from."""
    envs = [gymnasium.make("CartPole-v1", **kwargs) for _ in seeds]
    return envs, np.stack([env.reset(seed=s)[0] for env, s in zip(envs, seeds)])


@pytest.mark.parametrize("factory", [make_gym, make_gymnasium])
def test_make_gym_is_gymnasiums_api_and_steps_as_gymnasium(factory):
    pool = factory("CartPole-v1", num_envs=N, seed=4)
    envs, first = gymnasium_envs([4, 5, 6])
    obs, info = pool.reset()
    np.testing.assert_array_equal(obs, first)
    np.testing.assert_array_equal(info["env_id"], np.arange(N))
    np.testing.assert_array_equal(info["players"]["env_id"], np.arange(N))
    for t in range(12):
        actions = np.full(N, t % 2)  # balances: no episode ends within 12 steps
        obs, reward, term, trunc, info = pool.step(actions)
        for i, env in enumerate(envs):
            o, r, te, tr, _ = env.step(int(actions[i]))
            np.testing.assert_array_equal(obs[i], o)
            assert (reward[i], term[i], trunc[i]) == (r, te, tr)
    pool.close()


def test_make_without_env_type_keeps_the_old_gym_api():
    pool = make("CartPole-v1", num_envs=N, seed=4)
    obs = pool.reset()
    assert isinstance(obs, np.ndarray) and obs.shape == (N, 4)
    obs, reward, done, info = pool.step(np.zeros(N, np.int64))
    assert done.dtype == np.bool_ and "players" in info
    assert not isinstance(pool, gymnasium.vector.VectorEnv)
    pool.close()


def test_seed_sequences_seed_each_env():
    seeds = [11, 2, 7]
    obs, _ = make_gym("CartPole-v1", num_envs=N, seed=np.array(seeds)).reset()
    np.testing.assert_array_equal(obs, gymnasium_envs(seeds)[1])
    assert make_spec("CartPole-v1", num_envs=N, seed=seeds).seed == tuple(seeds)
    with pytest.raises(ValueError, match=r"seed: expected an int or 3 ints \(one per env\)"):
        make_gym("CartPole-v1", num_envs=N, seed=[1, 2])


def test_a_seed_sequence_seeds_board_envs_as_single_seeds_do():
    """Each env of a pool seeded ``[9, 4]`` plays the game a one-env pool seeded alone plays:
    the random bot's replies come from each env's own seed (the rule bot's would be forced
    here, whatever the seed)."""
    kw = dict(battle_mode="play_with_bot_mode", bot_action_type="random")
    seeds = [9, 4]
    mixed = make_gym("connect4", num_envs=2, seed=seeds, **kw)
    alone = [make_gym("connect4", num_envs=1, seed=s, **kw) for s in seeds]
    obs = mixed.reset()[0]
    for i, env in enumerate(alone):
        np.testing.assert_array_equal(obs["board"][i], env.reset()[0]["board"][0])
    actions = np.array([3, 3])
    for _ in range(3):
        obs = mixed.step(actions)[0]
        for i, env in enumerate(alone):
            np.testing.assert_array_equal(obs["board"][i], env.step(actions[:1])[0]["board"][0])
    assert not np.array_equal(obs["board"][0], obs["board"][1])  # the two seeds differ


def test_the_pool_is_a_gymnasium_vector_env_for_its_wrappers():
    pool = make_gym("CartPole-v1", num_envs=N, seed=0, max_episode_steps=20)
    assert isinstance(pool, gymnasium.vector.VectorEnv) and pool.is_vector_env
    assert pool.single_observation_space is pool.observation_space
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(pool)
    wrapped.reset()
    returns = []
    for _ in range(60):
        *_, info = wrapped.step(np.ones(N, np.int64))
        if "episode" in info:
            returns += info["episode"]["r"][info["_episode"]].tolist()
    # Pushing right from seeds 0..2: each episode's return is its length (1 per step).
    envs, _ = gymnasium_envs([0, 1, 2], max_episode_steps=20)
    expected = []
    for env in envs:
        total, done = 0.0, False
        while not done:
            _, r, te, tr, _ = env.step(1)
            total, done = total + r, te or tr
        expected.append(total)
    assert sorted(returns[:N]) == sorted(expected)
    normalised = gymnasium.wrappers.vector.NormalizeObservation(pool)
    obs, _ = normalised.reset()
    assert obs.shape == (N, 4)
    wrapped.close()
    assert pool.closed


def test_reset_takes_gymnasiums_keywords():
    pool = make_gymnasium("CartPole-v1", num_envs=N, seed=0)
    pool.reset()
    pool.step(np.ones(N, np.int64))
    obs, info = pool.reset(options={"reset_mask": np.array([False, True, False])})
    np.testing.assert_array_equal(info["env_id"], [1])
    with pytest.warns(UserWarning, match="reset: seed is ignored"):
        pool.reset(seed=3)
    with pytest.raises(ValueError, match=r"expected reset_mask of shape \(3,\) selecting some"):
        pool.reset(options={"reset_mask": np.zeros(N, bool)})
    with pytest.raises(ValueError, match=r"expected options among \['reset_mask'\], got \['x'\]"):
        pool.reset(options={"x": 1})


def test_seed_warns_and_changes_nothing():
    pool = make_gym("CartPole-v1", num_envs=N, seed=0)
    with pytest.warns(UserWarning, match="pass seed to make"):
        pool.seed(5)
    np.testing.assert_array_equal(pool.reset()[0], gymnasium_envs([0, 1, 2])[1])


def test_spec_views():
    spec = make_spec("CartPole-v1", env_type="gym", num_envs=N)
    assert spec.reward_threshold == gymnasium.spec("CartPole-v1").reward_threshold == 475.0
    assert make_spec("connect4").reward_threshold is None
    action = spec.action_array_spec
    assert list(action) == ["env_id", "players.env_id", "action"]
    assert action["action"].bounds == (0, 1) and action["action"].dtype == np.int64
    assert spec.config.num_envs == N == spec.config["num_envs"]
    # Read-only, as envpool's: setting an attribute had made config.num_envs disagree with
    # config["num_envs"] and the pool, and a key set changed nothing in the pool.
    for change in (
        lambda c: setattr(c, "num_envs", 5),
        lambda c: c.__setitem__("num_envs", 5),
        lambda c: c.update(num_envs=5),
        lambda c: c.pop("num_envs"),
    ):
        with pytest.raises(TypeError, match="the pool's config is read-only"):
            change(spec.config)
    assert spec.config.num_envs == N == spec.config["num_envs"] == spec.num_envs
    import copy
    import pickle

    for twin in (copy.deepcopy(spec.config), pickle.loads(pickle.dumps(spec.config))):
        assert twin == spec.config and type(twin) is type(spec.config)
    box = make_spec("Pendulum-v1").action_array_spec["action"]
    assert box.shape == (1,) and box.maximum[0] == 2.0


def test_dm_specs_and_timesteps():
    dm_env = pytest.importorskip("dm_env")
    spec = make_spec("CartPole-v1", num_envs=N)
    assert isinstance(spec.action_spec(), dm_env.specs.DiscreteArray)
    assert spec.action_spec().num_values == 2
    assert spec.observation_spec().obs.shape == (4,)
    pool = make_dm("CartPole-v1", num_envs=N, seed=4, max_episode_steps=15)
    gym_pool = make_gym("CartPole-v1", num_envs=N, seed=4, max_episode_steps=15)
    ts = pool.reset()
    np.testing.assert_array_equal(ts.step_type, [dm_env.StepType.FIRST] * N)
    np.testing.assert_array_equal(ts.observation.obs, gym_pool.reset()[0])
    seen_last = False
    for t in range(40):
        actions = np.full(N, t % 2)
        ts = pool.step(actions)
        obs, reward, term, trunc, info = gym_pool.step(actions)
        np.testing.assert_array_equal(ts.observation.obs, obs)
        np.testing.assert_array_equal(ts.reward, reward)
        first = info["elapsed_step"] == 0
        expect = np.where(first, 0, np.where(term | trunc, 2, 1))
        np.testing.assert_array_equal(ts.step_type, expect)
        np.testing.assert_array_equal(ts.discount, np.where(term, 0.0, 1.0))
        np.testing.assert_array_equal(ts.observation.players.env_id, np.arange(N))
        seen_last |= bool((term | trunc).any())
    assert seen_last
    assert pool.observation_spec() == spec.observation_spec()
    # envpool's field order, so that code unpacking its State by position still works
    assert ts.observation._fields == ("env_id", "players", "obs", "elapsed_step")
    assert spec.observation_spec()._fields == ts.observation._fields


def test_make_dm_without_dm_env_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dm_env", None)
    monkeypatch.delitem(sys.modules, "lzero.envs.pool.dm_api", raising=False)
    with pytest.raises(ImportError, match="make_dm: expected the dm-env package"):
        make_dm("CartPole-v1")


@pytest.mark.parametrize("num_threads", [0, 2])
def test_render_returns_each_envs_frame(num_threads):
    pool = make_gym(
        "CartPole-v1", num_envs=4, seed=1, render_mode="rgb_array", num_threads=num_threads
    )
    # Before reset gymnasium's envs have no frame: said so (it returned array([None])).
    with pytest.raises(RuntimeError, match=r"got none from envs \[0\], which have not been reset"):
        pool.render()
    pool.reset()
    envs, _ = gymnasium_envs([1, 2, 3, 4], render_mode="rgb_array")
    frames = pool.render(np.array([0, 3]))
    np.testing.assert_array_equal(frames, np.stack([envs[0].render(), envs[3].render()]))
    assert pool.render().shape == (1, *envs[0].render().shape)
    pool.close()


def test_render_without_a_render_mode_is_refused():
    pool = make_gym("CartPole-v1", num_envs=2)
    with pytest.raises(RuntimeError, match="expected a pool made with render_mode='rgb_array'"):
        pool.render()


def test_version_is_the_packages():
    """envpool's ``__version__`` is the project's release, as ``setup.py`` declares it."""
    setup = (Path(lzero.__file__).parents[1] / "setup.py").read_text()
    declared = re.search(r'^\s*version="([^"]+)"', setup, re.M)
    assert declared and __version__ == declared.group(1)


def test_public_pool_types_are_exported_and_annotated_as_envpools():
    import typing

    from lzero.envs import pool

    assert {"EnvSpec", "EnvPool", "DMEnvPool", "GymnasiumEnvPool"} <= set(pool.__all__)
    names = ("make_gym", "make_gymnasium", "make_dm", "make_spec")
    hints = {f: typing.get_type_hints(getattr(pool, f))["return"] for f in names}
    assert hints["make_gym"] is hints["make_gymnasium"] is pool.GymnasiumEnvPool
    assert hints["make_dm"] is pool.DMEnvPool and hints["make_spec"] is pool.EnvSpec
    made = pool.make_dm("CartPole-v1", num_envs=2)
    assert isinstance(made, pool.DMEnvPool) and isinstance(made, pool.EnvPool)
    made.close()


def test_gymnasium_pools_are_gymnasium_envs_and_take_envpools_box2d_v2_ids():
    pool = make_gymnasium("LunarLander-v2", num_envs=2, seed=3)
    assert isinstance(pool, gymnasium.Env) and isinstance(pool, gymnasium.vector.VectorEnv)
    assert pool.spec.task_id == "LunarLander-v3" and str(pool) == repr(pool)
    obs, _ = pool.reset()
    first = [gymnasium.make("LunarLander-v3").reset(seed=s)[0] for s in (3, 4)]
    np.testing.assert_array_equal(obs, np.stack(first))
    pool.close()
    with pytest.raises(KeyError, match="unknown task id 'LunarLander-v9'"):
        make_gym("LunarLander-v9")


def test_typing_marker_and_public_names_as_envpool_has_them():
    """envpool ships a PEP 561 marker and lists EnvSpec, EnvPool, (DMEnvPool,) GymnasiumEnvPool
    in that order in __all__; its typing test reads both."""
    import lzero
    import lzero.envs.pool as pool

    assert (Path(lzero.__file__).parent / "py.typed").is_file()
    names = [n for n in pool.__all__ if n.endswith(("EnvSpec", "EnvPool"))]
    expected = ["EnvSpec", "EnvPool", "DMEnvPool", "GymnasiumEnvPool"]
    assert names == [n for n in expected if n in names] and len(names) >= 3


def test_envpools_general_make_arguments_are_taken_or_refused_with_the_reason():
    spec = make_spec(
        "CartPole-v1", num_envs=2, thread_affinity_offset=0, max_num_players=1,
        gym_reset_return_info=False, reward_threshold=100.0,
    )  # fmt: skip
    assert spec.reward_threshold == spec.config.reward_threshold == 100.0
    assert spec.config.thread_affinity_offset == 0 and spec.config.max_num_players == 1
    assert make_spec("CartPole-v1").config.reward_threshold == 475.0  # gymnasium's, as envpool
    # envpool 1.2: the gym API's reset returns (obs, info), gym_reset_return_info=True by
    # default and False refused; ours refused True there and reported False.
    gym = make_spec("CartPole-v1", env_type="gym", gym_reset_return_info=True)
    assert gym.config.gym_reset_return_info is True
    assert make_spec("CartPole-v1").config.gym_reset_return_info is False  # gym_legacy
    with pytest.raises(ValueError, match="expected True for env_type='gym' .reset returns .obs"):
        make_spec("CartPole-v1", env_type="gym", gym_reset_return_info=False)
    for kwargs, message in (
        (dict(max_num_players=2), "max_num_players: expected 1"),
        (dict(gym_reset_return_info=True), "expected False for env_type='gym_legacy'"),
        (dict(thread_affinity_offset="0"), "thread_affinity_offset: expected an int"),
        (dict(reward_threshold="high"), "reward_threshold: expected a number"),
    ):
        with pytest.raises(ValueError, match=message):
            make_spec("CartPole-v1", **kwargs)


def test_xla_says_it_is_not_here():
    pool = make("CartPole-v1", env_type="gym", num_envs=2)
    with pytest.raises(NotImplementedError, match="xla: envpool's XLA interface is not avail"):
        pool.xla()
    pool.close()


def test_envpools_render_arguments():
    # envpool's make takes render_env_id (render()'s default env) and checks render_mode;
    # its render size and camera were passed on to gymnasium, which raised a TypeError.
    pool = make("CartPole-v1", env_type="gym", num_envs=3, render_mode="rgb_array", render_env_id=2)
    pool.reset()
    np.testing.assert_array_equal(pool.render(), pool.render(env_ids=2))
    assert pool.render(camera_id=0).shape == (1, 400, 600, 3)
    with pytest.raises(ValueError, match="render: expected camera_id None or 0"):
        pool.render(camera_id=1)
    pool.close()
    for kwargs, message in (
        (dict(render_mode="rgb"), "render_mode: expected None, 'rgb_array' or 'human', got 'rgb'"),
        (dict(render_env_id=3), r"render_env_id: expected an env id in \[0, 3\), got 3"),
        (dict(render_width=100), "render_width: expected None .frames come at the task's own"),
    ):
        with pytest.raises(ValueError, match=message):
            make("CartPole-v1", env_type="gym", num_envs=3, **kwargs)


def test_recv_takes_envpools_arguments():
    # envpool's recv(reset=False, return_info=True): recv(reset=True) after async_reset
    # returns reset()'s form. Ours took no argument (TypeError).
    pool = make("CartPole-v1", env_type="gym", num_envs=4, batch_size=2, seed=1)
    pool.async_reset()
    obs, info = pool.recv(reset=True)
    assert obs.shape == (2, 4) and info["env_id"].shape == (2,)
    pool.send(np.zeros(2, np.int64), info["env_id"])
    assert len(pool.recv()) == 5  # a step's form by default
    with pytest.raises(ValueError, match="recv: expected return_info=True"):
        pool.recv(return_info=False)
    pool.close()
