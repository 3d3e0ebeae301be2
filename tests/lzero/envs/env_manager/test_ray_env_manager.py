"""RayEnvManager against BaseEnvManager (the reference: same seeds, same episodes), its faults
(a killed actor, a raising env, a hung actor), asynchronous stepping, and Ray's absence.

One local Ray serves the whole module (starting one costs seconds)."""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
import time
import warnings

import manager_test_envs
import numpy as np
import pytest
from easydict import EasyDict
from manager_test_envs import HANG, RAISE, CounterEnv

from lzero.entry.muzero_setup import make_env_manager
from lzero.envs.env_manager import BaseEnvManager, RayEnvManager, get_env_manager_cls
from lzero.errors import ConfigError, EnvFailureWarning, MissingExtraError

ray = pytest.importorskip("ray")  # installed by the test extra; the absence test fakes it


@pytest.fixture(scope="module", autouse=True)
def ray_with_test_envs(local_ray):
    # The actors unpickle the test envs by value: this directory is not on their path.
    local_ray.cloudpickle.register_pickle_by_value(manager_test_envs)


def _factories(n, **cfg):
    return [functools.partial(CounterEnv, dict(cfg)) for _ in range(n)]


def _policy(obs):
    """A deterministic action that depends on the observation, so episodes differ by seed."""
    return int(obs["observation"][0] + obs["observation"][1]) % 2


def _episodes(manager, seed, *, kill=None):
    """Plays every env for two episodes: ``{env_id: [(obs, reward, done), ...]}``, and the
    timesteps returned per step (a list of id lists)."""
    manager.seed(seed)
    manager.launch()
    record, batches = {i: [] for i in range(manager.env_num)}, []
    while not manager.done:
        timesteps = manager.step({i: _policy(o) for i, o in manager.ready_obs.items()})
        batches.append(sorted(timesteps))
        in_flight = set(getattr(manager, "_pending", ()))  # RayEnvManager with wait_num
        assert not in_flight & set(manager.ready_obs)  # an env in flight takes no action
        for i, ts in timesteps.items():
            record[i].append((ts.obs["observation"].tolist(), float(ts.reward[0]), ts.done))
    manager.close()
    return record, batches


@pytest.mark.parametrize("cfg", [dict(actor_num=2), dict(actor_num=2, wait_num=1)])
def test_same_episodes_as_base_manager(cfg):
    reference, _ = _episodes(BaseEnvManager(_factories(5), dict(episode_num=2)), seed=7)
    manager = RayEnvManager(_factories(5), dict(episode_num=2, **cfg))
    record, batches = _episodes(manager, seed=7)
    assert record == reference
    assert all(batches)  # with wait_num=1 too, each step returned at least one env
    assert all(len(steps) == 8 for steps in record.values())  # two episodes of 4 steps


def test_killed_actor_is_reported_and_replaced_while_other_envs_keep_their_episodes(exits):
    reference = BaseEnvManager(_factories(4))
    manager = RayEnvManager(_factories(4), dict(actor_num=2))
    for m in (reference, manager):
        m.seed(3)
        m.launch()
        for _ in range(2):
            m.step({i: 1 for i in m.ready_obs})
    assert manager.actor_of_env == {0: 0, 1: 0, 2: 1, 3: 1}
    old = manager.actor_pids
    ray.kill(manager._hub.actors[0])
    # ray.kill only asks: wait for the process to end, or the step below can still reach it.
    assert exits(old[0])
    with pytest.warns(
        EnvFailureWarning, match=r"env 0 failed .*Ray actor 0 \(envs \[0, 1\]\) died"
    ):
        timesteps = manager.step({i: 1 for i in manager.ready_obs})
    expected = reference.step({i: 1 for i in reference.ready_obs})
    for i in (0, 1):
        assert timesteps[i].info["abnormal"] and "Ray actor 0" in timesteps[i].info["error"]
    for i in (2, 3):  # the other actor's envs went on with their episodes
        assert timesteps[i].obs["observation"].tolist() == expected[i].obs["observation"].tolist()
    new = manager.actor_pids
    assert new[1] == old[1] and new[0] != old[0]
    assert sorted(manager.ready_obs) == [0, 1, 2, 3]  # the replaced envs started new episodes
    manager.step({i: 1 for i in manager.ready_obs})
    manager.close()
    assert all(exits(pid) for pid in new)  # close() leaves no actor process behind


