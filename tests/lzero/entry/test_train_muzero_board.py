"""MuZero on a board game through the same entry as the gym tasks: a short run writes its
checkpoints, log and curve with win/draw/loss per bot; configs that mix a board game with a gym
task are refused."""

from __future__ import annotations

import csv
import json
import struct

import numpy as np
import pytest

pytest.importorskip("torch")
from lzero.entry import train_muzero, train_muzero_with_gym_env  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_muzero_sp_mode_config as sp  # noqa: E402
from zoo.classic_control.cartpole.config import cartpole_muzero_config as cartpole  # noqa: E402


def event_tags(path) -> set[str]:
    """The scalar tags of a TensorBoard event file (TFRecord framing: length, its CRC, the
    Event proto, its CRC)."""
    from tensorboardX.proto.event_pb2 import Event

    data, tags, pos = path.read_bytes(), set(), 0
    while pos + 12 <= len(data):
        (n,) = struct.unpack("<Q", data[pos : pos + 8])
        event = Event.FromString(data[pos + 12 : pos + 12 + n])
        tags |= {v.tag for v in event.summary.value}
        pos += 12 + n + 4
    return tags


@pytest.fixture
def tiny(tiny_muzero):
    """``tiny(tmp_path, module=sp)``: the shared tiny config, writing under ``tmp_path / 'exp'``."""
    return lambda tmp_path, module=sp: tiny_muzero(tmp_path / "exp", module)


def test_a_short_self_play_run_writes_checkpoints_and_win_rates(tmp_path, tiny, capsys):
    assert train_muzero is train_muzero_with_gym_env
    main, create = tiny(tmp_path)
    policy = train_muzero([main, create], seed=0, max_env_step=120)
    assert policy.train_iter > 0
    exp = tmp_path / "exp"
    assert (exp / "ckpt" / "ckpt_best.pth.tar").is_file()
    assert (exp / "learning_curve.png").stat().st_size > 0
    rows = list(csv.DictReader(open(exp / "progress.csv")))
    evals = [r for r in rows if r["rule_win"] != ""]
    assert evals, "no evaluation row"
    for r in evals:
        fractions = [float(r[f"rule_{k}"]) for k in ("win", "draw", "loss")]
        assert sum(fractions) == pytest.approx(1.0)
        # The eval return is the score against the first bot: wins minus losses per game.
        assert float(r["eval_return_mean"]) == pytest.approx(fractions[0] - fractions[2])
    assert int(rows[-1]["env_step"]) >= 120
    # The merged config the run used, and the same scalars as TensorBoard events.
    merged = json.loads((exp / "config.json").read_text())
    assert (
        merged["policy"]["num_simulations"] == 4
        and merged["env"]["battle_mode"] == "self_play_mode"
    )
    events = list((exp / "tensorboard").glob("events.out.tfevents.*"))
    assert events and events[0].stat().st_size > 100
    assert {"eval_return_mean", "rule_win", "total_loss"} <= event_tags(events[0])
    # Its checkpoints search a two-player tree: resuming, evaluating or starting from one
    # with a bot-mode config (a one-player tree, the bot inside) is refused; it went on.
    from lzero.entry import eval_muzero

    bot_mode, _ = tiny(tmp_path)
    bot_mode.env.battle_mode = "play_with_bot_mode"
    config = (exp / "config.json").read_text()
    refused = r"expected a checkpoint trained in the config's battle_mode 'play_with_bot_mode'"
    with pytest.raises(ConfigError, match=f"resume: {refused}"):
        train_muzero([bot_mode, create], max_env_step=240, resume=exp)
    assert (exp / "config.json").read_text() == config
    with pytest.raises(ConfigError, match=f"model_path: {refused}"):
        eval_muzero([bot_mode, create], seed=0, model_path=str(exp / "ckpt" / "ckpt_best.pth.tar"))
    # Resumed with its own config, config.json records where the run is.
    main.exp_name = str(tmp_path / "elsewhere")
    train_muzero([main, create], max_env_step=160, resume=exp)
    assert json.loads((exp / "config.json").read_text())["exp_name"] == str(exp)
    # LightZero's eval_muzero plays the config's bot only, the agent first, as LightZero's
    # eval_mode env does: the bot_action_type its eval scripts set is the one played.
    main.env.bot_action_type = "alpha_beta_pruning"  # LightZero's name of the perfect bot
    main.env.prob_random_action_in_bot = 0.0  # the config's 0.3 is played too, as LightZero's
    main.env.n_evaluator_episode = 3
    capsys.readouterr()
    _, returns = eval_muzero(
        [main, create], seed=0, model_path=str(exp / "ckpt" / "ckpt_best.pth.tar")
    )
    out = capsys.readouterr().out
    assert "eval over 3 games per bot, the agent first:\n  vs alpha_beta: " in out
    assert "vs       rule" not in out and "vs       mcts" not in out
    assert len(returns) == 3 and max(returns) <= 0  # the perfect bot is never beaten


