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
    assert [s.name for s in EnvState][:6] == ["VOID", "INIT", "RUN", "RESET", "DONE", "ERROR"]
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
    steps = 0
    while not manager.done and steps < 100:
        timesteps = manager.step({i: 0 for i in manager.ready_obs})
        steps += 1
        for env_id, ts in timesteps.items():
            if ts.done:
                assert manager.env_states[env_id] == EnvState.DONE
                if manager._episodes[env_id] < 3:
                    manager.reset({env_id: {}})
    assert manager.done and steps == 6  # 3 episodes of 2 steps, both envs at once
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
