"""The Connect4 solver against a plain-Python negamax, its own consistency, and bad input."""

from __future__ import annotations

import random

import numpy as np
import pytest
from c4_reference import column_scores, env_board, random_position, reference_score

from zoo.board_games.connect4.envs.connect4_solver import (
    FULL_COLUMN,
    Connect4Solver,
    analyze,
    analyze_board,
    analyze_many,
    solve,
    solve_board,
    solve_many,
)


def _positions(seed: int, count: int, stones: range):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = random_position(rng, rng.choice(stones))
        if pos is not None:
            out.append(pos)
    return out


def test_exact_scores_match_plain_negamax_near_the_end():
    """2,000 random positions with 5 to 11 empty cells: the score of full negamax."""
    memo: dict = {}
    solver = Connect4Solver(table_size=1 << 18)  # small table: collisions must stay harmless
    for moves, cols, mover in _positions(0, 2000, range(31, 38)):
        expected = reference_score(cols, mover, memo)
        assert solver.solve(moves) == expected, moves
        assert solver.solve_board(env_board(cols), mover) == expected, moves


def test_analyze_matches_plain_negamax_per_column():
    memo: dict = {}
    for moves, cols, mover in _positions(1, 200, range(32, 39)):
        expected = column_scores(cols, mover, memo)
        assert analyze(moves) == expected, moves
        assert analyze_board(env_board(cols), mover) == expected, moves


def test_best_move_keeps_the_plain_negamax_score():
    """500 positions with 5 to 11 empty cells: best_move's column has the best score (its
    probes are null-window searches, not exact scores), from move strings and boards."""
    memo: dict = {}
    solver = Connect4Solver(table_size=1 << 18)
    for moves, cols, mover in _positions(5, 500, range(31, 38)):
        scores = column_scores(cols, mover, memo)
        best = max(s for s in scores if s is not None)
        assert scores[solver.best_move(moves) - 1] == best, moves
        assert scores[solver.best_move_board(env_board(cols), mover)] == best, moves


