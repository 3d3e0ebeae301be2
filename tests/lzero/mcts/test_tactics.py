"""The root's forced-win searches (``lzero.mcts.tactics.forcing_win``, ``threat_space_win``
and ``root_threats``) against a plain-Python reference that tries every defender reply, on
small Gomoku boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lzero.mcts.batched_search import BatchedSearch
from lzero.mcts.game import GameKernels
from lzero.mcts.tactics import (
    decisive_moves,
    forcing_win,
    root_threats,
    threat_space_win,
    win_cells,
    window_stones,
)
from zoo.board_games.gomoku.envs import gomoku_rules

SIZE, K = 7, 5
RULES = gomoku_rules.make_rules(SIZE)
UNLIMITED = 10**9


def five(cells: list[int], cell: int, player: int) -> bool:
    """Whether ``player``'s stone on ``cell`` is part of ``K`` or more in a row (a square
    board of ``len(cells)`` cells)."""
    size = round(len(cells) ** 0.5)
    r0, c0 = divmod(cell, size)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < size and 0 <= c < size and cells[r * size + c] == player:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run >= K:
            return True
    return False


def wins(cells: list[int], player: int) -> list[int]:
    """Every empty cell where ``player`` would complete a line at once."""
    out = []
    for e, v in enumerate(cells):
        if v == 0:
            cells[e] = player
            if five(cells, e, player):
                out.append(e)
            cells[e] = 0
    return out


def reference_forcing(cells: list[int], attacker: int, depth: int) -> set[int]:
    """The first moves of ``attacker``'s wins by continuous fours (each move makes a winning
    cell, the last makes two) of at most ``depth`` moves, trying every defender reply, not
    only blocks. ``attacker`` cannot win at once here."""
    defender = 3 - attacker
    theirs = wins(cells, defender)
    if len(theirs) >= 2:
        return set()
    moves = theirs if theirs else [e for e, v in enumerate(cells) if v == 0]
    found = set()
    for a in moves:
        cells[a] = attacker
        mine = wins(cells, attacker)
        ok = False
        if mine and not wins(cells, defender):
            if len(mine) >= 2:
                ok = True
            elif depth > 1:
                ok = True
                for r in [e for e, v in enumerate(cells) if v == 0]:
                    cells[r] = defender
                    if five(cells, r, defender):
                        ok = False
                    elif not wins(cells, attacker):
                        ok = bool(reference_forcing(cells, attacker, depth - 1))
                    cells[r] = 0
                    if not ok:
                        break
        cells[a] = 0
        if ok:
            found.add(a)
    return found


@st.composite
def positions(draw):
    """A Gomoku position of 7 x 7 with no line of five, and the player to move."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return random_position(rng, draw(st.integers(8, 26)))


def random_position(rng: np.random.Generator, stones: int | None = None):
    """Up to ``stones`` (default 8 to 26) stones in random cells of a 7 x 7 board, the
    players taking turns, a stone that would make a line of five left out; the cells and
    the player to move."""
    cells = [0] * (SIZE * SIZE)
    player = 1
    order = rng.permutation(SIZE * SIZE)
    for cell in order[: rng.integers(8, 27) if stones is None else stones]:
        cells[int(cell)] = player
        if five(cells, int(cell), player):
            cells[int(cell)] = 0
            continue
        player = 3 - player
    return cells, player


def board_of(cells: list[int]) -> np.ndarray:
    return np.array(cells, np.int8).reshape(SIZE, SIZE)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), depth=st.integers(1, 3))
def test_forcing_win_finds_what_the_reference_finds(position, depth):
    cells, attacker = position
    if wins(cells, attacker) or len(wins(cells, 3 - attacker)) >= 2:
        return  # outside forcing_win's preconditions
    theirs = wins(cells, 3 - attacker)
    expected = reference_forcing(list(cells), attacker, depth)
    board = board_of(cells)
    budget = np.array([UNLIMITED], np.int64)
    forced = theirs[0] if theirs else -1
    move = forcing_win(
        board, attacker, sum(v > 0 for v in cells), depth, forced, K, RULES.result_after,
        budget, -1,
    )  # fmt: skip
    assert (move >= 0) == bool(expected)
    if move >= 0:
        assert move in expected
    assert board.ravel().tolist() == cells  # restored


