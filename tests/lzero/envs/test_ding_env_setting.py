"""DI-engine's env-setting helpers as LightZero's entries call them: ``get_vec_env_setting`` on
a compiled env config, ``create_env_manager`` over the factories, then launch, reset and step."""

from __future__ import annotations

from functools import partial

import pytest
from easydict import EasyDict

from lzero.envs import create_env_manager, get_env_cls, get_vec_env_setting
from lzero.errors import ConfigError
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv


def env_cfg(**extra):
    # main_config.env with create_config.env merged in, as DI-engine's compile_config leaves it.
    return EasyDict(
        type="tictactoe",
        import_names=["zoo.board_games.tictactoe.envs.tictactoe_env"],
        battle_mode="self_play_mode",
        collector_env_num=3,
        evaluator_env_num=2,
        n_evaluator_episode=2,
        manager=dict(shared_memory=False),
        **extra,
    )


def test_get_vec_env_setting_and_create_env_manager_run_the_games():
    cfg = env_cfg()
    env_fn, collector_cfgs, evaluator_cfgs = get_vec_env_setting(cfg)
    assert env_fn is TicTacToeEnv and get_env_cls(cfg) is TicTacToeEnv
    assert [c.battle_mode for c in collector_cfgs] == ["self_play_mode"] * 3
    assert [c.battle_mode for c in evaluator_cfgs] == ["eval_mode"] * 2
    manager = create_env_manager(
        dict(cfg.manager, type="base"), [partial(env_fn, cfg=c) for c in collector_cfgs]
    )
    try:
        manager.seed(0)
        manager.launch()
        obs = manager.ready_obs
        assert sorted(obs) == [0, 1, 2] and all(o["to_play"] == 1 for o in obs.values())
        timesteps = manager.step({i: 4 for i in obs})  # everyone takes the centre
        assert all(t.obs["board"][1, 1] == 1 and not t.done for t in timesteps.values())
    finally:
        manager.close()
    assert get_vec_env_setting(cfg, collect=False)[1] is None
    assert get_vec_env_setting(cfg, eval_=False)[2] is None


def test_bad_settings_are_refused_clearly():
    with pytest.raises(ConfigError, match="expected a 'type' key"):
        get_env_cls(dict(battle_mode="self_play_mode"))
    with pytest.raises(ConfigError, match="env_manager: unknown type 'subproces'"):
        create_env_manager(dict(type="subproces"), [TicTacToeEnv])


def test_the_managers_import_from_lzero_envs_as_from_ding_envs():
    # DI-engine's code imports them from ding.envs; ours raised ImportError.
    from lzero.envs import (
        AsyncSubprocessEnvManager,
        BaseEnvManager,
        EnvState,
        SubprocessEnvManager,
        SyncSubprocessEnvManager,
        env_manager,
    )

    assert BaseEnvManager is env_manager.BaseEnvManager and EnvState.DONE is not None
    assert issubclass(SyncSubprocessEnvManager, SubprocessEnvManager)
    assert issubclass(AsyncSubprocessEnvManager, BaseEnvManager)
