"""DI-engine's manager API on ours: its names, a manual-reset loop that ends, reset before
launch, env states, and an env that always fails."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import BaseEnv, BaseEnvTimestep, to_list, to_reward, to_tensor
from lzero.envs.env_manager import (
    AsyncSubprocessEnvManager,
    BaseEnvManager,
    EnvState,
    SubprocessEnvManager,
    SyncSubprocessEnvManager,
)
from lzero.errors import EnvFailureWarning


class Short(BaseEnv):
    """Two-step episodes; ``broken`` makes every step raise."""

    config = dict(broken=False)

    def reset(self):
        self._t = 0
        return {"observation": np.zeros(1, np.float32), "action_mask": np.ones(2, np.int8)}

    def step(self, action):
        if self._cfg.broken:
            raise RuntimeError("always broken")
        self._t += 1
        obs = {"observation": np.full(1, self._t, np.float32), "action_mask": np.ones(2, np.int8)}
        return BaseEnvTimestep(obs, to_reward(1.0), self._t == 2, {})

    def close(self):
        pass

    observation_space = spaces.Dict({"observation": spaces.Box(0, 2, (1,), np.float32)})
    action_space = spaces.Discrete(2)
    reward_space = spaces.Box(0, 1, (1,), np.float32)


def test_di_engine_names():
    assert issubclass(SyncSubprocessEnvManager, SubprocessEnvManager)
    assert issubclass(AsyncSubprocessEnvManager, SubprocessEnvManager)
    names = ["VOID", "INIT", "RUN", "RESET", "DONE", "ERROR", "NEED_RESET"]
    assert [s.name for s in EnvState] == names and EnvState.NEED_RESET == 6
    assert to_list({"a": np.arange(3), "b": (np.float32(1.5), None)}) == {
        "a": [0, 1, 2],
        "b": [1.5, None],
    }
    t = to_tensor({"x": np.ones((2, 2), np.float32), "y": [1, 2]})
    assert t["x"].shape == (2, 2) and t["y"].tolist() == [1, 2]


def test_manual_reset_loop_ends_after_episode_num():
    # DI-engine's loop without auto reset: step the ready envs, reset each finished one by id,
    # until the manager is done. Resetting by id used to zero the env's episode count.
    manager = BaseEnvManager([Short, Short], dict(auto_reset=False, episode_num=3))
    with pytest.raises(
        RuntimeError, match=r"reset: expected a launched manager \(launch\(\) first\)"
    ):
        manager.reset()
    assert set(manager.env_states.values()) == {EnvState.VOID}
    manager.launch()
    steps = resets = 0
    while not manager.done and steps < 100:
        timesteps = manager.step({i: 0 for i in manager.ready_obs})
        steps += 1
        for env_id, ts in timesteps.items():
            if ts.done and not manager.env_state_done(env_id):  # DI-engine's test loop
                assert manager.env_states[env_id] == EnvState.NEED_RESET
                manager.reset({env_id: {}})
                resets += 1
    assert manager.done and steps == 6  # 3 episodes of 2 steps, both envs at once
    assert resets == 4 and set(manager.env_states.values()) == {EnvState.DONE}
    manager.close()


class ResetFails(Short):
    def reset(self, stat=None):
        if stat == "error":
            raise RuntimeError("reset refused")
        return super().reset()


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_a_launch_or_reset_that_gives_up_closes_the_manager(manager_cls):
    manager = manager_cls([ResetFails, ResetFails], {"max_retry": 1})
    with pytest.raises(RuntimeError, match="(?s)still fail after 1 restarts.*reset refused"):
        manager.launch(reset_param={0: {"stat": "error"}, 1: {}})
    assert not manager.launched  # no worker left running
    manager.launch(reset_param={0: {}, 1: {}})
    assert sorted(manager.ready_obs) == [0, 1]
    with pytest.raises(RuntimeError, match="(?s)still fail after 1 restarts.*reset refused"):
        manager.reset({1: {"stat": "error"}})  # a reset that gives up closes it too
    assert not manager.launched
    manager.launch()
    assert sorted(manager.ready_obs) == [0, 1]
    manager.close()


def test_an_env_that_always_fails_raises_after_the_configured_count():
    manager = BaseEnvManager(
        [Short, lambda: Short({"broken": True})], dict(max_consecutive_failures=3)
    )
    manager.launch()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(
            RuntimeError, match=r"step: env 1 failed 3 steps in a row .*always broken"
        ):
            for _ in range(10):
                manager.step({i: 0 for i in manager.ready_obs})
    assert sum(issubclass(w.category, EnvFailureWarning) for w in caught) == 2
    manager.close()


def test_a_launch_that_cannot_build_an_env_closes_those_it_built():
    closed = []

    class Closing(Short):
        def close(self):
            closed.append(self)

    def unbuildable():
        raise OSError("no such task")

    manager = BaseEnvManager([Closing, unbuildable])
    with pytest.raises(OSError, match="no such task"):
        manager.launch()
    assert len(closed) == 1 and not manager.launched  # env 0 had been left open


class Named(Short):
    """``Short`` with an attribute and methods a manager forwards (or refuses)."""

    config = dict(broken=False, name="")

    @property
    def name(self):
        return self._cfg.name

    def render(self, scale=1):
        return f"{self._cfg.name}x{scale}"

    def user_defined(self):
        return 0


class Recorder(Short):
    """``Short`` that keeps what DI-engine's manager methods hand it."""

    config = dict(broken=False, k=1)
    replay = figure = None

    def enable_save_replay(self, replay_path):
        self.replay = replay_path

    def enable_save_figure(self, figure_path):
        self.figure = figure_path

    def reward_shaping(self, transitions):
        return [dict(t, reward=t["reward"] * self._cfg.k) for t in transitions]


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_replay_figure_and_reward_shaping_have_di_engines_signatures(manager_cls):
    # DI-engine's eval entry calls enable_save_replay before launch (ours raised), a list
    # gives one path per env (each env got the whole list), and reward_shaping(env_id, ...)
    # and enable_save_figure(env_id, ...) call one env (every env got env_id as an argument).
    manager = manager_cls([lambda i=i: Recorder({"k": i + 1}) for i in range(3)], {})
    with pytest.raises(ValueError, match="expected a path or a list of 3 .one per env., got"):
        manager.enable_save_replay(["a", "b"])
    manager.enable_save_replay(["a", "b", "c"])
    manager.launch()
    try:
        assert manager.replay == ["a", "b", "c"]
        manager.enable_save_replay("p")  # launched: now
        assert manager.replay == ["p", "p", "p"]
        assert manager.reward_shaping(1, [{"reward": 1.5}]) == [{"reward": 3.0}]
        manager.enable_save_figure(np.int64(2), "fig")
        assert manager.figure == [None, None, "fig"]
        with pytest.raises(ValueError, match=r"reward_shaping: expected an env id in \[0, 3\)"):
            manager.reward_shaping(3, [])
    finally:
        manager.close()
    with pytest.raises(RuntimeError, match="reward_shaping: expected a launched manager"):
        manager.reward_shaping(0, [])


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_closed_and_random_action_as_in_di_engine(manager_cls):
    manager = manager_cls([Short, Short], dict(auto_reset=False))
    assert manager.closed  # DI-engine's is True until launch
    manager.launch()
    assert not manager.closed
    actions = manager.random_action()
    assert sorted(actions) == [0, 1] and all(a in (0, 1) for a in actions.values())
    manager.step({0: actions[0]})
    assert sorted(manager.random_action()) == [0, 1]  # env 0 is ready again (2-step episodes)
    manager.step({0: 0})  # env 0's episode ends; without auto_reset it is not ready
    assert sorted(manager.random_action()) == [1]
    manager.close()
    assert manager.closed


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_env_attributes_and_listed_methods_are_forwarded_as_in_di_engine(manager_cls):
    env_fn = [lambda i=i: Named({"name": f"env{i}"}) for i in range(3)]
    manager = manager_cls(env_fn, {"episode_num": 1})
    with pytest.raises(AssertionError, match="reset: expected a launched manager"):
        manager.reset()  # DI-engine asserts; ours is a RuntimeError too
    with pytest.raises(RuntimeError, match="name: expected a launched manager"):
        _ = manager.name
    manager.launch()
    try:
        assert manager.name == ["env0", "env1", "env2"]
        assert manager.render(scale=2) == ["env0x2", "env1x2", "env2x2"]
        with pytest.raises(RuntimeError, match=r"user_defined: expected .* in method_name_list"):
            _ = manager.user_defined
        with pytest.raises(AttributeError, match="the envs have no attribute 'xxx'"):
            _ = manager.xxx
        # Every env answered (none left in a worker's pipe): stepping still pairs correctly.
        steps = 0
        while not manager.done:
            timesteps = manager.step(dict.fromkeys(manager.ready_obs, 0))
            assert all(not ts.info.get("abnormal") for ts in timesteps.values())
            steps += len(timesteps)
        assert steps == 6
    finally:
        manager.close()
    with pytest.raises(AssertionError, match="step: expected a launched manager, got a closed"):
        manager.step({})


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_done_waits_for_every_env_to_play_episode_num_without_auto_reset(manager_cls):
    # DI-engine's done is "every env DONE": an env whose episode ended without auto_reset
    # waits for a reset (NEED_RESET), so the manager is not done yet.
    with manager_cls([Short, Short], dict(auto_reset=False, episode_num=2)) as manager:
        manager.launch()
        for _ in range(2):
            manager.step({0: 0, 1: 0})
        assert manager.ready_obs == {} and not manager.done
        assert set(manager.env_states.values()) == {EnvState.NEED_RESET}
        manager.reset({0: {}, 1: {}})  # by id: the counts stay, so episode_num ends the loop
        for _ in range(2):
            manager.step({0: 0, 1: 0})
        assert manager.done and set(manager.env_states.values()) == {EnvState.DONE}


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_a_reset_of_every_env_keeps_the_episode_counts(manager_cls):
    # DI-engine's test_base_env_manager loop: auto_reset=False, reset() (no argument) once all
    # envs need it, until done. reset() zeroed the counts, so the loop never ended.
    with manager_cls([Short, Short], dict(auto_reset=False, episode_num=2)) as manager:
        manager.launch()
        for _ in range(20):
            if manager.done:
                break
            if all(s == EnvState.NEED_RESET for s in manager.env_states.values()):
                manager.reset()
            manager.step({i: 0 for i in manager.ready_obs})
        assert manager.done and set(manager.env_states.values()) == {EnvState.DONE}
        manager.close()
        manager.launch()  # a new launch counts afresh
        assert not manager.done and sorted(manager.ready_obs) == [0, 1]


