"""Managers against a sequential reference: each env seeded ``seed + i`` and stepped alone."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from manager_test_envs import DIE, HANG, RAISE, CounterEnv

from lzero.envs.env_manager import BaseEnvManager, SubprocessEnvManager
from lzero.errors import ConfigError

MANAGERS = [BaseEnvManager, SubprocessEnvManager]


def _factories(n, **cfg):
    return [functools.partial(CounterEnv, dict(cfg)) for _ in range(n)]


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead; only a running process counts.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] != "Z"


class Reference:
    """Env ``i`` seeded with ``seed + i`` and auto-reset by hand: what a manager must match."""

    def __init__(self, n, seed, **cfg):
        self.envs = [CounterEnv(cfg) for _ in range(n)]
        for i, env in enumerate(self.envs):
            env.seed(seed + i)
        self.obs = {i: env.reset() for i, env in enumerate(self.envs)}

    def step(self, i, action):
        ts = self.envs[i].step(action)
        self.obs[i] = self.envs[i].reset() if ts.done else ts.obs
        return ts


def _same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize("manager_cls", MANAGERS)
def test_manager_equals_sequential_envs(manager_cls):
    rng = np.random.default_rng(0)
    ref = Reference(3, seed=7, length=3)
    with manager_cls(_factories(3, length=3)) as manager:
        manager.seed(7)
        manager.launch()
        for _ in range(20):
            ready = manager.ready_obs
            assert sorted(ready) == [0, 1, 2]
            assert all(_same(ready[i], ref.obs[i]) for i in ready)
            ids = [i for i in ready if rng.random() < 0.7]  # some envs sit out a step
            actions = {i: int(rng.integers(0, 2)) for i in ids}
            timesteps = manager.step(actions)
            assert list(timesteps) == ids
            for i in ids:
                expected = ref.step(i, actions[i])
                got = timesteps[i]
                assert _same(got.obs, expected.obs) and got.done is expected.done
                assert got.reward.dtype == np.float32 and got.reward == expected.reward
                assert got.info == expected.info


@pytest.mark.parametrize("manager_cls", MANAGERS)
def test_episode_num_and_done(manager_cls):
    with manager_cls(_factories(2, length=2), dict(episode_num=2)) as manager:
        manager.launch()
        for _ in range(4):
            assert not manager.done
            manager.step(dict.fromkeys(manager.ready_obs, 1))
        assert manager.ready_obs == {} and manager.done


def test_without_auto_reset_a_finished_env_waits_for_reset():
    with BaseEnvManager(_factories(2, length=1), dict(auto_reset=False)) as manager:
        manager.launch()
        manager.step({0: 1})
        assert sorted(manager.ready_obs) == [1]
        manager.reset({0: {}})
        assert sorted(manager.ready_obs) == [0, 1]


def _run_fault(manager_cls, fault, cfg):
    ref = Reference(3, seed=3, length=4)
    with manager_cls(_factories(3, length=4), cfg) as manager:
        manager.seed(3)
        manager.launch()
        manager.step({0: 1, 1: 1, 2: 1})
        for i in range(3):
            ref.step(i, 1)
        t0 = time.monotonic()
        timesteps = manager.step({0: 0, 1: fault, 2: 1})
        elapsed = time.monotonic() - t0
        bad = timesteps[1]
        assert bad.obs is None and bad.done is True
        assert bad.info["abnormal"] is True and bad.info["env_id"] == 1
        # The others' episodes go on untouched.
        for i, a in ((0, 0), (2, 1)):
            assert _same(timesteps[i].obs, ref.step(i, a).obs)
            assert "abnormal" not in timesteps[i].info
        # The failed env was restarted, reseeded with seed + 1 and reset.
        fresh = CounterEnv({"length": 4})
        fresh.seed(3 + 1)
        assert _same(manager.ready_obs[1], fresh.reset())
        assert _same(manager.ready_obs[0], ref.obs[0])
        manager.step({0: 1, 1: 1, 2: 1})  # everyone keeps going
        return bad, elapsed


@pytest.mark.parametrize("manager_cls", MANAGERS)
def test_an_env_that_raises_is_reported_and_restarted(manager_cls):
    bad, _ = _run_fault(manager_cls, RAISE, None)
    assert "injected failure" in bad.info["error"]


def test_a_worker_that_dies_is_reported_and_restarted():
    bad, _ = _run_fault(SubprocessEnvManager, DIE, None)
    assert "died" in bad.info["error"]


def test_a_worker_that_hangs_is_reported_after_the_timeout():
    bad, elapsed = _run_fault(SubprocessEnvManager, HANG, dict(step_timeout=0.5))
    assert "timeout" in bad.info["error"] and 0.5 <= elapsed < 5


def test_the_late_answer_of_a_timed_out_question_is_not_read_as_the_next_answer():
    ref = Reference(1, seed=5, length=4)
    with SubprocessEnvManager(_factories(1, length=4), dict(step_timeout=0.3)) as manager:
        manager.seed(5)
        manager.launch()
        manager._handles[0].send("call", ("__setattr__", ("slow_seconds", 0.8), {}))
        manager._handles[0].recv(None)
        with pytest.raises(RuntimeError, match="did not answer within step_timeout"):
            manager.slow  # noqa: B018 (a missing attribute would be AttributeError)
        with pytest.raises(RuntimeError, match="env 0 did not answer within step_timeout"):
            manager.action_space  # noqa: B018 (it had said 'env 0 has no attribute')
        time.sleep(1.0)  # the answers are now waiting in the pipe
        timestep = manager.step({0: 1})[0]
        expected = ref.step(0, 1)
        assert _same(timestep.obs, expected.obs) and timestep.done is expected.done


@pytest.mark.parametrize("manager_cls", MANAGERS)
def test_a_refusal_that_cannot_be_unpickled_arrives_as_its_base_class(manager_cls):
    """The worker sent it because it pickled; the manager's unpickling raised a TypeError."""
    from lzero.errors import IllegalActionError

    with manager_cls(_factories(1)) as manager:
        manager.launch()
        with pytest.raises(IllegalActionError, match="two-part: refused"):
            manager.step({0: "two-part"})
        assert manager.step({0: 1})[0].obs is not None  # the env plays on


