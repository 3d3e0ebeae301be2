"""The opening book (bitbully-databases) against the solver, and the solver with it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("bitbully_databases")

from zoo.board_games.connect4.envs.connect4_book import BOOK_PLY, book_score, load_book  # noqa: E402
from zoo.board_games.connect4.envs.connect4_position import play_sequence  # noqa: E402
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver  # noqa: E402


def _decode(code: int) -> str:
    """A move string reaching the book position ``code`` (columns filled left to right)."""
    bits = format(code & 0xFFFFFFFF, "032b")
    cols: list[list[int]] = [[] for _ in range(7)]
    i = c = 0
    while c < 7:
        if bits[i] == "0":
            c, i = c + 1, i + 1
        else:
            cols[c].append(1 if bits[i + 1] == "0" else 2)
            i += 2
    # Replay each player's stones bottom-up, alternating: any order of columns that keeps
    # gravity and alternation reaches the same position; find one greedily.
    moves, heights, player = "", [0] * 7, 1
    for _ in range(sum(map(len, cols))):
        c = next(c for c in range(7) if heights[c] < len(cols[c]) and cols[c][heights[c]] == player)
        moves, heights[c], player = moves + str(c + 1), heights[c] + 1, 3 - player
    return moves


def test_sampled_entries_match_the_solver():
    """Book scores of sampled entries equal the solver's own, without the book."""
    codes, values = load_book()
    solver = Connect4Solver()
    rng = np.random.default_rng(0)
    checked = 0
    for k in rng.choice(len(codes), 200, replace=False):
        try:
            moves = _decode(int(codes[k]))
        except StopIteration:  # greedy replay stuck (or a win on the way): take another
            continue
        try:
            expected = solver.solve(moves)
        except ValueError:
            continue
        current, mask = play_sequence(moves)
        assert book_score(codes, values, current, mask, BOOK_PLY) == expected, moves
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_opening_scores_with_the_book():
    """The empty board: the centre wins late (Pons: score 1), the edges lose."""
    solver = Connect4Solver(opening_book=True)
    assert solver.analyze("") == [-2, -1, 0, 1, 0, -1, -2]
    assert solver.analyze("4453") == [-5, -5, -2, -3, -4, -2, -2]  # bitbully 0.0.79


def test_best_move_keeps_the_score_past_the_book():
    """Positions with 12 to 16 stones, where the bot's move comes from best_move (a solve,
    then one null-window probe per column in move order): its column has the best of the
    exact column scores of analyze, and positions the book decides are handled too."""
    import random

    solver = Connect4Solver(opening_book=True)
    rng = random.Random(7)
    checked = 0
    while checked < 24:
        moves = ""
        try:
            for _ in range(12 + checked % 5):
                moves += rng.choice("1234567")
                play_sequence(moves)
        except ValueError:
            continue
        scores = solver.analyze(moves)
        solver.reset()
        assert scores[solver.best_move(moves) - 1] == max(s for s in scores if s is not None)
        checked += 1


def test_one_stone_past_the_book_scores_as_without_it():
    """13-stone positions start their search from a lower bound read from the book (their
    12-stone parents' scores): same scores as the solver without the book."""
    import random

    with_book, without = Connect4Solver(opening_book=True), Connect4Solver()
    rng = random.Random(11)
    checked = 0
    while checked < 5:
        moves = ""
        try:
            for _ in range(13):
                moves += rng.choice("1234567")
                play_sequence(moves)
        except ValueError:
            continue
        assert with_book.solve(moves) == without.solve(moves), moves
        checked += 1


def test_the_module_functions_use_the_book_when_it_is_installed():
    """``solve``/``analyze`` (the README's calls) ran a solver without the book, so an early
    position took minutes to hours where ``lzero solve`` took seconds. The empty board is a
    first-player win with the 21st stone, column 4 (Allis, Pons)."""
    from zoo.board_games.connect4.envs import connect4_solver

    connect4_solver._DEFAULT.clear()  # this process's default solver, built afresh
    assert connect4_solver._default_solver()._book[2] == BOOK_PLY
    assert connect4_solver.analyze("") == [-2, -1, 0, 1, 0, -1, -2]
    assert connect4_solver.solve("") == 1
