"""The graded positions of Pons' six kinds: their labels against plain negamax, their kinds
against the definition, and the error rule against a plain loop."""

from __future__ import annotations

import random

import numpy as np
import pytest
from c4_reference import (
    column_scores,
    columns_of,
    env_board,
    random_position,
    reference_score,
    wins,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo.board_games.connect4.envs.connect4_solver import FULL_COLUMN, Connect4Solver
from zoo.board_games.connect4.eval.connect4_positions import (
    KINDS,
    boards_of,
    build_sets,
    can_err,
    move_errors,
    moves_left,
    random_game,
)


def _columns(cols, mover, memo):
    return column_scores(cols, mover, memo, full=FULL_COLUMN)


def test_moves_left_is_one_more_than_after_the_best_move():
    """Under perfect play the game lasts one move longer than from the best child: the mover's
    winning column, or the loser's slowest; a draw fills the board."""
    memo: dict = {}
    rng = random.Random(3)
    checked = 0
    while checked < 150:
        pos = random_position(rng, rng.randrange(32, 40))
        if pos is None:
            continue
        moves, cols, mover = pos
        n = len(moves)
        scores = _columns(cols, mover, memo)
        score = max(scores)
        assert score == reference_score(cols, mover, memo)
        best = scores.index(score)
        cols[best].append(mover)
        if wins(cols, best):
            expected = 1
        else:
            expected = 1 + moves_left(reference_score(cols, 3 - mover, memo), n + 1)
        cols[best].pop()
        assert moves_left(score, n) == expected, moves
        checked += 1


def test_random_game_never_hands_the_mover_a_win_and_is_seeded():
    for seed in range(30):
        moves = random_game(random.Random(seed), 20)
        if moves is None:
            continue
        cols = columns_of(moves)
        mover = 1 + len(moves) % 2
        for c in range(7):
            if len(cols[c]) < 6:
                cols[c].append(mover)
                assert not wins(cols, c), moves
                cols[c].pop()
        assert random_game(random.Random(seed), 20) == moves
    games = {random_game(random.Random(s), 10) for s in range(20)} - {None}
    assert len(games) > 15


def test_sets_are_of_their_kinds_and_labelled_exactly():
    """A small build: every position distinct, of its kind by stones and moves left, and each
    column's label that of plain negamax where negamax is quick (31 stones or more)."""
    pytest.importorskip("bitbully_databases")  # beginning positions take minutes without it
    solver = Connect4Solver(opening_book=True)
    sets = build_sets(6, 11, solver)
    memo: dict = {}
    seen = set()
    compared = 0
    for name, stage, lefts in KINDS:
        rows = sets[name]
        assert len(rows) == 6
        for moves, scores in rows:
            assert moves not in seen
            seen.add(moves)
            assert len(moves) in stage
            assert moves_left(max(scores), len(moves)) in lefts
            if len(moves) >= 31:
                assert scores == _columns(columns_of(moves), 1 + len(moves) % 2, memo), moves
                compared += 1
    assert compared >= 3


def test_boards_of_match_the_reference_boards():
    rng = random.Random(4)
    positions = [p for p in (random_position(rng, rng.randrange(0, 30)) for _ in range(40)) if p]
    boards, to_play = boards_of([m for m, _, _ in positions])
    for (moves, cols, mover), board, player in zip(positions, boards, to_play):
        assert np.array_equal(board, env_board(cols)), moves
        assert player == mover


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-21, 21), min_size=7, max_size=7), st.data())
def test_an_error_is_a_worse_outcome_class_than_the_best(values, data):
    full = data.draw(st.lists(st.booleans(), min_size=7, max_size=7))
    if all(full):
        full[0] = False
    scores = np.array([FULL_COLUMN if f else v for v, f in zip(values, full)])
    legal = [c for c in range(7) if not full[c]]
    move = data.draw(st.sampled_from(range(7)))

    def outcome(v):  # 1 win, 0 draw, -1 loss; a full column is worse than any
        return -2 if v == FULL_COLUMN else int(v > 0) - int(v < 0)

    best = max(outcome(scores[c]) for c in legal)
    assert move_errors(np.array([move]), scores[None])[0] == (outcome(scores[move]) < best)
    assert can_err(scores[None])[0] == any(outcome(scores[c]) < best for c in legal)


@pytest.mark.parametrize(
    ("scores", "move", "error"),
    [
        ([1, -2, 0, FULL_COLUMN, -1, 3, 0], 0, False),  # a slower win is no error
        ([1, -2, 0, FULL_COLUMN, -1, 3, 0], 2, True),  # a draw where a win was
        ([-5, -1, -3, -2, -9, -1, -4], 4, False),  # every move loses
        ([0, -1, 0, 0, 0, 0, 0], 1, True),
    ],
)
def test_error_examples(scores, move, error):
    assert move_errors(np.array([move]), np.array([scores]))[0] == error
