"""The gym pool against gymnasium envs stepped alone, envpool's API contract and its errors."""

from __future__ import annotations

import time

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import (
    ENV_REGISTRY,
    BaseEnv,
    BaseEnvTimestep,
    list_all_envs,
    make,
    make_gym,
    make_spec,
    to_reward,
)


class CounterEnv(BaseEnv):
    """Dict observations with an int ``to_play``; episodes of 3 steps."""

    config = dict(length=3)

    def reset(self):
        self._start_episode()
        self._t, self._start = 0, int(self.np_random.integers(0, 100))
        return self._obs()

    def _obs(self):
        return {
            "observation": np.array([self._start, self._t], np.float32),
            "action_mask": np.ones(2, np.int8),
            "to_play": -1,
        }

    def step(self, action):
        self._t += 1
        done = self._t >= self._cfg.length
        return BaseEnvTimestep(self._obs(), to_reward(action), done, {"eval_episode_return": 0.0})

    def close(self):
        pass

    observation_space = spaces.Dict({"observation": spaces.Box(0, 100, (2,), np.float32)})
    action_space = spaces.Discrete(2)
    reward_space = spaces.Box(0, 1, (1,), np.float32)


class Reference:
    """gymnasium's CartPole-v1, env ``i`` reset with ``seed + i`` once, auto-reset by hand."""

    def __init__(self, n, seed, limit=500):
        self.envs = [gymnasium.make("CartPole-v1", max_episode_steps=limit) for _ in range(n)]
        self.obs = [env.reset(seed=seed + i)[0] for i, env in enumerate(self.envs)]
        self.done = [False] * n

    def step(self, i, action):
        if self.done[i]:
            self.done[i] = False
            return self.envs[i].reset()[0], 0.0, False
        obs, reward, term, trunc, _ = self.envs[i].step(int(action))
        self.done[i] = term or trunc
        return obs, reward, term or trunc


@pytest.mark.parametrize("num_threads", [0, 2])
def test_sync_pool_equals_sequential_gymnasium(num_threads):
    n, seed = 4, 3
    pool = make("CartPole-v1", num_envs=n, seed=seed, num_threads=num_threads, max_episode_steps=30)
    ref = Reference(n, seed, limit=30)
    assert np.allclose(pool.reset(), np.stack(ref.obs))
    rng = np.random.default_rng(0)
    dones = 0
    for _ in range(80):
        actions = rng.integers(0, 2, n)
        obs, reward, done, info = pool.step(actions)
        assert obs.dtype == np.float32 and obs.shape == (n, 4)
        for i in range(n):
            exp_obs, exp_reward, exp_done = ref.step(i, actions[i])
            assert np.array_equal(obs[i], exp_obs) and reward[i] == exp_reward
            assert done[i] == exp_done
            dones += exp_done
    assert dones > n
    pool.close()


