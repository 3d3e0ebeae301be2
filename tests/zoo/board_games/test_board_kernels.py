"""The three rules kernels against the plain-Python reference: 10,000 random games each,
hypothesis over random legal move sequences, tables of known positions; plus a compile check
(the jitted ``result_after`` equals its own ``py_func``, which is not a reference)."""

from __future__ import annotations

import numpy as np
import pytest
from board_reference import DRAW, ONGOING, RefGame, connect4, gomoku, longest_run, tictactoe
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from lzero.utils.nbrng import make_rng_state, randbelow
from zoo.board_games.common.rules import BoardRules
from zoo.board_games.connect4.envs import connect4_rules
from zoo.board_games.gomoku.envs import gomoku_rules
from zoo.board_games.tictactoe.envs import tictactoe_rules

GAMES = {
    "tictactoe": (tictactoe_rules.RULES, tictactoe),
    "connect4": (connect4_rules.RULES, connect4),
    "gomoku": (gomoku_rules.RULES, gomoku),
}


@njit
def _random_games(legal_actions, apply_action, result_after, h, w, a, n_games, rng):
    """Plays ``n_games`` uniformly random games through the kernel, recording every step."""
    moves = np.full((n_games, h * w), -1, np.int64)
    cells = np.full((n_games, h * w), -1, np.int64)
    nlegal = np.zeros((n_games, h * w), np.int64)
    results = np.zeros((n_games, h * w), np.int64)
    lengths = np.zeros(n_games, np.int64)
    boards = np.zeros((n_games, h, w), np.int8)
    out = np.empty(a, np.int64)
    for g in range(n_games):
        board = np.zeros((h, w), np.int8)
        player = 1
        for t in range(h * w):
            n = legal_actions(board, player, out)
            nlegal[g, t] = n
            action = out[randbelow(rng, n)]
            moves[g, t] = action
            cell = apply_action(board, action, player)
            cells[g, t] = cell
            r = result_after(board, cell, player, t + 1)
            results[g, t] = r
            if r != ONGOING:
                lengths[g] = t + 1
                break
            player = 3 - player
        boards[g] = board
    return moves, cells, nlegal, results, lengths, boards


def _ref_from_board(board: np.ndarray, rules: BoardRules) -> RefGame:
    ref = RefGame(rules.height, rules.width, rules.win_length, rules.gravity)
    ref.board = board.tolist()
    ref.moves = int(np.count_nonzero(board))
    return ref


@pytest.mark.parametrize("name", list(GAMES))
def test_10000_random_games_match_reference(name):
    rules, make_ref = GAMES[name]
    n_games = 10_000
    rec = _random_games(
        rules.legal_actions,
        rules.apply_action,
        rules.result_after,
        rules.height,
        rules.width,
        rules.action_size,
        n_games,
        make_rng_state(1234),
    )
    moves, cells, nlegal, results, lengths, boards = rec
    h, w = rules.height, rules.width
    assert (lengths >= 2 * rules.win_length - 1).all()  # nobody wins before their k-th stone
    finals = results[np.arange(n_games), lengths - 1]
    for g in range(n_games):
        n = lengths[g]
        assert (results[g, : n - 1] == ONGOING).all()
        if rules.gravity:  # replay move by move: the reference finds the landing cells itself
            ref = make_ref()
            for t in range(n):
                legal = ref.legal()
                assert nlegal[g, t] == len(legal) and moves[g, t] in legal
                assert ref.play(int(moves[g, t]), 1 + t % 2) == cells[g, t]
            assert ref.board == boards[g].tolist()
        else:  # placing games: moves are distinct cells and the legal count is the empty count
            assert (cells[g, :n] == moves[g, :n]).all()
            assert len(set(moves[g, :n].tolist())) == n
            assert (nlegal[g, :n] == h * w - np.arange(n)).all()
            expect = np.zeros(h * w, np.int8)
            expect[moves[g, 0:n:2]] = 1
            expect[moves[g, 1:n:2]] = 2
            assert (boards[g].ravel() == expect).all()
        # Stones are never removed, so "no winner before the last move" covers every earlier step.
        last = boards[g].copy()
        last.flat[cells[g, n - 1]] = 0
        assert _ref_from_board(last, rules).result() == ONGOING
        assert _ref_from_board(boards[g], rules).result() == finals[g]
    # The sample is not degenerate: both players win some games.
    assert (finals == 1).any() and (finals == 2).any()
    if name != "gomoku":
        assert (finals == DRAW).any()