class Masked(Short):
    """``Short`` whose mask allows action 1 only; it raises IllegalActionError on 0 itself too."""

    def reset(self):
        obs = super().reset()
        obs["action_mask"] = np.array([0, 1], np.int8)
        return obs

    def step(self, action):
        from lzero.errors import IllegalActionError

        if int(action) != 1:
            raise IllegalActionError(f"expected a legal action [1], got {action}")
        ts = super().step(action)
        ts.obs["action_mask"] = np.array([0, 1], np.int8)
        return ts


class Unmasked(Masked):
    """``Masked`` whose observation carries no mask: only the env itself can refuse."""

    def reset(self):
        return {"observation": super().reset()["observation"]}

    def step(self, action):
        ts = super().step(action)
        return ts._replace(obs={"observation": ts.obs["observation"]})


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_an_action_outside_the_mask_is_refused_before_any_env_steps(manager_cls):
    from lzero.errors import IllegalActionError

    with manager_cls([Masked, Masked]) as manager:
        manager.launch()
        manager.step({0: 1, 1: 1})
        before = {i: obs["observation"].copy() for i, obs in manager.ready_obs.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no env failure, no restart
            with pytest.raises(
                IllegalActionError, match=r"env 1 expected a legal action \[1\], got 0"
            ):
                manager.step({0: 1, 1: 0})
        assert {i: o["observation"].tolist() for i, o in manager.ready_obs.items()} == {
            i: o.tolist() for i, o in before.items()
        }  # env 0 did not step either
        assert all(ts.obs["observation"][0] == 2 for ts in manager.step({0: 1, 1: 1}).values())


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_an_action_the_env_refuses_is_raised_and_the_env_stays_as_it_was(manager_cls):
    from lzero.errors import IllegalActionError

    with manager_cls([Unmasked, Unmasked]) as manager:
        manager.launch()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the caller's mistake: no failure, no restart
            with pytest.raises(
                IllegalActionError, match="step: env 0 rejected its action: .*got 0"
            ) as info:
                manager.step({0: 0, 1: 1})
        assert list(info.value.timesteps) == [1]  # env 1 stepped: its timestep is kept
        assert info.value.timesteps[1].obs["observation"][0] == 1
        assert sorted(manager.ready_obs) == [0, 1]
        assert manager.ready_obs[0]["observation"][0] == 0  # env 0 as it was
        ts = manager.step({0: 1, 1: 1})
        assert ts[0].obs["observation"][0] == 1 and ts[1].done  # env 1's second step


@pytest.mark.parametrize("manager_cls", [BaseEnvManager, SubprocessEnvManager])
def test_spaces_are_env_zeros_before_and_after_launch_and_ready_ids_have_di_engine_names(
    manager_cls,
):
    manager = manager_cls([Short, Short, Short], dict(episode_num=1))
    assert manager.action_space == spaces.Discrete(2)  # before launch, as DI-engine
    assert manager.observation_space == Short.observation_space
    assert manager.reward_space == Short.reward_space
    assert not manager.launched
    with manager:
        manager.launch()
        assert manager.action_space == spaces.Discrete(2)
        assert manager.ready_obs_id == manager.active_env == [0, 1, 2]
        manager.step({1: 0})
        manager.step({1: 0})
        assert manager.ready_obs_id == manager.active_env == [0, 2]


def test_launch_needs_every_env_and_reset_params_must_be_dicts():
    manager = BaseEnvManager([Short, Short, Short])
    with pytest.raises(ValueError, match=r"name every env 0..2 .*got ids \[0\]"):
        manager.launch(reset_param={0: {}})
    assert not manager.launched
    manager.launch()
    with pytest.raises(ValueError, match="reset keyword arguments .* env 0, got 5"):
        manager.reset({0: 5})
    assert sorted(manager.ready_obs) == [0, 1, 2]
    manager.close()


def test_di_engine_only_keys_are_named_with_the_reason_and_async_subprocess_is_a_type():
    from lzero.envs.env_manager import create_env_manager
    from lzero.errors import ConfigError

    with pytest.raises(ConfigError, match=r"DI-engine's keys \['wait_num'\] .*the Ray manager"):
        BaseEnvManager([Short], dict(wait_num=1))
    with pytest.raises(ConfigError, match=r"\['retry_type'\] .*always rebuilt") as info:
        SubprocessEnvManager([Short], dict(retry_type="reset"))
    assert "did you mean" not in str(info.value)
    with pytest.raises(ConfigError, match="did you mean 'episode_num'"):
        BaseEnvManager([Short], dict(episdoe_num=1))  # a typo still gets its close match
    manager = create_env_manager(dict(type="async_subprocess"), [Short])
    assert type(manager) is AsyncSubprocessEnvManager


def test_a_manager_over_an_env_without_seed_says_to_wrap_it():
    import gymnasium

    manager = BaseEnvManager([lambda: gymnasium.make("CartPole-v1")], dict(max_retry=0))
    manager.seed(0)
    with pytest.raises(RuntimeError, match=r"TimeLimit without one; wrap .* in DingEnvWrapper"):
        manager.launch()
