"""The VCF search against exhaustive checks: at one four it equals a brute-force win in three
plies; deeper, every win it claims survives every defender reply, not only the forced ones."""

from __future__ import annotations

import random

import numpy as np
import pytest

from zoo.board_games.gomoku.eval.gomoku_threats import (
    KINDS,
    build_sets,
    five_cells,
    label,
    makes_five,
    move_is_right,
    random_position,
    vcf_moves,
)


def _empties(board):
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(board == 0))]


def _wins_in_three(board, a) -> bool:
    """Brute force: some attacker move after which every defender reply that is not five
    leaves the attacker a five (no defender reply makes five)."""
    d = 3 - a
    for m in _empties(board):
        board[m] = a
        ok = True
        for x in _empties(board):
            if makes_five(board, *x, d):
                ok = False
            else:
                board[x] = d
                ok = bool(five_cells(board, a))
                board[x] = 0
            if not ok:
                break
        board[m] = 0
        if ok:
            return True
    return False


def _strategy_holds(board, a, depth) -> bool:
    """The VCF's first move answered by every defender move in turn, the attacker then making
    five or going on with the VCF: the claimed win checked against all replies."""
    if five_cells(board, a):
        return True
    moves = vcf_moves(board, a, depth)
    if not moves:
        return False
    d = 3 - a
    board[moves[0]] = a
    try:
        for x in _empties(board):
            if makes_five(board, *x, d):
                return False
            board[x] = d
            try:
                if not five_cells(board, a) and not _strategy_holds(board, a, depth - 1):
                    return False
            finally:
                board[x] = 0
        return True
    finally:
        board[moves[0]] = 0


def _boards(seed, count, size, stones):
    rng, out = random.Random(seed), []
    while len(out) < count:
        n = rng.randrange(*stones)
        board = random_position(rng, size, n)
        if board is not None:
            out.append((board, 1 + n % 2))
    return out


def test_one_four_deep_equals_a_brute_force_win_in_three():
    found = 0
    for board, mover in _boards(0, 300, 7, (10, 30)):
        if five_cells(board, mover):
            continue
        claimed = bool(vcf_moves(board, mover, 1))
        assert claimed == _wins_in_three(board, mover), board
        found += claimed
    assert found >= 10


def test_deeper_wins_survive_every_defender_reply():
    checked = 0
    for board, mover in _boards(1, 4000, 9, (14, 34)):
        if five_cells(board, mover) or not vcf_moves(board, mover, 4):
            continue
        if vcf_moves(board, mover, 1):
            continue  # the one-four wins are the test above
        assert _strategy_holds(board, mover, 4), board
        checked += 1
        if checked == 12:
            break
    assert checked >= 5


def test_labels_and_the_right_moves():
    sets = build_sets(4, 3, size=9, depth=4)
    for kind in KINDS:
        assert len(sets[kind]) == 4
        for board, mover in sets[kind]:
            got, right = label(board, mover, 4)
            assert got == kind
            for move in right if kind != "stop" else []:
                assert move_is_right(board, mover, kind, move, 4), (kind, move)
            if kind == "block":  # any other cell lets the opponent make five
                other = next(e for e in _empties(board) if e not in right)
                assert not move_is_right(board, mover, kind, other, 4)
            if kind == "stop":  # a move far from everything leaves the opponent's VCF on
                wrong = [e for e in _empties(board) if not move_is_right(board, mover, kind, e, 4)]
                assert wrong


def test_an_occupied_cell_is_never_right():
    board = np.zeros((9, 9), np.int8)
    board[4, 0:4] = 1
    board[0, 0] = 2
    assert label(board, 1, 4) == ("win", [(4, 4)])
    assert not move_is_right(board, 1, "win", (0, 0), 4)
    assert label(board, 2, 4)[0] == "block"


@pytest.mark.parametrize("depth", [0, -1])
def test_no_depth_no_vcf(depth):
    board = np.zeros((9, 9), np.int8)
    board[4, 1:4] = 1
    board[0, 0:2] = 2
    assert vcf_moves(board, 1, depth) == []
    assert vcf_moves(board, 1, 2)  # an open three: a four, then two cells to block