def _check_sequence(rules: BoardRules, ref: RefGame, choices) -> None:
    """Plays reference and kernel side by side, comparing everything at every step (and, as a
    compile check only, the jitted ``result_after`` with its ``py_func``)."""
    board = np.zeros((rules.height, rules.width), np.int8)
    out = np.empty(rules.action_size, np.int64)
    mask = np.empty(rules.action_size, np.int8)
    player = 1
    for t in range(rules.height * rules.width):
        legal = ref.legal()
        n = rules.legal_actions(board, player, out)
        assert out[:n].tolist() == legal
        rules.legal_mask(board, player, mask)
        assert np.flatnonzero(mask).tolist() == legal and set(mask.tolist()) <= {0, 1}
        action = legal[choices(len(legal))]
        cell = rules.apply_action(board, action, player)
        assert cell == ref.play(action, player)
        assert board.tolist() == ref.board
        assert np.count_nonzero(board) == t + 1 == ref.moves
        r = rules.result_after(board, cell, player, t + 1)
        assert r == ref.result()
        assert r == rules.result_after.py_func(board, cell, player, t + 1)  # compile check
        if r != ONGOING:
            assert r in (player, DRAW)
            return
        player = 3 - player
    raise AssertionError("the board filled up without a result")


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_hypothesis_sequences_match_reference(name, data):
    rules, make_ref = GAMES[name]
    _check_sequence(rules, make_ref(), lambda n: data.draw(st.integers(0, n - 1)))


@settings(max_examples=40, deadline=None)
@given(size=st.integers(5, 19), seed=st.integers(0, 2**32))
def test_hypothesis_gomoku_any_size(size, seed):
    rng = np.random.default_rng(seed)
    rules = gomoku_rules.make_rules(size)
    assert (rules.height, rules.width, rules.action_size) == (size, size, size * size)
    _check_sequence(rules, gomoku(size), lambda n: int(rng.integers(n)))


@settings(max_examples=200, deadline=None)
@given(size=st.integers(5, 7), data=st.data())
def test_hypothesis_gomoku_result_on_arbitrary_positions(size, data):
    """Result of the last stone on arbitrary (possibly unreachable) boards vs a line rescan."""
    cells = data.draw(
        st.lists(st.integers(0, size * size - 1), min_size=1, max_size=size * size, unique=True)
    )
    board = np.zeros((size, size), np.int8)
    board.flat[cells[0::2]] = 1
    board.flat[cells[1::2]] = 2
    last, player = cells[-1], 1 if len(cells) % 2 else 2
    # Reference: does the last stone lie on a line of >= 5 of its colour? Rescan with the
    # other colour removed, and compare the board with and without the last stone.
    mine = np.where(board == player, player, 0).astype(np.int8)
    with_it = player in _ref_from_board(mine, gomoku_rules.make_rules(size)).winners()
    mine.flat[last] = 0
    without = player in _ref_from_board(mine, gomoku_rules.make_rules(size)).winners()
    if with_it and without:  # a line was there before: walk out from the last stone instead
        with_it = longest_run(board, *divmod(last, size), player) >= 5
    r = gomoku_rules.result_after(board, last, player, len(cells))
    if with_it:
        assert r == player
    else:
        assert r == (DRAW if len(cells) == size * size else ONGOING)


def test_known_positions():
    # Connect4: stones stack from the bottom; a full column is no longer legal.
    board = np.zeros((6, 7), np.int8)
    assert [connect4_rules.apply_action(board, 3, 1 + i % 2) for i in range(6)] == [
        38,
        31,
        24,
        17,
        10,
        3,
    ]
    out = np.empty(7, np.int64)
    assert out[: connect4_rules.legal_actions(board, 1, out)].tolist() == [0, 1, 2, 4, 5, 6]
    # Connect4 diagonal win.
    board = np.zeros((6, 7), np.int8)
    board[5, 0] = board[4, 1] = board[3, 2] = 1
    board[5, 1:4] = 2
    board[4, 2:4] = 2
    board[3, 3] = 2
    cell = connect4_rules.apply_action(board, 3, 1)
    assert cell == 2 * 7 + 3 and connect4_rules.result_after(board, cell, 1, 10) == 1
    # TicTacToe: a full board without a line is a draw; the anti-diagonal wins.
    board = np.array([[1, 2, 1], [1, 2, 2], [2, 1, 1]], np.int8)
    assert tictactoe_rules.result_after(board, 8, 1, 9) == DRAW
    board = np.array([[0, 0, 2], [1, 2, 0], [2, 1, 1]], np.int8)
    assert tictactoe_rules.result_after(board, 6, 2, 7) == 2
    # Gomoku freestyle: an overline (six) wins; four does not.
    board = np.zeros((15, 15), np.int8)
    board[7, [2, 3, 4, 6, 7]] = 1
    assert gomoku_rules.result_after(board, 7 * 15 + 7, 1, 5) == ONGOING
    board[7, 5] = 1
    assert gomoku_rules.result_after(board, 7 * 15 + 5, 1, 6) == 1


@pytest.mark.parametrize("bad", [4, 20, 0, -1, 15.0, "15", True, None])
def test_gomoku_make_rules_rejects_bad_sizes(bad):
    with pytest.raises(ValueError, match=r"expected board_size an int in \[5, 19\], got"):
        gomoku_rules.make_rules(bad)