@pytest.mark.parametrize("num_threads", [0, 2])
def test_async_pool_returns_batches_with_env_ids(num_threads):
    n, seed = 6, 5
    pool = make_gym("CartPole-v1", num_envs=n, batch_size=2, seed=seed, num_threads=num_threads)
    assert pool.is_async
    ref = Reference(n, seed)
    pool.async_reset()
    seen = np.zeros(n, int)
    rng = np.random.default_rng(1)
    deadline = time.monotonic() + 20
    # Which envs finish first depends on the workers' timing, but every env gets served.
    while (t := seen.sum() // 2) < 60 or not (seen > 0).all():
        assert time.monotonic() < deadline, f"envs never served: {np.flatnonzero(seen == 0)}"
        obs, reward, term, trunc, info = pool.recv()
        ids = info["env_id"]
        assert ids.shape == (2,) and len(set(ids.tolist())) == 2, t
        for k, i in enumerate(ids):
            if seen[i] == 0:
                assert np.array_equal(obs[k], ref.obs[i])
            seen[i] += 1
        actions = rng.integers(0, 2, 2)
        for i, a in zip(ids, actions):
            ref.obs[i] = ref.step(i, a)[0]
        pool.send(actions, ids)
    obs, reward, term, trunc, info = pool.recv()
    for k, i in enumerate(info["env_id"]):
        assert np.array_equal(obs[k], ref.obs[i])
    pool.close()


@pytest.fixture
def counter_task(monkeypatch):
    """Registers ``CounterEnv`` as 'pool_test_counter' for one test only (the registry is
    global: other tests, such as the conformance ones, must not see it)."""
    monkeypatch.setitem(ENV_REGISTRY._items, "pool_test_counter", CounterEnv)
    return "pool_test_counter"


def test_gymnasium_api_and_dict_observations_stacked_per_key(counter_task):
    pool = make(counter_task, env_type="gymnasium", num_envs=3, seed=0)
    obs, info = pool.reset()
    assert set(obs) == {"observation", "action_mask", "to_play"}
    assert obs["observation"].shape == (3, 2) and obs["to_play"].tolist() == [-1, -1, -1]
    for _ in range(3):
        obs, reward, term, trunc, info = pool.step(np.ones(3, np.int64))
    assert term.all() and not trunc.any() and (obs["observation"][:, 1] == 3).all()
    obs, reward, term, trunc, info = pool.step(np.ones(3, np.int64))
    assert (obs["observation"][:, 1] == 0).all() and (reward == 0).all() and not term.any()


def test_time_limit_truncates():
    pool = make("CartPole-v1", num_envs=2, max_episode_steps=2)
    pool.reset()
    pool.step(np.zeros(2, np.int64))
    obs, reward, done, info = pool.step(np.zeros(2, np.int64))
    assert done.all() and info["TimeLimit.truncated"].all() and (info["elapsed_step"] == 2).all()


def test_spec_and_list_all_envs():
    spec = make_spec("CartPole-v1", num_envs=4, batch_size=2)
    assert spec.num_envs == 4 and spec.batch_size == 2 and spec.max_episode_steps == 500
    assert spec.action_space == spaces.Discrete(2)
    names = list_all_envs()
    assert {"connect4", "gomoku", "tictactoe", "CartPole-v1"} <= set(names)


def test_non_finite_continuous_actions_are_refused_and_change_nothing():
    pool = make("Pendulum-v1", env_type="gymnasium", num_envs=2, seed=3)
    ref = make("Pendulum-v1", env_type="gymnasium", num_envs=2, seed=3)
    pool.reset(), ref.reset()
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(ValueError, match=r"step: expected finite actions, got .* for row 1"):
            pool.step(np.array([[0.5], [bad]], np.float32))
    got, want = (
        pool.step(np.full((2, 1), 0.5, np.float32)),
        ref.step(np.full((2, 1), 0.5, np.float32)),
    )
    np.testing.assert_array_equal(got[0], want[0])  # as if the refused steps never happened
    assert np.isfinite(got[0]).all()


@pytest.mark.parametrize("num_threads", [0, 2])
def test_async_reset_returns_one_batch_and_leaves_the_rest_in_flight(num_threads):
    # envpool's examples/env_step.py: in async mode reset() returns batch_size envs (it
    # returned all of them, and the example's next step(action[batch_size], env_id) failed).
    n, seed = 6, 4
    pool = make_gym("CartPole-v1", num_envs=n, batch_size=2, seed=seed, num_threads=num_threads)
    ref = Reference(n, seed)
    obs, info = pool.reset()
    first = info["env_id"]
    assert obs.shape == (2, 4) and first.shape == (2,)
    served = set(first.tolist())
    for k, i in enumerate(first):
        assert np.array_equal(obs[k], ref.obs[i])
    pool.send(np.zeros(2, np.int64), first)
    while len(served) < n:  # the other envs' first observations come with recv
        obs, reward, term, trunc, info = pool.recv()
        for k, i in enumerate(info["env_id"]):
            if i not in served:
                assert np.array_equal(obs[k], ref.obs[i]) and reward[k] == 0
                served.add(int(i))
        pool.send(np.zeros(2, np.int64), info["env_id"])
    pool.close()
    sync = make_gym("CartPole-v1", num_envs=n, seed=seed)  # sync: every env, as before
    assert sync.reset()[0].shape == (n, 4)


def test_bad_input_is_rejected_without_changing_any_env():
    pool = make("CartPole-v1", num_envs=3, batch_size=2, num_threads=0)
    with pytest.raises(RuntimeError, match="recv: expected actions sent .* got nothing in flight"):
        pool.recv()
    pool.async_reset()
    obs, *_, info = pool.recv()
    ids = info["env_id"]
    with pytest.raises(ValueError, match=r"expected an action batch of shape \(2,\), got \(3,\)"):
        pool.send(np.zeros(3, np.int64), ids)
    with pytest.raises(TypeError, match="expected an integer action array, got dtype <U1"):
        pool.send(np.array(["a", "b"]), ids)
    # envpool casts float actions of a discrete space; a fraction is refused, not truncated.
    with pytest.raises(ValueError, match="expected whole-number actions for a discrete space"):
        pool.send(np.array([0.0, 0.5]), ids)
    with pytest.raises(ValueError, match=r"expected actions in \[0, 2\), got 5"):
        pool.send(np.array([0, 5]), ids)
    with pytest.raises(ValueError, match=r"expected env ids in \[0, 3\), got 7"):
        pool.send(np.zeros(2, np.int64), [0, 7])
    with pytest.raises(ValueError, match="expected distinct env ids, got 1 repeated"):
        pool.send(np.zeros(2, np.int64), [1, 1])
    with pytest.raises(ValueError, match="expected envs not in flight, got env 2 still running"):
        pool.send(np.zeros(1, np.int64), [2])
    pool.send(np.zeros(2, np.int64), ids)  # nothing above changed an env: this works
    obs2, reward, done, info2 = pool.recv()
    assert info2["env_id"].tolist() == [2] + [ids[0]] and info2["elapsed_step"].tolist() == [0, 1]
    pool.close()
    with pytest.raises(
        RuntimeError,
        match="step: expected an open pool, got a closed one",
    ):
        pool.step(np.zeros(2, np.int64), ids)


def test_bad_make_arguments():
    with pytest.raises(
        KeyError, match=r"unknown task id 'CartPole-v9'; close matches: \['CartPole-v1'"
    ):
        make("CartPole-v9")
    with pytest.raises(ValueError, match=r"env_type: expected one of \['gym_legacy', .*got 'dmm'"):
        make("CartPole-v1", env_type="dmm")
    with pytest.raises(ValueError, match="batch_size: expected at most num_envs=2, got 3"):
        make("CartPole-v1", num_envs=2, batch_size=3)
    with pytest.raises(ValueError, match="num_envs: expected a positive int, got 0"):
        make("CartPole-v1", num_envs=0)
    with pytest.raises(ValueError, match="batch_size: expected a non-negative int or None"):
        make("CartPole-v1", num_envs=2, batch_size=-1)


def test_batch_size_0_is_envpools_default_sync_mode():
    pool = make("CartPole-v1", num_envs=3, batch_size=0, seed=1)
    assert pool.config["batch_size"] == 3 and pool.spec.config.batch_size == 3
    out = pool.reset()
    assert (out[0] if isinstance(out, tuple) else out).shape == (3, 4)
    pool.close()


def test_close_leaves_no_worker():
    pool = make("CartPole-v1", num_envs=4, batch_size=2, num_threads=2)
    procs = list(pool._backend.procs)
    assert len(procs) == 2 and all(p.is_alive() for p in procs)
    pool.close()
    assert all(p.exitcode is not None for p in procs)  # ended and reaped
    pool.close()


def test_a_worker_ends_on_sigterm_whatever_handler_it_was_forked_with():
    """A pool made under ``lzero train``'s SIGTERM handler (which raises): its workers still
    end at once on SIGTERM (exit code -15) instead of raising it in their loop."""
    import signal

    def raising(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, raising)
    try:
        pool = make("CartPole-v1", num_envs=2, num_threads=2)
    finally:
        signal.signal(signal.SIGTERM, previous)
    try:
        pool.reset()  # the workers have answered: past their start, where they reset SIGTERM
        proc = pool._backend.procs[1]
        proc.terminate()
        proc.join(10)
        assert proc.exitcode == -signal.SIGTERM
    finally:
        pool.close()


def test_a_dead_worker_is_reported():
    pool = make("CartPole-v1", num_envs=2, num_threads=2)
    pool.reset()
    pool._backend.procs[1].kill()
    pool._backend.procs[1].join()
    with pytest.raises(RuntimeError, match=r"pool worker 1 died \(exit code -9\)"):
        pool.step(np.zeros(2, np.int64))
    pool.close()


@pytest.mark.parametrize("batch_size", [2, 4])
def test_a_pool_with_a_dead_worker_keeps_saying_so(batch_size):
    # After the first error, the other worker's envs stayed in flight for the backend but not
    # for the pool: later calls said 'nothing in flight' or 'recv first'. Each must name the
    # dead worker.
    pool = make("CartPole-v1", num_envs=4, batch_size=batch_size, num_threads=2)
    pool._backend.procs[1].kill()
    pool._backend.procs[1].join()
    ids = np.arange(batch_size)
    for call in (
        pool.async_reset,
        pool.recv,
        lambda: pool.send(np.zeros(batch_size, np.int64), ids),
        lambda: pool.step(np.zeros(batch_size, np.int64), ids),
        pool.reset,
    ):
        with pytest.raises(RuntimeError, match=r"pool worker 1 died \(exit code -9\)"):
            call()
    pool.close()
    pool.close()


class BoomEnv(gymnasium.Env):
    """Env 1 of a pool raises on its second step (its id is its reset seed's offset)."""

    observation_space = spaces.Box(-1, 1, (1,), np.float32)
    action_space = spaces.Discrete(2)
    interrupt = False  # raise KeyboardInterrupt (a Ctrl-C inside the env) instead

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._fails = seed == 1
        self._t = 0
        return np.zeros(1, np.float32), {}

    def step(self, action):
        self._t += 1
        if self._fails and self._t == 2:
            raise (KeyboardInterrupt if BoomEnv.interrupt else RuntimeError)("boom")
        return np.full(1, self._t / 10, np.float32), 1.0, False, False, {}


gymnasium.register("LzeroTest/Boom-v0", entry_point=BoomEnv)


@pytest.mark.parametrize("num_threads", [0, 2])
def test_an_env_that_raises_breaks_the_pool_and_names_its_error(num_threads):
    """An env raising in a step loses its batch: in-process the pool had stepped env 0 and
    stayed usable (the next step raised from env 1 again, env 0 one step further), and in a
    worker the error said only 'pool worker 0 died (exit code 1)'."""
    pool = make(
        "LzeroTest/Boom-v0", num_envs=2, seed=0, num_threads=num_threads, env_type="gymnasium"
    )
    pool.reset()
    pool.step(np.zeros(2, np.int64))
    with pytest.raises(RuntimeError, match="pool env 1's step raised RuntimeError: boom"):
        pool.step(np.zeros(2, np.int64))
    for call in (pool.reset, lambda: pool.step(np.zeros(2, np.int64))):
        with pytest.raises(RuntimeError, match="pool env 1's step raised RuntimeError: boom.*make"):
            call()
    pool.close()


class NoFrameEnv(BoomEnv):
    """An env whose render raises (a renderer missing, say)."""

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, render_mode=None):
        self.render_mode = render_mode

    def render(self):
        raise ValueError("no frame today")