def test_an_env_past_max_consecutive_failures_is_restarted_before_the_error():
    cfg = dict(step_timeout=0.5, max_consecutive_failures=1)
    with SubprocessEnvManager(_factories(1, length=4), cfg) as manager:
        manager.seed(5)
        manager.launch()
        with pytest.raises(RuntimeError, match="failed 1 steps in a row"):
            manager.step({0: HANG})
        t0 = time.monotonic()
        manager.reset()  # a fresh worker, not the hung one (nor its late answer)
        fresh = CounterEnv({"length": 4})
        fresh.seed(5)
        assert _same(manager.ready_obs[0], fresh.reset()) and time.monotonic() - t0 < 5


def test_observations_come_through_shared_memory():
    with SubprocessEnvManager(_factories(2)) as manager:
        manager.launch()
        assert all(h._slots is not None for h in manager._handles)
        first = manager.ready_obs[0]["observation"]
        manager.step({0: 1, 1: 1})
        assert first[1] == 0  # a returned obs never aliases the shared buffer
        assert manager.ready_obs[0]["observation"][1] == 1
        names = [name for h in manager._handles for name in h._slots.spec()[2]]
    assert names and not any(os.path.exists(f"/dev/shm/{name}") for name in names)


def test_a_forked_worker_ends_on_sigterm_whatever_handler_it_inherited():
    """``lzero train`` turns SIGTERM into an exception in its own process; a worker forked
    under that handler must still end at once on SIGTERM (killed by the signal, exit code
    -15), not raise it in its command loop."""
    import signal

    def raising(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, raising)
    try:
        manager = SubprocessEnvManager(_factories(2), dict(context="fork"))
        manager.launch()
    finally:
        signal.signal(signal.SIGTERM, previous)
    try:
        proc = manager._handles[1]._proc
        proc.terminate()  # SIGTERM
        proc.join(10)
        assert proc.exitcode == -signal.SIGTERM
    finally:
        manager.close()


def test_close_leaves_no_process():
    manager = SubprocessEnvManager(_factories(3))
    manager.launch()
    manager.step({0: DIE, 1: 1, 2: 1})  # a restart too
    pids = manager.worker_pids
    assert len(pids) == 3 and all(map(_alive, pids))
    manager.close()
    assert not any(map(_alive, pids))
    manager.close()  # twice is fine


