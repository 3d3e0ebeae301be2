"""The agents the package ships: each loads, plays only legal moves in every battle mode, is
no larger than the issue allows, and carries a complete recipe; the names that reach them
(``load_pretrained``, ``pretrained:GAME``, the ``pretrained`` bot) and their errors."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from lzero.agent import load_agent, load_pretrained, read_checkpoint  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from lzero.pretrained import RECIPE_KEYS, available, pretrained_path, recipe  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
#: The games whose agent the package ships (Gomoku's is not trained yet).
SHIPPED = ("connect4", "tictactoe")


def test_the_shipped_games():
    assert set(SHIPPED) <= set(available())


@pytest.mark.parametrize("game", SHIPPED)
def test_recipe_is_complete_and_matches_the_checkpoint(game):
    rec = recipe(game)
    missing = [k for k in RECIPE_KEYS if k not in rec]
    assert not missing, f"{game}'s recipe lacks {missing}"
    assert rec["game"] == game
    module = importlib.import_module(rec["config"])
    assert f"lzero train {rec['config']}" in rec["command"]
    assert f"--seed {rec['seed']}" in rec["command"]
    assert isinstance(rec["training_minutes"], (int, float)) and rec["training_minutes"] > 0
    assert re.fullmatch(r"[0-9a-f]{7,40}", rec["commit"])
    if (ROOT / ".git").exists():  # the commit the config was trained at is in the history
        known = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{rec['commit']}^{{commit}}"],
            capture_output=True,
        )
        assert known.returncode == 0, f"commit {rec['commit']} is not in this repository"
    assert rec["strength"], "the recipe reports no measured strength"
    path = pretrained_path(game)
    assert path.stat().st_size <= 5 * 2**20
    saved = read_checkpoint(path)
    assert saved["game"]["name"] == game
    assert saved["seed"] == rec["seed"]
    cfg, trained = module.main_config.policy, saved["policy_config"]
    assert trained["type"] == module.create_config.policy.type
    for key in ("num_res_blocks", "num_channels"):
        assert trained["model"][key] == cfg.model[key]
    assert trained["mcts"]["num_simulations"] == cfg.mcts.num_simulations
    from lzero.policy.alphazero_config import ALPHAZERO_POLICY_CONFIG as DEFAULTS

    for key in ("overlap_learning", "lr_piecewise_constant_decay", "learning_rate", "batch_size"):
        assert trained[key] == cfg.get(key, DEFAULTS[key]), key
    budget = re.search(r"--max-minutes (\d+(\.\d+)?)", rec["command"])
    if budget:  # a wall-time budget: the run kept to it (it stops between collect phases)
        assert rec["training_minutes"] <= float(budget.group(1)) + 2


def _play(agent, env, max_moves: int) -> int:
    """Plays ``agent`` for the side(s) the env leaves to it until the game ends; returns the
    moves it made, each checked legal."""
    obs, moves = env.reset(), 0
    for _ in range(max_moves):
        action = agent.act(obs)
        assert obs["action_mask"][action] == 1, (action, obs["action_mask"])
        moves += 1
        step = env.step(action)
        if step.done:
            return moves
        obs = step.obs
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", SHIPPED)
@pytest.mark.parametrize("simulations", [0, 8])
def test_agent_plays_legal_moves_in_every_mode(game, simulations):
    from lzero.envs import ENV_REGISTRY

    agent = load_pretrained(game, num_simulations=simulations)
    assert agent.num_simulations == simulations
    for mode in ("self_play_mode", "play_with_bot_mode", "eval_mode"):
        for seed in range(3):
            env = ENV_REGISTRY.build(game, {"battle_mode": mode, "bot_action_type": "random"})
            env.seed(seed, dynamic_seed=False)
            assert _play(agent, env, 60) > 0


def test_load_pretrained_names_the_games_that_have_one():
    with pytest.raises(
        ConfigError, match=r"expected a game with a shipped agent, one of \[.*'connect4'"
    ):
        load_pretrained("othello")
    with pytest.raises(ConfigError, match=r"got 'othello'"):
        load_agent("pretrained:othello")


def test_pretrained_checkpoint_name_is_the_same_agent():
    a, b = load_pretrained("connect4", num_simulations=0), load_agent("pretrained:connect4", 0)
    board = np.zeros((6, 7), np.int8)
    assert np.array_equal(
        a.policy({"board": board, "to_play": 1}), b.policy({"board": board, "to_play": 1})
    )


def _lzero(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "lzero.cli", *args], capture_output=True, text=True, timeout=300,
        env=ENV, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_command_line_names_reach_the_shipped_agent():
    proc = _lzero(
        "arena", "connect4", "--bot1", "pretrained", "--bot2", "rule", "--games", "2",
        "--agent-simulations", "4",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"bot1 +pretrained: wins \d+  draws \d+  losses \d+", proc.stdout)
    proc = _lzero(
        "eval", "--ckpt", "pretrained:connect4", "--episodes", "2", "--bots", "rule",
        "--simulations", "4",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "rule" in proc.stdout


def test_pretrained_bot_of_a_game_without_one_is_refused():
    assert "gomoku" not in available()  # when it ships, pick another game without an agent
    proc = _lzero("arena", "gomoku", "--bot1", "pretrained", "--bot2", "rule", "--games", "2")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--bot1 pretrained: expected a game with a shipped agent, one of [" in proc.stderr
