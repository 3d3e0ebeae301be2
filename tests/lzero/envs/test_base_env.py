import numpy as np
import pytest

from lzero.envs import BaseEnv, BaseEnvTimestep, to_ndarray, to_reward
from lzero.errors import ConfigError


def _episode(env, actions=(1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1)):
    positions = [float(env.reset()["observation"][0])]
    for a in actions:
        ts = env.step(a)
        positions.append(float(ts.obs["observation"][0]))
        if ts.done:
            break
    return positions


def test_timestep_fields():
    assert BaseEnvTimestep._fields == ("obs", "reward", "done", "info")


def test_init_is_lazy_and_config_is_merged(walk_env_cls):
    env = walk_env_cls({"size": 6})
    assert env._init_flag is False and env._cfg.size == 6 and env._cfg.extra.flag is False
    env.reset()
    assert env._init_flag is True


def test_unknown_key_is_rejected_but_manager_keys_are_accepted(walk_env_cls):
    with pytest.raises(
        ConfigError, match=r"WalkEnv config: unknown key 'sise'; did you mean 'size'"
    ):
        walk_env_cls({"sise": 3})
    env = walk_env_cls({"collector_env_num": 8, "stop_value": 1.0, "size": 5})
    assert env._cfg.size == 5 and "collector_env_num" not in env._cfg
    # A typo of a manager key (valid in LightZero's env config) is named as one: the hint
    # pointed at an env key before ('env_name' for 'colector_env_num' on the board envs).
    with pytest.raises(ConfigError, match=r"'colector_env_num'; did you mean 'collector_env_num'"):
        walk_env_cls({"colector_env_num": 8})


def test_default_config_is_a_fresh_copy(walk_env_cls):
    cfg = walk_env_cls.default_config()
    cfg.extra.flag = True
    assert walk_env_cls.default_config().extra.flag is False


def test_static_seed_replays_the_same_episode(walk_env_cls):
    env = walk_env_cls()
    env.seed(5, dynamic_seed=False)
    starts = {float(env.reset()["observation"][0]) for _ in range(20)}
    assert len(starts) == 1


def test_dynamic_seed_varies_episodes_reproducibly(walk_env_cls):
    runs = []
    for _ in range(2):
        env = walk_env_cls({"size": 1000})
        env.seed(5, dynamic_seed=True)
        runs.append([float(env.reset()["observation"][0]) for _ in range(10)])
    assert runs[0] == runs[1] and len(set(runs[0])) > 1


def test_random_action_is_seeded(walk_env_cls):
    seqs = []
    for _ in range(2):
        env = walk_env_cls()
        env.seed(3, dynamic_seed=False)
        env.reset()
        seqs.append([int(env.random_action()) for _ in range(30)])
    assert seqs[0] == seqs[1] and set(seqs[0]) == {0, 1}


@pytest.mark.parametrize("bad", [-1, 1.5, "3", True])
def test_bad_seed_is_rejected(walk_env_cls, bad):
    with pytest.raises(ConfigError, match="seed: expected a non-negative int"):
        walk_env_cls().seed(bad)


def test_collector_and_evaluator_cfgs_do_not_mutate_the_callers():
    cfg = {"collector_env_num": 3, "evaluator_env_num": 2, "size": 4}
    col = BaseEnv.create_collector_env_cfg(cfg)
    ev = BaseEnv.create_evaluator_env_cfg(cfg)
    assert len(col) == 3 and len(ev) == 2
    col[0]["size"] = 99
    assert cfg == {"collector_env_num": 3, "evaluator_env_num": 2, "size": 4}
    assert col[1].size == 4
    with pytest.raises(ConfigError, match="collector_env_num: expected a positive int, got 0"):
        BaseEnv.create_collector_env_cfg({"collector_env_num": 0})


def test_repr_and_replay_path(walk_env_cls):
    env = walk_env_cls()
    env.seed(7)
    env.enable_save_replay("/tmp/x")
    assert repr(env) == "WalkEnv(seed=7, dynamic_seed=True)" and env._replay_path == "/tmp/x"


def test_to_ndarray_and_to_reward():
    src = [1, 2]
    out = to_ndarray({"a": src, "b": (1.5, None), "c": None}, np.float32)
    assert out["a"].dtype == np.float32 and out["b"][0].dtype == np.float32
    assert out["b"][1] is None and out["c"] is None
    arr = np.zeros(3)
    assert to_ndarray(arr) is not arr
    r = to_reward(1)
    assert r.dtype == np.float32 and r.shape == (1,) and r[0] == 1.0


def test_a_non_dict_config_is_rejected(walk_env_cls):
    with pytest.raises(ConfigError, match="WalkEnv config: expected a dict, got list"):
        walk_env_cls([1])


def test_lightzero_cfg_type_stamp_is_accepted(walk_env_cls):
    # LightZero's default_config() adds cfg_type; a config read back from it carries the key.
    env = walk_env_cls({"cfg_type": "WalkEnvDict", "size": 5})
    assert env._cfg.size == 5 and "cfg_type" not in env._cfg


class DiEngineStyle(BaseEnv):
    """DI-engine's way: no config declared, spaces set in __init__, no reward_space."""

    def __init__(self, cfg):
        super().__init__(cfg)
        from gymnasium import spaces

        self.observation_space = spaces.Box(-1, 1, (2,), np.float32)
        self.action_space = spaces.Discrete(2)

    def reset(self):
        return np.zeros(2, np.float32)

    def step(self, action):
        return BaseEnvTimestep(np.zeros(2, np.float32), to_reward(0.0), True, {})

    def close(self):
        pass


def test_a_di_engine_style_env_builds_with_its_config_and_spaces_set_in_init():
    # Before, it could not be built: the spaces were abstract properties, and every key of
    # its config (env_id, ...) was unknown to a class that declares none.
    env = DiEngineStyle({"env_id": "x", "collector_env_num": 2})
    assert env._cfg.env_id == "x" and env.action_space.n == 2
    assert env.reward_space.shape == (1,) and env.reward_space.dtype == np.float32
    assert DiEngineStyle({}).observation_space.shape == (2,)  # per instance


def test_a_space_never_defined_is_named():
    class NoSpaces(DiEngineStyle):
        def __init__(self, cfg):
            BaseEnv.__init__(self, cfg)

    env = NoSpaces({})
    assert not hasattr(env, "action_space")
    with pytest.raises(AttributeError, match="NoSpaces: expected observation_space to be defined"):
        _ = env.observation_space