def test_make_rules_accepts_numpy_int():
    assert gomoku_rules.make_rules(np.int64(9)).action_size == 81
    assert gomoku_rules.RULES.action_size == 225


def test_rules_records():
    for name, (rules, _) in GAMES.items():
        assert rules.name == name
        assert isinstance(rules, BoardRules)
    assert connect4_rules.RULES.action_size == 7 and connect4_rules.RULES.gravity
    assert tictactoe_rules.RULES.action_size == 9 and tictactoe_rules.RULES.win_length == 3


@njit
def _own_apply(board, action, player):
    return connect4_rules.apply_action(board, action, player)


@njit
def _own_mask(board, player, out):
    connect4_rules.legal_mask(board, player, out)


@pytest.mark.parametrize("own_kernels", [False, True])
def test_fused_step_kernels_equal_the_rules_functions(own_kernels):
    """The env's fused kernels (Connect4's cached set, or closures over a game's own
    functions) give the same cells, results, masks and planes as the contract functions, and
    write their outputs (planes, board and mask copies, reward) apart from the state, into an
    output set's buffer (read through its views) or into four arrays."""
    from lzero.envs.board_step import episode_streams
    from zoo.board_games.env_outputs import OutputSets
    from zoo.board_games.fused import _connect4_play, step_kernels

    rules = connect4_rules.RULES
    if own_kernels:
        rules = rules._replace(apply_action=_own_apply, legal_mask=_own_mask)
    play, step, step_into, reset = step_kernels(rules)
    assert (play is _connect4_play) != own_kernels
    consts = (0.5, False)
    rng = np.random.default_rng(0)
    for game in range(50):
        board, fused_board = np.zeros((6, 7), np.int8), rng.integers(0, 3, (6, 7), dtype=np.int8)
        mask = np.zeros(7, np.int8)
        # The buffer the kernels write and the env's views of its parts.
        out, *views = OutputSets((3, 6, 7), (6, 7), (7,)).sets[0]
        obs, board_out, mask_out, _ = views
        seed_state, streams = np.array([game], np.uint64), np.zeros(2, np.uint64)
        expect_seed, expect_streams = seed_state.copy(), np.zeros(2, np.uint64)
        episode_streams(expect_seed, True, 0, expect_streams)
        reset(fused_board, mask, True, 1, consts, seed_state, True, 0, streams, out)
        assert not fused_board.any() and not board_out.any() and (mask == 1).all()
        assert (mask_out == 1).all() and not obs[:2].any() and (obs[2] == 0.5).all()
        assert np.array_equal(streams, expect_streams) and seed_state == expect_seed
        player = 1
        for t in range(42):
            action = int(rng.choice(np.flatnonzero(mask)))
            cell = rules.apply_action(board, action, player)
            result = rules.result_after(board, cell, player, t + 1)
            fill = (3 - player) / 2
            taken = int(np.flatnonzero(mask == 0)[0]) if not mask.all() else -1
            # Every other move into four new arrays (step_into), as the env does while the
            # caller holds its buffers; else into the buffer, read through its views.
            into = t % 2 == 1
            new = np.full((3, 6, 7), -3, np.float32), np.full((6, 7), -3, np.int8)
            new += np.full(7, -3, np.int8), np.full(1, -3, np.float32)
            kernel, args = (step_into, new) if into else (step, (out,))
            obs, board_out, mask_out, reward = new if into else views
            # "Nothing changes" is compared byte for byte: the output buffer is np.empty, and
            # its unwritten padding (or the int8 parts read as float32) can hold NaN bit
            # patterns, which never equal themselves under np.array_equal.
            before = [x.tobytes() for x in (fused_board, mask, *args)]
            for illegal in (taken, 7):  # a full column (or -1), out of range: nothing changes
                assert kernel(fused_board, mask, illegal, player, t, consts, *args) == -1
                assert before == [x.tobytes() for x in (fused_board, mask, *args)]
            code = kernel(fused_board, mask, action, player, t, consts, *args)
            assert code == cell * 4 + result and np.array_equal(board, fused_board)
            rules.legal_mask(board, 3 - player, expect_mask := np.empty(7, np.int8))
            assert np.array_equal(mask, expect_mask if result == ONGOING else 0 * expect_mask)
            assert np.array_equal(mask_out, mask) and np.array_equal(board_out, board)
            assert np.array_equal(obs[0], 0.5 * (board == 3 - player))
            assert np.array_equal(obs[1], 0.5 * (board == player)) and (obs[2] == fill).all()
            assert reward[0] == (1.0 if result == player else 0.0)
            board_out[:] = 9  # the outputs are copies: writing them leaves the state alone
            mask_out[:] = 9
            assert np.array_equal(board, fused_board) and (mask <= 1).all()
            if result != ONGOING:
                break
            player = 3 - player