def test_best_move_when_every_move_loses_and_on_a_full_board():
    # Player 2 to move faces two threats (columns 1 and 5 on the bottom row): every column
    # loses to the next stone, so any column keeps the score.
    assert analyze("2232434") == [-((42 - 7) // 2)] * 7
    assert Connect4Solver().best_move("2232434") in range(1, 8)
    full_draw = "421127327363224366417626743773654415515515"
    assert solve(full_draw) == 0
    with pytest.raises(ValueError, match=r"expected a position with a playable column, got a full"):
        Connect4Solver().best_move(full_draw)


def test_score_is_best_child_and_mirror_invariant_mid_game():
    """Positions with 16 to 26 stones: the score is the best column's, mirrors score the same."""
    for moves, _, _ in _positions(2, 30, range(16, 27)):
        score = solve(moves)
        assert score == max(s for s in analyze(moves) if s is not None), moves
        mirror = "".join(str(8 - int(ch)) for ch in moves)
        assert solve(mirror) == score, moves


def test_known_positions():
    # The first line of Pons' Test_L3_R1 (end-game easy) with its published score, and two
    # positions scored by bitbully 0.0.79.
    assert solve("2252576253462244111563365343671351441") == -1
    assert solve("7422341735647741166133573473242566") == 1
    assert solve("23163416124767223154467471272416755633") == 0


def test_board_with_second_player_to_move_first():
    """A start by player 2 (the env's start_player_index=1): same stones, same score."""
    for moves, cols, mover in _positions(3, 20, range(30, 36)):
        swapped = [[3 - p for p in col] for col in cols]
        assert solve_board(env_board(swapped), 3 - mover) == solve(moves)


@pytest.mark.parametrize(
    ("moves", "match"),
    [
        ("4480", r"expected columns 1-7, got '8' at move 3"),
        ("44x", r"expected columns 1-7, got 'x' at move 3"),
        ("4444444", r"expected a playable column, got full column 4 at move 7"),
        ("1212121", r"four in a row at move 7 \('1212121'\): the position is already won"),
        ("12121213", r"four in a row at move 7"),
        (44, r"expected a string of columns 1-7, got 44"),
    ],
)
def test_bad_move_strings(moves, match):
    with pytest.raises(ValueError, match=match):
        solve(moves)


def _board(rows: dict[int, list[int]]) -> np.ndarray:
    board = np.zeros((6, 7), dtype=np.int8)
    for r, row in rows.items():
        board[r] = row
    return board


@pytest.mark.parametrize(
    ("board", "to_play", "match"),
    [
        (np.zeros((7, 6), dtype=np.int8), 1, r"expected shape \(6, 7\), got \(7, 6\)"),
        (_board({5: [3, 0, 0, 0, 0, 0, 0]}), 1, r"expected values in \{0, 1, 2\}, got \[0, 3\]"),
        (_board({5: [1, 0, 0, 0, 0, 0, 0]}), 3, r"to_play: expected 1 or 2, got 3"),
        (_board({4: [1, 0, 0, 0, 0, 0, 0]}), 2, r"floating stone at row 4, column 0"),
        (_board({5: [1, 1, 0, 0, 0, 0, 0]}), 2, r"impossible stone counts.*got 0 and 2"),
        (_board({5: [1, 2, 1, 1, 0, 0, 0]}), 2, r"impossible stone counts.*got 1 and 3"),
        (
            _board({4: [1, 1, 1, 0, 0, 0, 0], 5: [2, 2, 2, 2, 1, 0, 0]}),
            1,
            r"four in a row already",
        ),
    ],
)
def test_bad_boards(board, to_play, match):
    with pytest.raises(ValueError, match=match):
        solve_board(board, to_play)


@pytest.mark.parametrize(
    ("size", "match"),
    [(1000, r"at least 131073 entries, got 1000"), (2.5, r"expected an int, got 2.5")],
)
def test_bad_table_size(size, match):
    with pytest.raises(ValueError, match=match):
        Connect4Solver(table_size=size)


def test_matches_bitbully_on_mid_game_positions():
    bitbully = pytest.importorskip("bitbully")
    agent = bitbully.BitBully(None)
    for moves, _, _ in _positions(4, 40, range(14, 30)):
        board = bitbully.Board.from_moves([int(ch) - 1 for ch in moves])
        assert solve(moves) == agent.null_window(board), moves


def test_solve_position_takes_the_bitboards_of_play_sequence():
    from zoo.board_games.connect4.envs.connect4_position import play_sequence

    solver = Connect4Solver(table_size=1 << 18)
    for moves, _, _ in _positions(6, 20, range(26, 36)):
        assert solver.solve_position(*play_sequence(moves)) == solve(moves)


def test_a_position_and_its_mirror_share_one_table_key_only_early_in_the_game():
    from zoo.board_games.connect4.envs.connect4_position import play_sequence
    from zoo.board_games.connect4.envs.connect4_search import MIRROR_PLY, table_key

    rng = random.Random(5)
    checked = 0
    while checked < 300:
        moves = "".join(rng.choice("1234567") for _ in range(rng.randrange(0, 30)))
        mirrored = "".join(str(8 - int(c)) for c in moves)  # column c <-> 8 - c
        try:
            a, b = play_sequence(moves), play_sequence(mirrored)
        except ValueError:  # a full column or a finished game: draw again
            continue
        n = len(moves)
        ka = table_key(np.int64(a[0]), np.int64(a[1]), n)
        kb = table_key(np.int64(b[0]), np.int64(b[1]), n)
        if n < MIRROR_PLY:
            assert ka == kb == min(a[0] + a[1], b[0] + b[1])
        else:
            assert (ka, kb) == (a[0] + a[1], b[0] + b[1])
        checked += 1


def test_batch_forms_match_plain_negamax_for_strings_and_boards():
    """solve_many and analyze_many, given move strings or (board, to_play) pairs (one mixed
    list too), equal full negamax position by position; a full board scores 0."""
    memo: dict = {}
    positions = _positions(7, 150, range(31, 39))
    full = _positions(8, 1, range(42, 43))[0][0]  # a full board without four in a row
    strings = [m for m, _, _ in positions]
    pairs = [(env_board(cols), mover) for _, cols, mover in positions]
    expected = [reference_score(cols, mover, memo) for _, cols, mover in positions]
    columns = [column_scores(cols, mover, memo, full=FULL_COLUMN) for _, cols, mover in positions]
    solver = Connect4Solver(table_size=1 << 18)
    assert solver.solve_many(strings).tolist() == expected
    assert solver.solve_many(pairs).tolist() == expected
    mixed = [p if i % 2 else s for i, (s, p) in enumerate(zip(strings, pairs))]
    assert solver.analyze_many(mixed).tolist() == columns
    assert analyze_many(strings).dtype == np.int64 and solve_many([]).shape == (0,)
    assert analyze_many([]).shape == (0, 7)
    assert len(full) == 42 and solve_many([full]).tolist() == [0]
    assert analyze_many([full]).tolist() == [[FULL_COLUMN] * 7]


@pytest.mark.parametrize(
    ("positions", "match"),
    [
        ("4444", r"positions: expected a sequence of move strings or \(board, to_play\) pairs"),
        (["44", "4444444"], r"positions\[1\]: moves: expected a playable column, got full col"),
        (["1", "12\u00e9"], r"positions\[1\]: moves: expected columns 1-7, got '\u00e9' at move 3"),
        (["1", 5], r"positions\[1\]: expected a move string or a \(board, to_play\) pair, got int"),
        (
            [(np.zeros((6, 7), np.int8), 1), (np.zeros((6, 7), np.int8), 3)],
            r"positions\[1\]: to_play: expected 1 or 2, got 3",
        ),
        (["1212121"], r"positions\[0\]: moves: expected a game still running"),
    ],
)
def test_batch_forms_name_the_bad_position(positions, match):
    for batch in (solve_many, analyze_many):
        with pytest.raises(ValueError, match=match):
            batch(positions)
