"""Every zoo AlphaZero config compiles, builds its env, and its model fits the env."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
from lzero.entry.train_alphazero import _setup  # noqa: E402
from lzero.policy.alphazero_config import compile_alphazero_config  # noqa: E402

ZOO = Path(__file__).resolve().parents[2] / "zoo"
CONFIGS = sorted(
    ".".join(p.relative_to(ZOO.parent).with_suffix("").parts)
    for p in ZOO.rglob("config/*_alphazero_*_config.py")
)


def test_every_board_game_has_both_modes():
    for game in ("tictactoe", "connect4", "gomoku", "gomoku_9x9"):
        for mode in ("sp", "bot"):
            folder = game.split("_")[0]
            assert f"zoo.board_games.{folder}.config.{game}_alphazero_{mode}_mode_config" in CONFIGS


@pytest.mark.parametrize("name", CONFIGS)
def test_config_compiles_and_fits_its_env(name):
    module = __import__(name, fromlist=["main_config"])
    cfg = compile_alphazero_config([module.main_config, module.create_config])
    assert cfg.policy.type in ("alphazero", "gumbel_alphazero")
    game, bots = _setup(cfg, seed=0)
    assert game.name == cfg.create.env.type and bots
    assert cfg.env.battle_mode == (
        "play_with_bot_mode" if "_bot_mode" in name else "self_play_mode"
    )
