"""Collector and evaluator over a real env manager, including an env that breaks mid-episode."""

import numpy as np
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