gymnasium.register("LzeroTest/NoFrame-v0", entry_point=NoFrameEnv)


class TwoPartError(Exception):
    """Pickles, but does not unpickle: its ``__init__`` takes two arguments."""

    def __init__(self, what, why):
        super().__init__(f"{what}: {why}")


class BadFrameEnv(NoFrameEnv):
    def render(self):
        raise TwoPartError("frame", "lost")


gymnasium.register("LzeroTest/BadFrame-v0", entry_point=BadFrameEnv)


def test_a_render_error_that_cannot_cross_processes_is_named_and_the_pool_runs_on():
    """The parent's unpickling raised a TypeError of its own, and left the worker counted busy."""
    pool = make(
        "LzeroTest/BadFrame-v0", num_envs=2, seed=0, num_threads=1, env_type="gymnasium",
        render_mode="rgb_array",
    )  # fmt: skip
    pool.reset()
    with pytest.raises(RuntimeError, match="TwoPartError: frame: lost"):
        pool.render()
    assert pool._backend._busy == [0]
    np.testing.assert_array_equal(
        pool.step(np.zeros(2, np.int64))[0], np.full((2, 1), 0.1, np.float32)
    )
    pool.close()


@pytest.mark.parametrize("num_threads", [0, 1])
def test_an_env_whose_render_raises_gives_its_error_and_the_pool_runs_on(num_threads):
    """In a worker, the error killed the worker: 'pool worker 0 died (exit code 1)', and every
    later call was refused."""
    pool = make(
        "LzeroTest/NoFrame-v0", num_envs=2, seed=0, num_threads=num_threads,
        env_type="gymnasium", render_mode="rgb_array",
    )  # fmt: skip
    pool.reset()
    with pytest.raises(ValueError, match="no frame today"):
        pool.render()
    obs = pool.step(np.zeros(2, np.int64))[0]
    np.testing.assert_array_equal(obs, np.full((2, 1), 0.1, np.float32))
    pool.close()


def test_a_ctrl_c_inside_an_in_process_env_leaves_the_pool_refusing(monkeypatch):
    """A Ctrl-C (or SystemExit) inside an env's step goes on as it is, but the batch is lost
    as with an error: the pool had stayed usable, env 0 a step ahead."""
    monkeypatch.setattr(BoomEnv, "interrupt", True)
    pool = make("LzeroTest/Boom-v0", num_envs=2, seed=0, num_threads=0, env_type="gymnasium")
    pool.reset()
    pool.step(np.zeros(2, np.int64))
    with pytest.raises(KeyboardInterrupt):
        pool.step(np.zeros(2, np.int64))
    with pytest.raises(RuntimeError, match="pool env 1's step raised KeyboardInterrupt: boom"):
        pool.step(np.zeros(2, np.int64))
    pool.close()
