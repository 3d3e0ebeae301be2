"""The board envs accept the env keys of LightZero's own configs (its TicTacToe, Connect4 and
Gomoku configs and env defaults), honour those with a meaning here and refuse what they
cannot honour, while a typo of a real key still gets "did you mean"."""

from __future__ import annotations

import pytest

from lzero.errors import ConfigError
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

GAMES = [TicTacToeEnv, Connect4Env, GomokuEnv]


def _play_out(env) -> None:
    env.reset()
    done = False
    while not done:
        done = env.step(env.random_action()).done


def test_tictactoe_env_part_of_lightzero_alphazero_config_builds_and_plays():
    # The env part of LightZero's tictactoe_alphazero_sp_mode_config, key for key.
    env = TicTacToeEnv(
        dict(
            board_size=3,
            battle_mode="self_play_mode",
            bot_action_type="v0",
            channel_last=False,
            collector_env_num=8,
            evaluator_env_num=5,
            n_evaluator_episode=5,
            manager=dict(shared_memory=False),
            agent_vs_human=False,
            prob_random_agent=0,
            prob_expert_agent=0,
            scale=True,
            alphazero_mcts_ctree=False,
            save_replay_gif=False,
            replay_path_gif="./replay_gif",
        )
    )
    _play_out(env)
    assert env.render_mode is None  # save_replay_gif=False: nothing is recorded


@pytest.mark.parametrize("size", [4, 0, True, "3"])
def test_tictactoe_board_size_other_than_3_is_refused(size):
    with pytest.raises(ConfigError, match=r"board_size: expected 3 \(TicTacToe is 3x3\), got"):
        TicTacToeEnv(dict(board_size=size))


@pytest.mark.parametrize("key", ["save_replay_gif", "save_replay"])
def test_save_replay_gif_records_gifs_into_replay_path_gif(tmp_path, key):
    folder = tmp_path / "gifs"
    env = TicTacToeEnv({key: True, "replay_path_gif": str(folder)})
    assert env.render_mode == "image_savefile_mode" and env.replay_path == str(folder)
    _play_out(env)
    assert env.last_replay_file is not None
    assert list(folder.glob("*.gif")) and env.last_replay_file.startswith(str(folder))


def test_save_replay_gif_contradicting_render_mode_or_replay_path_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="save_replay_gif: expected render_mode None or"):
        TicTacToeEnv(dict(save_replay_gif=True, render_mode="state_realtime_mode"))
    with pytest.raises(ConfigError, match="replay_path_gif: expected the same folder"):
        TicTacToeEnv(
            dict(save_replay_gif=True, replay_path_gif=str(tmp_path), replay_path="./elsewhere")
        )


@pytest.mark.parametrize("cls", GAMES)
def test_inert_lightzero_keys_are_accepted(cls):
    env = cls(
        dict(
            env_name="anything",
            cfg_type=f"{cls.__name__}Dict",
            non_zero_sum=False,
            use_katago_bot=False,
            check_action_to_connect4_in_bot_v0=False,
            simulation_env_id=cls.rules.name,
        )
    )
    _play_out(env)


@pytest.mark.parametrize("cls", GAMES)
def test_katago_bot_is_refused_naming_the_choice(cls):
    with pytest.raises(ConfigError, match=r"use_katago_bot: expected False \(no KataGo bot"):
        cls(dict(use_katago_bot=True))


def test_non_zero_sum_is_refused():
    with pytest.raises(ConfigError, match=r"non_zero_sum: expected False \(.* is zero-sum\)"):
        Connect4Env(dict(non_zero_sum=True))


@pytest.mark.parametrize("key", ["save_replay_gif", "use_katago_bot", "non_zero_sum"])
def test_lightzero_bool_keys_want_bools(key):
    with pytest.raises(ConfigError, match=f"{key}: expected a bool, got 'yes'"):
        GomokuEnv({key: "yes"})


def test_a_typo_of_a_lightzero_key_still_gets_did_you_mean():
    with pytest.raises(ConfigError, match=r"unknown key 'save_replay_giff'; did you mean"):
        TicTacToeEnv(dict(save_replay_giff=True))
    with pytest.raises(ConfigError, match=r"unknown key 'borad_size'; did you mean 'board_size'"):
        TicTacToeEnv(dict(borad_size=3))


@pytest.mark.parametrize("cls", GAMES)
def test_evaluator_env_cfgs_play_the_bot_as_lightzeros_do(cls):
    # LightZero's board envs set eval_mode in create_evaluator_env_cfg (its evaluator then plays
    # the env's bot); the collector's keep the configured mode.
    cfg = dict(battle_mode="self_play_mode", collector_env_num=3, evaluator_env_num=2)
    evaluators = cls.create_evaluator_env_cfg(cfg)
    assert [c.battle_mode for c in evaluators] == ["eval_mode", "eval_mode"]
    assert [c.battle_mode for c in cls.create_collector_env_cfg(cfg)] == ["self_play_mode"] * 3
    assert cfg["battle_mode"] == "self_play_mode"  # the caller's config is left as it was
    env = cls(evaluators[0])
    assert env.reset()["to_play"] == -1  # played against the bot


def test_eval_mode_with_a_replay_path_records_every_game_as_lightzeros_does(tmp_path):
    # LightZero's eval scripts set env.replay_path; its eval_mode then saves each game (mp4
    # there, GIF here). Other modes keep replay_path inert without a render_mode.
    folder = tmp_path / "video"
    env = TicTacToeEnv(dict(battle_mode="eval_mode", replay_path=str(folder)))
    assert env.render_mode == "image_savefile_mode"
    for _ in range(2):
        _play_out(env)
    assert len(list(folder.glob("*.gif"))) == 2
    assert TicTacToeEnv(dict(replay_path=str(tmp_path / "sp"))).render_mode is None