def test_a_board_type_with_a_gym_env_id_is_refused(tmp_path, tiny):
    main, create = tiny(tmp_path)
    main.env.env_id = "CartPole-v0"
    with pytest.raises(ConfigError, match="is a board game, but env_id 'CartPole-v0' names a gym"):
        train_muzero([main, create], seed=0, max_env_step=10)


def test_env_type_and_policy_env_type_must_agree(tmp_path, tiny):
    main, create = tiny(tmp_path, cartpole)
    create.env = dict(
        type="tictactoe", import_names=["zoo.board_games.tictactoe.envs.tictactoe_env"]
    )
    with pytest.raises(ConfigError, match="expected 'board_games' for the board game 'tictactoe'"):
        train_muzero([main, create], seed=0, max_env_step=10)
    main, create = tiny(tmp_path)
    main.policy.env_type = "not_board_games"
    with pytest.raises(ConfigError, match="expected 'board_games' for the board game"):
        train_muzero([main, create], seed=0, max_env_step=10)


def test_symmetry_augmentation_needs_planes_channels_first(tmp_path, tiny):
    main, create = tiny(tmp_path)
    main.policy.symmetry_augmentation = True
    main.env.channel_last = True
    with pytest.raises(ConfigError, match=r"expected env.channel_last False \(planes"):
        train_muzero([main, create], seed=0, max_env_step=10)
    assert not (tmp_path / "exp" / "progress.csv").exists()


@pytest.mark.parametrize(
    ("env_shape", "model_shape", "match"),
    [  # LightZero's Gomoku MuZero configs: planes last for a (C, H, W) model; a 6x6 model
        # over the env's default 15x15 board
        (
            (6, 6, 3),
            (3, 6, 6),
            r"got \(3, 6, 6\); the env gives its planes last .*channel_last=False",
        ),
        ((3, 15, 15), (3, 6, 6), r"got \(3, 6, 6\); the env's board is 15x15: set env.board_size"),
    ],
)
def test_a_model_shape_the_env_does_not_give_names_the_env_key_to_change(
    env_shape, model_shape, match
):
    from easydict import EasyDict

    from lzero.entry.muzero_setup import check_spaces

    cfg = EasyDict(
        policy=dict(
            model=dict(model_type="conv", observation_shape=model_shape, action_space_size=36)
        )
    )
    obs = {"observation": np.zeros(env_shape, np.float32), "action_mask": np.ones(36, np.int8)}
    with pytest.raises(ConfigError, match=match):
        check_spaces(cfg, {0: obs})
    cfg.policy.model.observation_shape = env_shape
    check_spaces(cfg, {0: obs})  # the shape it names fits


def test_root_rules_need_a_board_game_with_planes_channels_first(tmp_path, tiny):
    main, create = tiny(tmp_path)
    main.policy.mcts = dict(tactics=True)
    main.env.channel_last = True
    with pytest.raises(ConfigError, match=r"policy.mcts: expected env.channel_last False \(planes"):
        train_muzero([main, create], seed=0, max_env_step=10)
    main, create = tiny(tmp_path, cartpole)
    main.policy.mcts = dict(threat_depth=2)
    with pytest.raises(ConfigError, match="expected a board game, got the gym task 'CartPole-v0'"):
        train_muzero([main, create], seed=0, max_env_step=10)
    assert not (tmp_path / "exp" / "progress.csv").exists()


