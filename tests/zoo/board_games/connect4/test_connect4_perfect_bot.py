"""The perfect Connect4 bot: it wins as first player, and each of its moves keeps the score."""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest
from c4_reference import env_board, random_position

from lzero.errors import ConfigError
from zoo.board_games.connect4.envs import connect4_perfect
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.env_support import bot_move

#: The bot's moves need the opening book (the ``perfect`` extra); the errors without it do not.
needs_book = pytest.mark.skipif(
    importlib.util.find_spec("bitbully_databases") is None,
    reason="the perfect bot needs bitbully-databases (pip install -e '.[perfect]')",
)


def _play(env, first: str, second: str) -> int:
    env.reset()
    kinds = {1: first, 2: second}
    done = False
    while not done:
        done = env.step(bot_move(env, kinds[env.current_player])).done
    return env.get_done_winner()[1]


@needs_book
@pytest.mark.parametrize(("opponent", "games"), [("random", 3), ("rule", 3), ("mcts", 1)])
def test_perfect_bot_wins_as_first_player(opponent, games):
    env = Connect4Env({"battle_mode": "self_play_mode"})
    env.seed(0)
    for _ in range(games):
        assert _play(env, "perfect", opponent) == 1


@needs_book
def test_every_move_keeps_the_score():
    """On positions from random games, the bot picks from columns with the best exact score:
    all of them below the book's 12 stones, the first in the solver's move order from 12 on
    (checked on 12 to 16 stones, where it no longer reads the book)."""
    env = Connect4Env({"battle_mode": "self_play_mode", "bot_action_type": "perfect"})
    env.seed(0)
    rng = random.Random(5)
    checked = 0
    while checked < 40:
        stones = rng.randrange(0, 30) if checked % 2 else rng.randrange(12, 17)
        pos = random_position(rng, stones)
        if pos is None:
            continue
        _, cols, mover = pos
        board = env_board(cols)
        picks = connect4_perfect.perfect_moves(board, mover)
        scores = [
            -100 if s is None else s for s in connect4_perfect._solver().analyze_board(board, mover)
        ]
        best = np.flatnonzero(np.array(scores) == max(scores))
        if stones < 12:
            assert np.flatnonzero(picks).tolist() == best.tolist()
        else:
            assert picks.sum() == 1 and np.flatnonzero(picks)[0] in best
        env.reset(init_state=board, start_player_index=mover - 1)
        assert picks[bot_move(env, "perfect")]
        checked += 1


def test_missing_book_says_what_to_install(monkeypatch):
    monkeypatch.setattr(connect4_perfect, "_SOLVER", [])
    monkeypatch.setattr(connect4_perfect, "book_available", lambda: False)
    with pytest.raises(
        ConfigError, match=r"opening book is missing: pip install bitbully-databases"
    ):
        connect4_perfect.perfect_moves(np.zeros((6, 7), dtype=np.int8), 1)


def test_missing_book_is_an_error_before_any_move(monkeypatch, capsys):
    """An env with the perfect bot, and ``lzero play connect4 --bot perfect``, fail when they
    start, not at the bot's first move: no board is printed, no input read."""
    from zoo.board_games import cli

    monkeypatch.setattr(connect4_perfect, "book_available", lambda: False)
    with pytest.raises(ConfigError, match="opening book is missing"):
        Connect4Env({"battle_mode": "play_with_bot_mode", "bot_action_type": "perfect"})
    Connect4Env({"battle_mode": "play_with_bot_mode", "bot_action_type": "rule"})  # no book

    def no_input(prompt=""):
        raise AssertionError("read a move")

    monkeypatch.setattr("builtins.input", no_input)
    for argv in (
        ["play", "connect4", "--bot", "perfect"],
        ["arena", "connect4", "--bot2", "perfect"],
    ):
        assert cli.main(argv) == 2
        out, err = capsys.readouterr()
        assert out == "" and "opening book is missing: pip install bitbully-databases" in err