def attacker_moves(cells: list[int], attacker: int) -> list[int]:
    """The empty cells in some run of ``K`` cells holding at least ``K - 3`` of the
    attacker's stones and none of the defender's: every move of a win by fours and threes
    (and a subset of all moves, so a win the reference finds with them is a win)."""
    moves = set()
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(SIZE):
            for c in range(SIZE):
                run = [(r + i * dr, c + i * dc) for i in range(K)]
                if not all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in run):
                    continue
                values = [cells[rr * SIZE + cc] for rr, cc in run]
                if 3 - attacker not in values and values.count(attacker) >= K - 3:
                    moves.update(rr * SIZE + cc for rr, cc in run if cells[rr * SIZE + cc] == 0)
    return sorted(moves)


def reference_wins_within(cells: list[int], attacker: int, moves: int) -> bool:
    """Whether ``attacker`` (to move) completes a line within ``moves`` of its moves whatever
    the defender replies (every empty cell tried)."""
    if wins(cells, attacker):
        return True
    theirs = wins(cells, 3 - attacker)
    if moves <= 1 or len(theirs) >= 2:
        return False
    for a in theirs or attacker_moves(cells, attacker):
        cells[a] = attacker
        ok = not wins(cells, 3 - attacker) and all(
            reference_defended(cells, attacker, r, moves - 1)
            for r in [e for e, v in enumerate(cells) if v == 0]
        )
        cells[a] = 0
        if ok:
            return True
    return False


def reference_defended(cells: list[int], attacker: int, reply: int, moves: int) -> bool:
    """Whether the attacker still wins within ``moves`` after the defender's ``reply``."""
    cells[reply] = 3 - attacker
    ok = reference_wins_within(cells, attacker, moves)
    cells[reply] = 0
    return ok


def test_threat_space_wins_are_wins_and_include_the_fours():
    """On 400 random 7 x 7 positions, every win ``threat_space_win`` reports with two
    attacker moves is one the reference confirms against every defender reply (three
    attacker moves with the stone that completes the line), and it finds one wherever the
    fours alone find one. Some of its wins need a three (the fours find none there)."""
    rng = np.random.default_rng(1)
    depth = 2
    checked = only_threes = 0
    for _ in range(400):
        cells, attacker = random_position(rng)
        theirs = wins(cells, 3 - attacker)
        if wins(cells, attacker) or len(theirs) >= 2:
            continue  # outside the preconditions
        forced = theirs[0] if theirs else -1
        stones = sum(v > 0 for v in cells)
        board = board_of(cells)
        move = threat_space_win(
            board, attacker, stones, depth, forced, K, RULES.result_after,
            np.array([UNLIMITED], np.int64),
        )  # fmt: skip
        assert board.ravel().tolist() == cells  # restored
        fours = forcing_win(
            board, attacker, stones, depth, forced, K, RULES.result_after,
            np.array([UNLIMITED], np.int64), -1,
        )  # fmt: skip
        if fours >= 0:
            assert move >= 0
        if move >= 0:
            work = list(cells)
            work[move] = attacker
            assert not wins(work, 3 - attacker) or len(wins(work, attacker)) >= 2
            assert all(
                reference_defended(work, attacker, r, depth)
                for r in [e for e, v in enumerate(work) if v == 0]
            )
            checked += 1
            only_threes += fours < 0
    assert checked >= 40 and only_threes >= 5


def double_three_board() -> np.ndarray:
    """9 x 9: X's two stones in row 4 and two in column 5 that (4, 5) makes two open threes
    of; O's stones in the corners. X to move (8 stones)."""
    board = np.zeros((9, 9), np.int8)
    for r, c in ((4, 3), (4, 4), (2, 5), (3, 5)):
        board[r, c] = 1
    for r, c in ((0, 0), (8, 8), (0, 8), (8, 0)):
        board[r, c] = 2
    return board