@pytest.mark.parametrize("consistency", [False, True])
def test_a_run_with_symmetry_augmentation_trains_and_is_reproducible(tmp_path, tiny, consistency):
    """Also with EfficientZero's consistency loss, whose unrolled observations turn with
    the sample: same seed, same run, and the loss is logged."""
    rows = []
    for name in ("a", "b"):
        main, create = tiny(tmp_path)
        main.exp_name = str(tmp_path / name)
        main.policy.symmetry_augmentation = True
        if consistency:
            main.policy.model.self_supervised_learning_loss = True
            main.policy.ssl_loss_weight = 2
        train_muzero([main, create], seed=0, max_env_step=60)
        with open(tmp_path / name / "progress.csv") as f:
            rows.append(
                [{k: v for k, v in r.items() if k != "wall_time"} for r in csv.DictReader(f)]
            )
    assert rows[0] and rows[0] == rows[1]
    assert any(r["total_loss"] for r in rows[0])
    assert any(r.get("consistency_loss") for r in rows[0]) == consistency


def test_the_root_rules_reach_training_and_evaluation(tmp_path, tiny, monkeypatch):
    """The Gomoku config's ``policy.mcts`` rules narrow the root in the trained policy, and a
    checkpoint evaluated through ``eval_muzero`` searches with them too."""
    from lzero.entry import eval_muzero_with_gym_env
    from lzero.mcts.batched_search import BatchedSearch
    from lzero.policy.muzero import MuZeroPolicy
    from zoo.board_games.gomoku.config import gomoku_muzero_bot_mode_config as gomoku

    main, create = tiny(tmp_path, gomoku)
    assert main.policy.mcts.threat_depth > 0
    policy = train_muzero([main, create], seed=0, max_env_step=40)
    assert policy.root_search is not None and policy.root_search.threat_depth == 4
    searched, narrowed = [], []
    search, root_moves = MuZeroPolicy.search, BatchedSearch.root_moves

    def recording(self, obs, action_mask, **kwargs):
        searched.append(self.root_search is not None)
        return search(self, obs, action_mask, **kwargs)

    def recording_moves(self, boards, to_play, active=None):
        kept = root_moves(self, boards, to_play, active)
        empty = (np.asarray(boards) == 0).reshape(len(kept), -1)
        assert not (kept & ~empty).any()  # only empty cells
        narrowed.append(int((empty.sum(axis=1) - kept.sum(axis=1)).max()))
        return kept

    monkeypatch.setattr(MuZeroPolicy, "search", recording)
    monkeypatch.setattr(BatchedSearch, "root_moves", recording_moves)
    ckpt = tmp_path / "exp" / "ckpt" / "ckpt_last.pth.tar"
    eval_muzero_with_gym_env([main, create], seed=0, model_path=str(ckpt), num_episodes=1)
    assert searched and all(searched)
    assert len(narrowed) == len(searched) and max(narrowed) > 0  # some root lost empty cells


def test_an_unknown_eval_bot_is_refused_before_the_run_starts(tmp_path, tiny):
    """A bot the game has not, in ``policy.eval_bots``, is refused before any directory or
    env of the run exists (not at its first evaluation), naming the bots it has."""
    main, create = tiny(tmp_path)
    main.policy.eval_bots = ["rule", "minimax"]
    with pytest.raises(
        ConfigError,
        match=r"policy.eval_bots \(lzero eval --bots\): expected bots of tictactoe among",
    ):
        train_muzero([main, create], seed=0, max_env_step=40)
    assert not (tmp_path / "exp").exists()
    main, create = tiny(tmp_path, cartpole)  # a gym task has no bots to name
    main.policy.eval_bots = ["rule"]
    with pytest.raises(ConfigError, match=r"policy.eval_bots: expected none for a gym task"):
        train_muzero([main, create], seed=0, max_env_step=40)
    assert not (tmp_path / "exp").exists()
