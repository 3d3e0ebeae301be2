"""BoardGame: observation planes and their inverse, on the registry's boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.envs.registry import ENV_REGISTRY
from lzero.policy.board_game import BoardGame

GAMES = {
    (name, scale): BoardGame.from_env(ENV_REGISTRY.build(name, dict(cfg, scale=scale)))
    for name, cfg in (("tictactoe", {}), ("connect4", {}), ("gomoku", {"board_size": 6}))
    for scale in (False, True)
}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_boards_from_planes_inverts_planes(key, seed, batch):
    game = GAMES[key]
    rng = np.random.default_rng(seed)
    boards = rng.integers(0, 3, (batch, game.height, game.width)).astype(np.int8)
    to_play = rng.integers(1, 3, batch)
    planes = game.planes(boards, to_play)
    # The env's own layout, written out: the mover's stones, the opponent's, the mover's id.
    factor = 0.5 if game.scale else 1.0
    for b in range(batch):
        assert (planes[b, 0] == (boards[b] == to_play[b]) * factor).all()
        assert (planes[b, 2] == to_play[b] * factor).all()
    for flat in (planes, planes.reshape(batch, -1)):
        got_boards, got_to_play = game.boards_from_planes(flat)
        assert got_boards.dtype == np.int8 and (got_boards == boards).all()
        assert got_to_play.tolist() == to_play.tolist()


def test_boards_from_planes_refuses_what_planes_cannot_make():
    game = GAMES[("tictactoe", True)]
    planes = game.planes(np.zeros((2, 3, 3), np.int8), np.array([1, 2]))
    with pytest.raises(ValueError, match=r"expected observation planes \[B, 27\] or"):
        game.boards_from_planes(planes.reshape(2, 3, 9))
    for cell, value in (((1, 0, 0, 0), 0.3), ((1, 2, 1, 1), 1.5)):
        bad = planes.copy()
        bad[cell] = value
        with pytest.raises(ValueError, match="got other values in row 1"):
            game.boards_from_planes(bad)
    both = planes.copy()
    both[0, :2, 0, 0] = 0.5  # a stone of each player on one cell
    with pytest.raises(ValueError, match="never both planes at one cell"):
        game.boards_from_planes(both)