def test_threat_space_win_finds_a_double_three_that_the_fours_miss():
    """X to move on 9 x 9 makes two open threes at once (row 4 and column 5): no four is on
    the board, so the win by fours finds nothing and the search with threes finds it. The
    budget bounds the search."""
    board = double_three_board()
    rules = gomoku_rules.make_rules(9)
    fours = forcing_win(
        board, 1, 8, 4, -1, K, rules.result_after, np.array([UNLIMITED], np.int64), -1
    )
    assert fours == -1
    budget = np.array([UNLIMITED], np.int64)
    move = threat_space_win(board, 1, 8, 2, -1, K, rules.result_after, budget)
    assert move == 4 * 9 + 5
    one_move = np.array([1], np.int64)  # not enough
    assert threat_space_win(board, 1, 8, 2, -1, K, rules.result_after, one_move) == -1
    unlimited = np.array([UNLIMITED], np.int64)  # O has nothing
    assert threat_space_win(board, 2, 8, 2, -1, K, rules.result_after, unlimited) == -1


def reference_decisive(cells: list[int], to_play: int, actions: list[int]) -> list[int]:
    """The moves ``decisive_moves`` keeps, in plain Python: the first winning move alone,
    else the blocks of the opponent's winning cells, else every move."""
    mine = [a for a in actions if a in wins(cells, to_play)]
    if mine:
        return mine[:1]
    blocks = [a for a in actions if a in wins(cells, 3 - to_play)]
    return blocks or actions


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), filtered=st.booleans())
def test_decisive_moves_keep_what_the_reference_keeps(position, filtered):
    """With or without the k-in-a-row filter (``k``), the game's ``result_after`` decides."""
    cells, to_play = position
    empty = [e for e, v in enumerate(cells) if v == 0]
    board = board_of(cells)
    actions = np.array(empty + [0] * (SIZE * SIZE - len(empty)), np.int64)
    blocks = np.zeros(SIZE * SIZE, np.int64)
    n = decisive_moves(
        board, to_play, len(cells) - len(empty), actions, len(empty), blocks,
        RULES.apply_action, RULES.result_after, K if filtered else 0,
    )  # fmt: skip
    assert actions[:n].tolist() == reference_decisive(list(cells), to_play, empty)
    assert board.ravel().tolist() == cells


@settings(max_examples=200, deadline=None)
@given(position=positions())
def test_win_cells_are_the_cells_that_complete_a_line(position):
    """One pass over the lines marks exactly the cells where each player's stone would stand
    in a run of five (the plain-Python cell-by-cell check)."""
    cells, _ = position
    marks = np.full(SIZE * SIZE + 3, 7, np.uint8)  # longer than the board, and not cleared
    any_marked = win_cells(board_of(cells), K, marks)
    for player in (1, 2):
        got = [e for e in range(SIZE * SIZE) if marks[e] & player]
        assert got == wins(list(cells), player)
    assert any_marked == bool(marks[: SIZE * SIZE].any())
    assert marks[SIZE * SIZE :].tolist() == [7, 7, 7]


def completes(board: np.ndarray, r0: int, c0: int, player: int, k: int) -> bool:
    """Whether ``player``'s stone on the empty ``(r0, c0)`` of ``board`` `[H, W]` would stand
    in a run of ``k`` or more."""
    h, w = board.shape
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < h and 0 <= c < w and board[r, c] == player:
                run, r, c = run + 1, r + sign * dr, c + sign * dc
        if run >= k:
            return True
    return False


@settings(max_examples=100, deadline=None)
@given(
    shape=st.sampled_from([(6, 9, 4), (9, 6, 4), (3, 7, 3), (8, 5, 5), (4, 4, 4)]),
    seed=st.integers(0, 2**32 - 1),
    fill=st.floats(0.2, 0.8),
)
def test_win_cells_on_rectangles_see_every_line(shape, seed, fill):
    """On boards of other shapes and line lengths (stones at random, finished lines too)."""
    h, w, k = shape
    rng = np.random.default_rng(seed)
    board = rng.choice(3, size=(h, w), p=[1 - fill, fill / 2, fill / 2]).astype(np.int8)
    marks = np.zeros(h * w, np.uint8)
    win_cells(board, k, marks)
    for r in range(h):
        for c in range(w):
            want = 0
            if board[r, c] == 0:
                want = completes(board, r, c, 1, k) + 2 * completes(board, r, c, 2, k)
            assert marks[r * w + c] == want, (r, c)


