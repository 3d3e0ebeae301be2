"""LightZero's bot classes under their module paths: ``AlphaBetaPruningBot`` and
``Connect4RuleBot``, checked against plain-Python minimax and full-board rescans, and the env
classes LightZero imports from the envs packages."""

from __future__ import annotations

import functools
import random
from types import SimpleNamespace

import numpy as np
import pytest
from board_reference import ONGOING, RefGame, connect4, gomoku, longest_run

from zoo.board_games.alphabeta_pruning_bot import AlphaBetaPruningBot
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.connect4.envs.rule_bot import Connect4RuleBot
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv
from zoo.board_games.tictactoe.envs.tictactoe_rules import RULES as TICTACTOE


def move_value(cells: tuple, player: int, i: int, game: tuple = (3, 3, 3)) -> int:
    """Plain minimax value (+1, 0, -1) for ``player`` of a stone on the empty cell ``i`` of the
    flat ``cells`` of a ``(height, width, k)`` placement game (TicTacToe by default), judged
    by whole-board rescans."""
    h, w, k = game
    child = list(cells)
    child[i] = player
    ref = RefGame(h, w, k, False)
    ref.board = [child[r * w : (r + 1) * w] for r in range(h)]
    result = ref.result()
    if result != ONGOING:
        return 1 if result == player else 0  # a win, or a draw on a full board
    return -minimax(tuple(child), 3 - player, game)


@functools.cache
def minimax(cells: tuple, player: int, game: tuple = (3, 3, 3)) -> int:
    """Plain minimax value (+1, 0, -1) of a running position for ``player`` to move."""
    return max(move_value(cells, player, i, game) for i, v in enumerate(cells) if v == 0)


def random_positions(game_factory, n: int, seed: int):
    """``(board, player)`` of ``n`` running positions from seeded random games."""
    rng, out = random.Random(seed), []
    while len(out) < n:
        game, player = game_factory(), 1
        for _ in range(rng.randrange(0, game.h * game.w)):
            game.play(rng.choice(game.legal()), player)
            if game.result() != ONGOING:
                break
            player = 3 - player
        if game.result() == ONGOING:
            out.append((np.array(game.board, np.int8), player))
    return out


@pytest.mark.parametrize("source", ["env class", "rules only"])
def test_alpha_beta_bot_plays_a_minimax_best_move(source):
    # The env class answers from its exact scores; an object with rules alone runs the
    # generic negamax over the kernels. Both must reach the best minimax value.
    if source == "env class":
        bot = AlphaBetaPruningBot(TicTacToeEnv, dict(battle_mode="self_play_mode"), "player 1")
    else:
        bot = AlphaBetaPruningBot(SimpleNamespace(rules=TICTACTOE), None, "player 1")
    for board, player in random_positions(lambda: RefGame(3, 3, 3, False), 60, seed=1):
        action = bot.get_best_action(board.reshape(-1).tolist(), player_index=player - 1)
        cells = tuple(board.reshape(-1).tolist())
        assert cells[action] == 0
        assert move_value(cells, player, action) == minimax(cells, player), (board, player)


def test_alpha_beta_bot_depth_limited_and_on_gomoku():
    board = np.zeros((6, 6), np.int8)
    board[0, :4] = 1
    board[1, :4] = 2
    bot = AlphaBetaPruningBot(GomokuEnv({"board_size": 6}), None)
    assert bot.get_best_action(board, 0, depth=1) == 4  # five in a row at (0, 4)
    assert bot.get_best_action(board, 1, depth=1) == 10  # player 2 wins at (1, 4) first
    board[1, 3], board[5, 5] = 0, 2
    assert bot.get_best_action(board, 1, depth=2) == 4  # now player 2 must block (0, 4)
    # A nearly full board is searched to the end: the move has the best value that plain
    # minimax over the reference rules finds.
    rng = random.Random(3)
    for _ in range(4):
        ref, player = gomoku(6), 1
        while len(ref.legal()) > 7:
            ref.play(rng.choice(ref.legal()), player)
            if ref.result() != ONGOING:
                ref, player = gomoku(6), 1
                continue
            player = 3 - player
        action = bot.get_best_action(np.array(ref.board), player - 1)
        cells, game = tuple(v for row in ref.board for v in row), (6, 6, 5)
        assert cells[action] == 0
        assert move_value(cells, player, action, game) == minimax(cells, player, game), ref.board


def test_alpha_beta_bot_rejects_bad_arguments():
    board = np.zeros((6, 6), np.int8)
    bot = AlphaBetaPruningBot(GomokuEnv({"board_size": 6}), None)
    with pytest.raises(ValueError, match="depth: expected an int >= 1, got 0"):
        bot.get_best_action(board, 0, depth=0)
    with pytest.raises(ValueError, match="expected player_index 0 or 1, got 2"):
        bot.get_best_action(board, 2)
    with pytest.raises(TypeError, match="expected a board-game env or its class, got int"):
        AlphaBetaPruningBot(3)


def two_step_win(board: list, player: int) -> bool:
    """``player`` to move wins with a stone that leaves the opponent no immediate win and two
    winning columns, by rescanning whole boards."""
    for col in (c for c in range(7) if board[0][c] == 0):
        mine = drop(np.array(board), col, player)
        replies = [c for c in range(7) if mine.board[0][c] == 0]
        if any(3 - player in drop(np.array(mine.board), c, 3 - player).winners() for c in replies):
            continue
        if sum(player in drop(np.array(mine.board), c, player).winners() for c in replies) >= 2:
            return True
    return False


