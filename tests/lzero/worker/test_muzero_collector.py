"""Collector and evaluator over a real env manager, including an env that breaks mid-episode."""

import numpy as np
import pytest
from gymnasium import spaces

from lzero.envs import BaseEnv, BaseEnvTimestep, to_reward
from lzero.envs.env_manager import BaseEnvManager
from lzero.worker.muzero_collector import MuZeroCollector, MuZeroEvaluator

EPISODE = 4  # steps per episode; reward 1 per step


class CountEnv(BaseEnv):
    """Episodes of EPISODE steps with reward 1 each; ``crash_at`` makes one step raise once."""

    config = dict(crash_at=-1)

    def reset(self):
        self._t = 0
        return self._obs()

    def _obs(self):
        return {
            "observation": np.array([self._t], np.float32),
            "action_mask": np.ones(2, np.int8),
            "to_play": -1,
        }

    def step(self, action):
        if self._t == self._cfg.crash_at:
            self._cfg.crash_at = -1  # raise once; the restarted env gets a fresh config anyway
            raise RuntimeError("env broke")
        self._t += 1
        done = self._t == EPISODE
        info = {"eval_episode_return": float(self._t)} if done else {}
        return BaseEnvTimestep(self._obs(), to_reward(1.0), done, info)

    def close(self):
        pass

    observation_space = spaces.Dict({"observation": spaces.Box(0, EPISODE, (1,), np.float32)})
    action_space = spaces.Discrete(2)
    reward_space = spaces.Box(0, 1, (1,), np.float32)


class FirstActionPolicy:
    """Stands in for MuZeroPolicy.search: action 0, uniform visit distribution, value 0."""

    def search(self, obs, mask, rng=None, explore=True, to_play=None, epsilon=None):
        n = len(obs)
        return np.zeros(n, np.int64), np.full((n, 2), 0.5, np.float32), np.zeros(n, np.float32)


class CrashOnce:
    """A factory whose first env raises at step 2 of its first episode; later envs do not."""

    def __init__(self):
        self.built = 0

    def __call__(self):
        self.built += 1
        return CountEnv({"crash_at": 2 if self.built == 1 else -1})


def _manager(factories):
    manager = BaseEnvManager(factories)
    manager.seed(0)
    manager.launch()
    return manager


def test_collector_drops_an_abnormal_episode_and_goes_on():
    manager = _manager([CrashOnce(), CountEnv])
    collector = MuZeroCollector(
        manager, FirstActionPolicy(), segment_length=EPISODE, pad=2, rng=np.random.default_rng(0)
    )
    segments, stats = collector.collect(n_episode=4)
    manager.close()
    assert stats["episodes"] == 4 and stats["return_mean"] == float(EPISODE)
    assert len(segments) >= 4


def test_evaluator_replays_an_abnormal_episode():
    manager = _manager([CrashOnce(), CountEnv])
    returns = MuZeroEvaluator(manager, FirstActionPolicy()).eval(4)
    manager.close()
    assert returns.tolist() == [float(EPISODE)] * 4


def test_collect_stops_at_its_step_budget_and_carries_episodes_over():
    # Three envs of 4-step episodes: a budget of 5 steps stops after two rounds (6 steps, at
    # most envs - 1 over), with no episode finished; the next call finishes them and counts
    # every step once.
    manager = _manager([CountEnv] * 3)
    collector = MuZeroCollector(
        manager, FirstActionPolicy(), segment_length=EPISODE, pad=2, rng=np.random.default_rng(0)
    )
    segments, stats = collector.collect(n_episode=3, max_steps=5)
    assert stats["env_steps"] == 6 and stats["episodes"] == 0 and np.isnan(stats["return_mean"])
    assert segments == []
    segments, stats = collector.collect(n_episode=3)
    manager.close()
    assert stats["env_steps"] == 6 and stats["episodes"] == 3
    assert stats["return_mean"] == float(EPISODE) and collector.env_steps == 12
    assert sum(len(s.action) for s in segments) == 3 * EPISODE


class RecordingPolicy(FirstActionPolicy):
    """FirstActionPolicy that records the playout-cap arguments of each search."""

    def __init__(self):
        self.calls = []

    def search(self, obs, mask, rng=None, explore=True, to_play=None, epsilon=None, **cap):
        self.calls.append(cap)
        return super().search(obs, mask, rng, explore, to_play, epsilon)


def test_fast_search_steps_search_less_without_noise_and_store_no_policy_target():
    """Playout cap randomisation: about the given share of steps (drawn from the fast stream,
    one draw a step for every env) searches with the fast budget and no root noise, and its
    steps are stored with an all-zero policy target; the others search as usual."""
    manager = _manager([CountEnv] * 2)
    policy = RecordingPolicy()
    collector = MuZeroCollector(
        manager, policy, segment_length=EPISODE, pad=0, rng=np.random.default_rng(0),
        fast_search_prob=0.5, fast_search_simulations=2, fast_rng=np.random.default_rng(7),
    )  # fmt: skip
    segments, _ = collector.collect(n_episode=40)
    manager.close()
    fast = [c == {"num_simulations": 2, "root_noise": False} for c in policy.calls]
    assert all(c in ({}, {"num_simulations": 2, "root_noise": False}) for c in policy.calls)
    draws = np.random.default_rng(7).random(len(policy.calls)) < 0.5  # the stream, replayed
    assert fast == draws.tolist() and 0.3 < np.mean(fast) < 0.7
    # Each search step is one step of both envs, stored in order in each env's segments.
    stored = np.concatenate([s.policy.sum(axis=1) for s in segments])
    assert sorted(np.unique(stored).tolist()) == [0.0, 1.0]
    assert (stored == 0).sum() == 2 * sum(fast)
    with pytest.raises(ValueError, match="expected fast_search_simulations and fast_rng"):
        MuZeroCollector(manager, policy, segment_length=4, pad=0, rng=None, fast_search_prob=0.5)