def reference_root(cells: list[int], to_play: int, actions: list[int], depth: int) -> list[int]:
    """The root moves ``root_threats`` keeps, in plain Python."""
    opponent = 3 - to_play
    mine = wins(cells, to_play)
    if mine:
        return [mine[0]] if mine[0] in actions else actions
    theirs = wins(cells, opponent)
    if len(theirs) >= 2:
        return actions
    winning = reference_forcing(list(cells), to_play, depth) & set(actions)
    if winning:
        return sorted(winning)  # root_threats keeps one of these
    safe = []
    for m in actions:
        if theirs and m != theirs[0]:
            continue
        cells[m] = to_play
        if len(wins(cells, to_play)) >= 2 or not reference_forcing(cells, opponent, depth):
            safe.append(m)
        cells[m] = 0
    return safe or actions


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), depth=st.integers(1, 3))
def test_root_threats_keep_what_the_reference_keeps(position, depth):
    cells, to_play = position
    empty = [e for e, v in enumerate(cells) if v == 0]
    expected = reference_root(list(cells), to_play, empty, depth)
    board = board_of(cells)
    actions = np.zeros(SIZE * SIZE, np.int64)
    actions[: len(empty)] = empty
    keep = np.arange(SIZE * SIZE, dtype=np.int64)
    budget = np.array([0, UNLIMITED, UNLIMITED], np.int64)
    m = root_threats(
        board, to_play, sum(v > 0 for v in cells), actions, keep, len(empty), depth, K,
        RULES.result_after, budget,
    )  # fmt: skip
    kept = [int(actions[keep[i]]) for i in range(m)]
    if len(expected) < len(empty) and wins(cells, to_play) == [] and m == 1 and len(expected) > 1:
        assert kept[0] in expected  # one of several forced wins
    else:
        assert kept == expected
    assert board.ravel().tolist() == cells


def test_root_threats_with_threes_drop_only_moves_that_lose():
    """With ``three_depth``, on random 7 x 7 positions: a forced win of the mover's with threes
    is its only move; else the moves kept are among those the fours alone keep, and every
    move dropped besides is one after which the reference finds the opponent a forced win
    (against every reply)."""
    rng = np.random.default_rng(2)
    depth = 2
    dropped_checked = 0
    for _ in range(120):
        cells, to_play = random_position(rng)
        if wins(cells, to_play) or wins(cells, 3 - to_play):
            continue
        empty = [e for e, v in enumerate(cells) if v == 0]
        stones = SIZE * SIZE - len(empty)
        kept = {}
        for three_depth in (0, depth):
            board = board_of(cells)
            actions = np.zeros(SIZE * SIZE, np.int64)
            actions[: len(empty)] = empty
            keep = np.arange(SIZE * SIZE, dtype=np.int64)
            m = root_threats(
                board, to_play, stones, actions, keep, len(empty), depth, K, RULES.result_after,
                np.array([0, UNLIMITED, UNLIMITED], np.int64), three_depth,
            )  # fmt: skip
            assert board.ravel().tolist() == cells
            kept[three_depth] = {int(actions[keep[i]]) for i in range(m)}
        if len(kept[0]) == 1:
            continue  # a forced win of the mover's by fours
        own = threat_space_win(
            board_of(cells), to_play, stones, depth, -1, K, RULES.result_after,
            np.array([UNLIMITED], np.int64),
        )  # fmt: skip
        if own >= 0:
            assert kept[depth] == {own}  # the mover's forced win with threes alone
            continue
        assert kept[depth] <= kept[0] and kept[depth]
        # the plain-Python reference takes about half a second a move: the first four dropped
        # moves of each position (positions 57 and 63 of this seed drop 25-29)
        for move in sorted(kept[0] - kept[depth])[:4]:
            work = list(cells)
            work[move] = to_play
            assert reference_wins_within(work, 3 - to_play, depth + 1)
            dropped_checked += 1
    assert dropped_checked >= 3


def gomoku_kernels(size: int = 9) -> GameKernels:
    return GameKernels.from_rules(gomoku_rules.make_rules(size))


def uniform_net(boards, to_play, legal):
    priors = legal / legal.sum(axis=1, keepdims=True)
    return priors.astype(np.float32), np.zeros(len(boards))