def drop(board: np.ndarray, col: int, piece: int) -> RefGame | None:
    game = connect4()
    game.board = board.tolist()
    if game.board[0][col] != 0:
        return None
    game.play(col, piece)
    return game


def test_connect4_rule_bot_predicates_match_a_full_board_rescan():
    bot = Connect4RuleBot(Connect4Env(), 1)
    checked = 0
    for board, player in random_positions(connect4, 150, seed=7):
        bot.board, bot.current_player = board.astype(float), player  # LightZero sets floats
        for col in range(7):
            mine, theirs = drop(board, col, player), drop(board, col, 3 - player)
            if mine is None:
                assert not bot.is_winning_move(col) and not bot.is_blocking_move(col)
                continue
            assert bot.is_winning_move(col) == (player in mine.winners())
            assert bot.is_blocking_move(col) == ((3 - player) in theirs.winners())
            row = max(r for r in range(6) if board[r, col] == 0)
            run = longest_run(mine.board, row, col, player)
            assert bot.is_sequence_2_move(col) == (run >= 2)
            assert bot.is_sequence_3_move(col) == (run >= 3)
            if player in mine.winners():
                continue  # a win now, not in two steps
            # in two steps: the opponent cannot win at once, and two columns then win for us
            replies = [c for c in range(7) if mine.board[0][c] == 0]
            opp_wins = any(
                (3 - player) in drop(np.array(mine.board), c, 3 - player).winners() for c in replies
            )
            ours = sum(player in drop(np.array(mine.board), c, player).winners() for c in replies)
            assert bot.is_winning_move_in_two_steps(col) == (not opp_wins and ours >= 2)
            checked += 1
    assert checked > 500


def test_connect4_rule_bot_sequences_and_move():
    board = np.zeros((6, 7), np.int8)
    board[5, 4] = board[5, 5] = 1
    bot = Connect4RuleBot(Connect4Env(), 1)
    bot.board = board
    assert bot.is_sequence_3_move(3) and bot.is_sequence_3_move(6)
    assert bot.is_sequence_2_move(0) is False and bot.is_sequence_2_move(4)  # (4, 4) on top
    board[5, 0:3] = 2
    action = bot.get_rule_bot_action(board, 1)
    assert action == 3  # block the three in the bottom row
    assert bot.get_rule_bot_action(board.reshape(-1), 2) == 3  # and win there as player 2
    before = bot.board.copy()
    bot.legal_actions = [0, 1, 2, 3, 4, 5, 6]
    bot.remove_actions()
    assert (bot.board == before).all() and bot.current_player == 2
    with pytest.raises(ValueError, match="player: expected 1 or 2, got 0"):
        bot.get_rule_bot_action(board, 0)
    with pytest.raises(ValueError, match=r"board: expected 6x7 cells, got shape \(3, 3\)"):
        bot.get_rule_bot_action(np.zeros((3, 3)), 1)


def test_remove_actions_drops_columns_that_give_the_opponent_a_win():
    board = np.zeros((6, 7), np.int8)
    board[5, [0, 3, 4]] = 1
    board[5, 5] = board[4, 3] = board[4, 4] = board[4, 5] = 2
    bot = Connect4RuleBot(Connect4Env(), 1)
    bot.board = board
    bot.legal_actions = list(range(7))
    bot.remove_actions()
    expected = []
    for col in range(7):
        after = drop(board, col, 1).board
        replies = [c for c in range(7) if after[0][c] == 0]
        loses = any(2 in drop(np.array(after), c, 2).winners() for c in replies)
        if not loses and not two_step_win(after, 2):
            expected.append(col)
    assert bot.legal_actions == expected and 2 not in expected and 6 not in expected


def test_lightzero_env_classes_come_from_their_envs_packages():
    from zoo.box2d.lunarlander.envs import LunarLanderEnv
    from zoo.box2d.lunarlander.envs.lunarlander_env import LunarLanderEnv as module_class
    from zoo.classic_control.mountain_car.envs import MountainCarEnv
    from zoo.classic_control.mountain_car.envs.mtcar_lightzero_env import MountainCarEnv as mc

    assert LunarLanderEnv is module_class and MountainCarEnv is mc
    env = MountainCarEnv({})
    env.seed(314, dynamic_seed=False)
    env.reset()
    assert env.step(env.random_action()).reward.shape == (1,)
    env.close()


def test_alpha_beta_bot_answers_connect4_from_the_solver():
    """A full-depth query on a Connect4 board with 26 empty cells is answered by the exact
    solver (the env's perfect_moves; a plain negamax would not finish): an optimal column."""
    pytest.importorskip("bitbully_databases")
    from zoo.board_games.connect4.envs.connect4_solver import analyze

    moves = "4444445523335533"  # 16 stones, player 1 to move
    board = np.zeros((6, 7), np.int8)
    for i, ch in enumerate(moves):
        col = int(ch) - 1
        board[int(np.flatnonzero(board[:, col] == 0)[-1]), col] = 1 + i % 2
    scores = analyze(moves)
    action = AlphaBetaPruningBot(Connect4Env, None).get_best_action(board, 0)
    assert scores[action] == max(s for s in scores if s is not None)