def test_raising_env_is_rebuilt_alone_and_hung_actor_is_replaced():
    manager = RayEnvManager(_factories(4), dict(actor_num=2, step_timeout=3.0))
    manager.seed(1)
    manager.launch()
    manager.step({i: 1 for i in range(4)})
    before = manager.actor_pids
    with pytest.warns(EnvFailureWarning, match="(?s)env 1 failed .*injected failure"):
        timesteps = manager.step({0: 1, 1: RAISE, 2: 1, 3: 1})
    assert timesteps[1].info["abnormal"] and not timesteps[0].info
    assert timesteps[0].obs["observation"][1] == 2  # env 0, same actor, kept its episode
    assert manager.actor_pids == before  # an env's exception does not replace its actor
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        timesteps = manager.step({0: 1, 1: 1, 2: HANG, 3: 1})
    messages = [str(w.message) for w in caught]
    assert any("env 2 failed" in m and "no answer within the timeout" in m for m in messages)
    assert timesteps[2].info["abnormal"] and timesteps[3].info["abnormal"]  # its chunk's envs
    assert not timesteps[0].info.get("abnormal") and timesteps[0].obs["observation"][1] == 3
    after = manager.actor_pids
    assert after[0] == before[0] and after[1] != before[1]
    manager.close()


@pytest.mark.parametrize("cfg", [dict(actor_num=2), dict(actor_num=2, wait_num=1)])
def test_illegal_actions_are_the_callers_error_here_too(cfg):
    from lzero.errors import IllegalActionError

    manager = RayEnvManager(_factories(4), cfg)
    manager.seed(1)
    manager.launch()
    try:
        before = {i: o["observation"].tolist() for i, o in manager.ready_obs.items()}
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no env failure, no restart
            with pytest.raises(IllegalActionError, match=r"env 2 expected a legal action"):
                manager.step({0: 1, 2: 5})  # outside the mask: nothing is sent
            with pytest.raises(IllegalActionError, match=r"env 1 rejected its action"):
                manager.step({1: 1.5})  # refused by the env in its actor
        assert {i: o["observation"].tolist() for i, o in manager.ready_obs.items()} == before
        answered = set()
        # With wait_num, a step returns the envs that have answered: under load (CI, Ray's
        # workers niced) one actor may answer twenty steps before the other's first reply,
        # so the bound is time, not a count of steps.
        deadline = time.monotonic() + 60
        while len(answered) < 4 and time.monotonic() < deadline:
            answered |= set(manager.step({i: 1 for i in manager.ready_obs}))
        assert answered == {0, 1, 2, 3}  # every env goes on stepping
    finally:
        manager.close()


def test_config_picks_the_ray_manager_and_checks_its_keys():
    assert get_env_manager_cls(dict(type="ray")) is RayEnvManager
    with pytest.raises(ConfigError, match="unknown type 'rey'; did you mean 'ray'"):
        get_env_manager_cls("rey")
    with pytest.raises(ConfigError, match="expected wait_num to be a positive int or None, got 0"):
        RayEnvManager(_factories(2), dict(wait_num=0))
    with pytest.raises(ConfigError, match="expected actor_num to be a positive int or None"):
        RayEnvManager(_factories(2), dict(actor_num=-1))
    with pytest.raises(
        ConfigError,
        match=r"expected actor_num \* num_cpus_per_actor <= the cluster's 2 CPUs, got 3 \* 1",
    ):
        RayEnvManager(_factories(4), dict(actor_num=3)).launch()
    with pytest.raises(ConfigError, match="unknown key 'actors_num'"):
        RayEnvManager(_factories(2), dict(actors_num=2))


def _gym_config(**manager):
    from lzero.entry.config import compile_config

    main = dict(env=dict(env_id="CartPole-v0", manager=manager), policy=dict(model=dict(
        observation_shape=4, action_space_size=2)))  # fmt: skip
    return compile_config([main, dict(policy=dict(type="muzero"))])


def test_muzero_config_builds_a_ray_manager():
    manager = make_env_manager(_gym_config(type="ray", actor_num=2), 3, is_train=True)
    assert isinstance(manager, RayEnvManager) and manager._cfg.actor_num == 2
    manager.seed(0)
    manager.launch()
    timesteps = manager.step(dict.fromkeys(manager.ready_obs, 0))
    assert sorted(timesteps) == [0, 1, 2] and np.all(np.isfinite(timesteps[0].obs["observation"]))
    manager.close()


def test_a_factory_that_raises_is_raised_as_base_managers_is():
    """The factory's own error, at once: it was rebuilt three times and reported as 'died:
    The actor died because of an error raised in its creation task' in Ray's colours."""
    for cls in (BaseEnvManager, RayEnvManager):
        manager = cls(
            [manager_test_envs.failing_factory] * 2,
            dict(actor_num=2) if cls is RayEnvManager else {},
        )
        start = time.monotonic()
        with pytest.raises(ValueError, match="factory says: board_size must be 5-19, got 3"):
            manager.launch()
        assert time.monotonic() - start < 30
        manager.close()