def test_the_search_plays_a_four_three_and_answers_one():
    """X to move on 9 x 9 makes a four and an open three at once (a win in three moves that
    the tree's decisive moves alone do not see at the root): with ``threat_depth`` every
    simulation goes to it. With O to move instead, O must stop it before it is made."""
    board = np.zeros((9, 9), np.int8)
    for r, c in ((4, 1), (4, 2), (4, 3), (2, 4), (3, 4)):
        board[r, c] = 1  # X at (4, 4): a four closed at (4, 0), an open three in column 4
    for r, c in ((4, 0), (0, 0), (8, 8), (0, 8), (8, 0)):
        board[r, c] = 2
    kernels = gomoku_kernels()
    cells = board.ravel().tolist()
    assert reference_forcing(list(cells), 1, 2) >= {4 * 9 + 4}
    assert not reference_forcing(list(cells), 1, 1)
    search = BatchedSearch(kernels, num_simulations=16, radius=2, tactics=True, threat_depth=2)
    visits = search.search(board[None], np.array([1]), uniform_net).visits[0]
    assert visits[4 * 9 + 4] == 16
    plain = BatchedSearch(kernels, num_simulations=16, radius=2, tactics=True)
    assert plain.search(board[None], np.array([1]), uniform_net).visits[0][4 * 9 + 4] < 16
    # O to move: every move that leaves X the four-three is dropped.
    visits = search.search(board[None], np.array([2]), uniform_net).visits[0]
    played = np.flatnonzero(visits)
    cells_o = list(cells)
    for move in played:
        cells_o[move] = 2
        assert not reference_forcing(cells_o, 1, 2)
        cells_o[move] = 0


def test_the_search_plays_a_double_three_with_three_depth_only():
    """The double three of ``test_threat_space_win_finds_a_double_three_that_the_fours_miss``
    at the root: with ``three_depth`` every simulation goes to it; with the fours alone the
    search spreads its simulations."""
    board = double_three_board()
    kernels = gomoku_kernels()
    settings = dict(num_simulations=16, radius=2, tactics=True, threat_depth=3)
    threes = BatchedSearch(kernels, three_depth=2, **settings)
    assert threes.search(board[None], np.array([1]), uniform_net).visits[0][4 * 9 + 5] == 16
    fours = BatchedSearch(kernels, **settings)
    assert fours.search(board[None], np.array([1]), uniform_net).visits[0][4 * 9 + 5] < 16


def test_threat_depth_is_refused_where_it_cannot_run(c4):
    with pytest.raises(ValueError, match="threat_depth 0, or threat_depth >= 1 for a placement"):
        BatchedSearch(c4, threat_depth=2)
    with pytest.raises(ValueError, match="threat_depth >= 1"):
        BatchedSearch(gomoku_kernels(), threat_depth=-1)
    with pytest.raises(ValueError, match="threat_budget >= 1"):
        BatchedSearch(gomoku_kernels(), threat_depth=1, threat_budget=0)
    with pytest.raises(ValueError, match="three_depth >= 1 with threat_depth >= 1"):
        BatchedSearch(gomoku_kernels(), three_depth=2)
    with pytest.raises(ValueError, match="three_budget >= 1"):
        BatchedSearch(gomoku_kernels(), threat_depth=1, three_depth=1, three_budget=0)
    search = BatchedSearch(gomoku_kernels(), threat_depth=1)
    with pytest.raises(ValueError, match="without a Python evaluator"):
        search.search(np.zeros((1, 9, 9), np.int8), np.array([1]))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_window_stones_counts_each_players_stones_of_a_window(data):
    """The window count that the line evaluator and the line-feature planes share, against a
    count over the window's cells listed in plain Python."""
    h, w = data.draw(st.integers(1, 9)), data.draw(st.integers(1, 9))
    cells = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=h * w, max_size=h * w))
    board = np.array(cells, np.int8).reshape(h, w)
    dr, dc = data.draw(st.sampled_from([(0, 1), (1, 0), (1, 1), (1, -1)]))
    k = data.draw(st.integers(1, max(1, min(h if dr else 9, w if dc else 9))))
    r0 = data.draw(st.integers(0, h - 1 - (k - 1) * dr))
    c0 = data.draw(st.integers(max(0, -(k - 1) * dc), w - 1 - max(0, (k - 1) * dc)))
    window = [cells[(r0 + i * dr) * w + c0 + i * dc] for i in range(k)]
    assert window_stones(board, r0, c0, dr, dc, k) == (window.count(1), window.count(2))