@pytest.mark.parametrize("kind", ["partial", "lambda"])
def test_spawn_workers_take_partials_and_lambdas(kind):
    # A lambda failed with pickle's PicklingError; DI-engine sends factories with cloudpickle.
    factories = _factories(2) if kind == "partial" else [lambda: CounterEnv({}) for _ in range(2)]
    ref = Reference(2, seed=5)
    with SubprocessEnvManager(factories, dict(context="spawn")) as manager:
        manager.seed(5)
        manager.launch()
        assert all(_same(manager.ready_obs[i], ref.obs[i]) for i in range(2))
        ts = manager.step({0: 1, 1: 0})
        assert _same(ts[1].obs, ref.step(1, 0).obs)


def test_ctrl_c_leaves_no_process(tmp_path):
    script = tmp_path / "ctrl_c.py"
    script.write_text(
        textwrap.dedent(f"""
        import functools, os, signal, sys
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from manager_test_envs import CounterEnv
        from lzero.envs.env_manager import SubprocessEnvManager
        manager = SubprocessEnvManager([functools.partial(CounterEnv, {{}})] * 2)
        manager.launch()
        print(*manager.worker_pids, flush=True)
        while True:
            manager.step(dict.fromkeys(manager.ready_obs, 1))
            os.kill(os.getpid(), signal.SIGINT)
        """)
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert "KeyboardInterrupt" in proc.stderr
    pids = [int(p) for p in proc.stdout.split()]
    assert len(pids) == 2
    deadline = time.monotonic() + 5
    while any(map(_alive, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(_alive, pids))


@pytest.mark.parametrize("manager_cls", MANAGERS)
def test_bad_input_is_rejected_without_stepping(manager_cls):
    manager = manager_cls(_factories(2))
    with pytest.raises(RuntimeError, match="expected a launched manager, got one not launched"):
        manager.step({0: 1})
    manager.launch()
    before = manager.ready_obs
    with pytest.raises(ValueError, match=r"expected ids of ready envs \[0, 1\], got env id 5"):
        manager.step({0: 1, 5: 1})
    with pytest.raises(ValueError, match="expected a dict env_id -> value, got list"):
        manager.step([1, 1])
    assert all(_same(manager.ready_obs[i], before[i]) for i in before)  # env 0 not stepped
    with pytest.raises(RuntimeError, match="expected a manager not launched yet"):
        manager.launch()
    with pytest.raises(AssertionError, match="expected a manager not launched yet"):
        manager.launch()  # DI-engine asserts
    # reset may name any env, not only ready ones (the message said 'ready envs').
    with pytest.raises(ValueError, match=r"reset_param: expected env ids \[0, 1\], got env id 5"):
        manager.reset({5: {}})
    manager.close()
    with pytest.raises(RuntimeError, match="expected a launched manager, got a closed one"):
        manager.step({0: 1})


def test_one_config_serves_both_managers():
    cfg = dict(shared_memory=False, step_timeout=5.0)  # LightZero's env.manager, say
    with BaseEnvManager(_factories(1), cfg) as manager:
        manager.launch()
    with SubprocessEnvManager(_factories(1), cfg) as manager:
        manager.launch()
        assert manager._handles[0]._slots is None  # pickled, as asked


def test_bad_construction_is_rejected():
    with pytest.raises(ConfigError, match="did you mean 'auto_reset'"):
        BaseEnvManager(_factories(1), dict(auto_rest=False))
    with pytest.raises(ValueError, match="expected a non-empty list of env factories"):
        BaseEnvManager([])
    with pytest.raises(ValueError, match=r"expected context to be one of .*, got 'thread'"):
        SubprocessEnvManager(_factories(1), dict(context="thread"))


@pytest.mark.parametrize("cls", [BaseEnvManager, SubprocessEnvManager])
@pytest.mark.parametrize(
    ("key", "bad", "allowed"),
    [
        ("max_retry", -1, "an int >= 0"),  # crashed launch() with an UnboundLocalError
        ("max_retry", "3", "an int >= 0"),
        ("max_consecutive_failures", 0, "an int >= 1"),
        ("episode_num", 0, r"an int >= 1 or float\('inf'\)"),
        ("episode_num", 2.5, r"an int >= 1 or float\('inf'\)"),
        ("step_timeout", -1, "a positive number of seconds, or None"),  # every step 'hung'
        ("reset_timeout", float("nan"), "a positive number of seconds, or None"),
        ("connect_timeout", "60", "a positive number of seconds, or None"),
        ("auto_reset", "no", "True or False"),  # read as True
        ("shared_memory", "yes", "True or False"),
        ("context", "bogus", "one of"),  # BaseEnvManager took it; one config serves both
    ],
)
def test_bad_config_values_are_refused_before_any_env_is_built(cls, key, bad, allowed):
    built = []

    def factory():
        built.append(1)
        return CounterEnv()

    with pytest.raises(
        ConfigError, match=rf"{cls.__name__} config: expected {key} to be {allowed}"
    ):
        cls([factory], {key: bad})
    assert not built
    good = {"context": "spawn", "auto_reset": False, "shared_memory": False}.get(key, 1)
    with cls([factory], {key: None if "timeout" in key else good}):
        pass  # a good value of the same key passes


def test_good_config_values_of_other_types_pass():
    cfg = dict(episode_num=np.int64(2), max_retry=np.int32(0), step_timeout=np.float32(2.5),
               auto_reset=np.bool_(False))  # fmt: skip
    BaseEnvManager(_factories(1), cfg).close()
    with pytest.raises(ValueError, match="expected a non-negative int or a list of 2 ints"):
        BaseEnvManager(_factories(2)).seed([1])


class HangingReset(CounterEnv):
    def reset(self):
        time.sleep(600)


def test_di_engines_connect_timeout_bounds_a_subprocess_reset():
    # DI-engine's subprocess manager waits connect_timeout for a worker's reset answer.
    cfg = dict(shared_memory=False, connect_timeout=0.5, reset_timeout=300, max_retry=1)
    manager = SubprocessEnvManager([HangingReset], cfg)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="still fail after 1 restarts"):
        manager.launch()
    assert time.monotonic() - start < 30 and not manager.launched
    with BaseEnvManager(_factories(1), dict(connect_timeout=0.5)) as manager:
        manager.launch()  # accepted, and nothing to wait for in one process


def _first_obs_of_episodes(manager, episodes):
    """The first observations of env 0's first ``episodes`` episodes."""
    manager.launch()
    firsts = [manager.ready_obs[0]["observation"][0]]
    while len(firsts) < episodes:
        timesteps = manager.step({0: 1})
        if timesteps[0].done:
            firsts.append(manager.ready_obs[0]["observation"][0])
    manager.close()
    return firsts


def test_dynamic_seed_none_is_the_envs_default_and_a_dict_reseeds_some_envs():
    # DI-engine's seed(seed, dynamic_seed=None) leaves the env's default (dynamic); ours made
    # it static (bool(None)), so every episode started alike.
    def episodes(dynamic):
        manager = BaseEnvManager(_factories(2, length=1))
        manager.seed(4, dynamic_seed=dynamic)
        return _first_obs_of_episodes(manager, 4)

    assert episodes(None) == episodes(True) and len(set(episodes(True))) > 1
    assert len(set(episodes(False))) == 1
    # A dict {env_id: seed} after a full seed reseeds those envs (DI-engine's).
    manager = BaseEnvManager(_factories(2, length=1))
    with pytest.raises(ValueError, match="expected a seed of every env .* before a dict"):
        manager.seed({1: 9})
    manager.seed(4, dynamic_seed=False)
    manager.seed({0: 5}, dynamic_seed=False)
    other = BaseEnvManager(_factories(2, length=1))
    other.seed([5, 5], dynamic_seed=False)
    assert _first_obs_of_episodes(manager, 1) == _first_obs_of_episodes(other, 1)
    for bad in (2, -1, 1.0, True):  # the same check as reset_param's and step's
        with pytest.raises(ValueError, match=rf"seed: expected env ids \[0, 1\], got env id {bad}"):
            manager.seed({bad: 1})
    other = BaseEnvManager(_factories(2, length=1))
    other.launch()
    with pytest.raises(ValueError, match=r"reset_param: expected env ids \[0, 1\], got env id 1.0"):
        other.reset({1.0: {}})
    other.close()
    with pytest.raises(ValueError, match="expected non-negative int seeds, got -1"):
        manager.seed([1, -1])