def test_muzero_evaluation_actors_reserve_no_cpus():
    """The collector's actors may hold every CPU (its default): the evaluator's, which run
    between collect phases, reserve none, so that they start (they waited until the reset
    timeouts ran out, 8 minutes, on 2 CPUs)."""
    manager = make_env_manager(_gym_config(type="ray"), 3, is_train=False)
    assert manager._cfg.num_cpus_per_actor == 0 and manager._cfg.actor_num == 1
    manager = make_env_manager(_gym_config(type="ray", actor_num=2), 3, is_train=False)
    assert manager._cfg.num_cpus_per_actor == 0 and manager._cfg.actor_num == 2
    train = make_env_manager(_gym_config(type="ray"), 3, is_train=True)
    assert train._cfg.num_cpus_per_actor == 1 and train._cfg.actor_num is None
    manager.seed(0)
    manager.launch()  # beside the module's Ray, all of whose CPUs another actor set may hold
    assert sorted(manager.step(dict.fromkeys(manager.ready_obs, 0))) == [0, 1, 2]
    manager.close()


def test_ray_address_and_cpus_are_checked_before_ray_starts():
    """A bad address is a config error, not Ray's traceback; NaN CPUs are refused up front
    (they crashed after Ray had started); the SIGTERM handler lzero train installs survives
    ray.init (Ray replaced it with one that exits, so a run stopped without its last
    checkpoint and with a wrong stop line)."""
    import subprocess

    from lzero.envs.env_manager.ray_session import check_ray_config

    with pytest.raises(ConfigError, match="expected num_cpus_per_actor, a number >= 0, got nan"):
        check_ray_config(
            EasyDict(actor_num=None, num_cpus_per_actor=float("nan"), ray_address=None), "x"
        )
    program = """
import signal, sys
from lzero.envs.env_manager.ray_session import acquire_ray, release_ray
from lzero.errors import ConfigError
try:
    acquire_ray("bogus", "test")
except ConfigError as err:
    print("refused:", err)
try:
    acquire_ray("localhost:1", "test")  # nothing listens: Ray retried for minutes
except ConfigError as err:
    print("unreachable:", err)
try:  # Ray Client without ray[client] (grpc): the address was blamed for a missing package
    acquire_ray("ray://127.0.0.1:1", "test")
except ImportError as err:
    print("client:", type(err).__name__, err)
except ConfigError as err:
    print("client:", type(err).__name__, err)
def mine(signum, frame):
    pass
signal.signal(signal.SIGTERM, mine)
acquire_ray(None, "test")
print("kept:", signal.getsignal(signal.SIGTERM) is mine)
release_ray()
"""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=180, env=env
    )
    assert (
        "refused: ray_address: expected 'auto', 'host:port' or 'ray://host:port'" in proc.stdout
    ), proc.stderr
    assert "got 'bogus'" in proc.stdout and "kept: True" in proc.stdout, proc.stderr
    assert (
        "unreachable: ray_address: expected a running Ray cluster at 'localhost:1'" in proc.stdout
    )
    if importlib.util.find_spec("grpc") is None:  # ray[client] is not installed
        assert (
            "client: MissingExtraError ray_address: 'ray://127.0.0.1:1' joins through Ray "
            "Client, which needs pip install 'ray[client]'" in proc.stdout
        ), proc.stdout


def test_without_ray_asking_for_it_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(
        MissingExtraError, match=r'needs ray, which is not installed: pip install -e "\.\[ray\]"'
    ):
        RayEnvManager(_factories(2))
    with pytest.raises(ImportError, match=r"\.\[ray\]"):
        make_env_manager(_gym_config(type="ray"), 2, is_train=True)


class FakeRay:
    """Records what the session logic asks of Ray, without starting one."""

    def __init__(self, initialized=False):
        self.initialized, self.calls = initialized, []

    def is_initialized(self):
        return self.initialized

    def init(self, **kwargs):
        self.calls.append(("init", kwargs))
        self.initialized = True

    def shutdown(self):
        self.calls.append(("shutdown", {}))
        self.initialized = False


@pytest.mark.parametrize(
    "initialized,env_address,address,expected_init",
    [
        (True, None, None, None),  # the user's Ray: used, never shut down
        (False, None, None, dict(include_dashboard=False, logging_level="warning")),
        (False, "10.0.0.1:6379", None, dict(address="10.0.0.1:6379", logging_level="warning")),
        (False, "10.0.0.1:6379", "auto", dict(address="auto", logging_level="warning")),
    ],
)
def test_ray_we_start_or_join_is_released_by_its_last_user(
    monkeypatch, initialized, env_address, address, expected_init
):
    from lzero.envs.env_manager import ray_session

    fake = FakeRay(initialized)
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr(ray_session, "_session", {"users": 0})
    if env_address:
        monkeypatch.setenv("RAY_ADDRESS", env_address)
    else:
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
    ray_session.acquire_ray(address, "test")  # a collector
    ray_session.acquire_ray(address, "test")  # and an evaluator
    assert fake.calls == ([] if expected_init is None else [("init", expected_init)])
    ray_session.release_ray()
    assert fake.initialized  # one user left
    ray_session.release_ray()
    assert fake.initialized == (expected_init is None)  # shut down only if we initialised it
