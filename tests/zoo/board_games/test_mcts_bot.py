"""``MCTSBot`` on the three board games: strength against reference bots (fixed seeds), solved
TicTacToe positions, root tactics at one simulation, the LightZero API and the env hook."""

from __future__ import annotations

import numpy as np
import pytest

from lzero.mcts.batched_search import BatchedSearch
from lzero.mcts.python_uct import PythonUCT
from lzero.utils.nbrng import make_rng_state, randbelow
from zoo.board_games.common import line_eval
from zoo.board_games.connect4.envs.connect4_bot import rule_bot_action as connect4_rule_bot
from zoo.board_games.connect4.envs.connect4_rules import RULES as CONNECT4
from zoo.board_games.gomoku.envs.gomoku_bot import rule_bot_action as gomoku_rule_bot
from zoo.board_games.gomoku.envs.gomoku_rules import RULES as GOMOKU
from zoo.board_games.mcts_bot import MCTSBot, kernels_of
from zoo.board_games.tictactoe.envs.alpha_beta_bot import alpha_beta_action, alpha_beta_values
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv
from zoo.board_games.tictactoe.envs.tictactoe_rules import RULES as TICTACTOE


def play(rules, first, second, opening=0, seed=0) -> int:
    """Plays ``first`` (player 1) against ``second``, after ``opening`` random moves (seeded
    by ``seed``, alternating from player 1) in the central 5 x 5; returns the result code."""
    board = np.zeros((rules.height, rules.width), np.int8)
    players, player, moves = {1: first, 2: second}, 1, 0
    rng = np.random.default_rng(seed)
    while moves < opening:
        row, col = rng.integers(rules.height // 2 - 2, rules.height // 2 + 3, size=2)
        if board[row, col] == 0:
            board[row, col], moves, player = player, moves + 1, 3 - player
    while True:
        cell = rules.apply_action(board, players[player](board.copy(), player), player)
        moves += 1
        result = rules.result_after(board, cell, player, moves)
        if result:
            return result
        player = 3 - player


def mcts_player(rules, seed, sims=2000):
    bot = MCTSBot(rules, num_simulations=sims, seed=seed)
    return lambda board, player: bot.get_actions(board, player - 1)


def rule_player(bot, seed):
    state = make_rng_state(seed)
    return lambda board, player: int(bot(board, player, state))


def random_player(rules, seed):
    state, out = make_rng_state(seed), np.zeros(rules.action_size, np.int64)
    return lambda board, player: int(out[randbelow(state, rules.legal_actions(board, player, out))])


def perfect_player(seed):
    rng = np.random.default_rng(seed)
    return lambda board, player: alpha_beta_action(board, player, rng)


def mcts_results(rules, opponent, n_games, opening=0):
    """Results of MCTS (2,000 simulations) against ``opponent(seed)``, alternating colours;
    with ``opening``, each pair of games (one per colour) starts from its own random stones."""
    counts = {"win": 0, "draw": 0, "loss": 0}
    for game in range(n_games):
        me, other = mcts_player(rules, seed=game), opponent(1000 + game)
        mcts_first = game % 2 == 0
        players = (me, other) if mcts_first else (other, me)
        result = play(rules, *players, opening=opening, seed=game // 2)
        mine = 1 if mcts_first else 2
        counts["draw" if result == 3 else ("win" if result == mine else "loss")] += 1
    return counts


def test_tictactoe_mcts_never_loses_to_the_perfect_bot():
    counts = mcts_results(TICTACTOE, perfect_player, 100)
    assert counts["loss"] == 0, counts


def test_connect4_mcts_beats_the_rule_bot_and_random():
    against_rule = mcts_results(CONNECT4, lambda s: rule_player(connect4_rule_bot, s), 100)
    assert against_rule["win"] >= 90, against_rule
    against_random = mcts_results(CONNECT4, lambda s: random_player(CONNECT4, s), 100)
    assert against_random["win"] >= 99, against_random


def test_gomoku_mcts_beats_random_every_game():
    counts = mcts_results(GOMOKU, lambda s: random_player(GOMOKU, s), 20)
    assert counts["win"] == 20, counts


def test_gomoku_mcts_beats_the_threat_bot_from_varied_openings():
    """A regression guard on strength, not a measure of it: with line priors and values (the
    default; UCB1 with random rollouts lost 20 of 20) MCTS beats the threat bot. Both bots are
    deterministic given their seeds, so from the empty board the games repeat; each pair of
    games (one per colour) starts instead from 2 random stones of its own in the centre."""
    counts = mcts_results(GOMOKU, lambda s: rule_player(gomoku_rule_bot, s), 20, opening=2)
    assert counts["win"] >= 18, counts


def test_gomoku_blocks_an_open_three_and_the_same_seed_gives_the_same_moves():
    # O's open three on row 7 (cols 6-8), X to move without a threat of its own: X must
    # block at an end, or O's next stone makes an open four (in the window score, the block
    # at either end or the far cells of the three's windows).
    board = np.zeros((15, 15), np.int8)
    board[7, 6:9] = 2
    board[[6, 8, 9], [3, 3, 12]] = 1
    blocks = {7 * 15 + 5, 7 * 15 + 9, 7 * 15 + 4, 7 * 15 + 10}
    moves = [MCTSBot(GOMOKU, num_simulations=2000, seed=s).get_actions(board, 0) for s in (0, 1)]
    assert set(moves) <= blocks, moves
    assert MCTSBot(GOMOKU, num_simulations=2000, seed=0).get_actions(board, 0) == moves[0]
    rollout = MCTSBot(GOMOKU, num_simulations=2000, seed=0, evaluator="rollout")
    assert rollout._search.rule == 0 and rollout._search.kernels.priors is None  # plain UCT


def _unfinished(board, player) -> bool:
    try:
        alpha_beta_values(board, player)
    except ValueError:
        return False
    return True


def _tictactoe_positions(rng, n):
    """``n`` distinct unfinished positions reached by random play, with the player to move."""
    found = {}
    while len(found) < n:
        board, player = np.zeros((3, 3), np.int8), 1
        for _ in range(int(rng.integers(0, 8))):
            trial = board.copy()
            trial.reshape(-1)[rng.choice(np.flatnonzero(trial == 0))] = player
            if not _unfinished(trial, 3 - player):
                break
            board, player = trial, 3 - player
        found[board.tobytes() + bytes([player])] = (board, player)
    return list(found.values())


def test_solved_tictactoe_positions_keep_their_game_value():
    """From won positions MCTS keeps the win, from drawn ones the draw (win, draw, loss)."""
    rng = np.random.default_rng(0)
    for board, player in _tictactoe_positions(rng, 60):
        values = alpha_beta_values(board, player)
        move = MCTSBot(TICTACTOE, num_simulations=2000, seed=1).get_actions(board, player - 1)
        assert np.sign(values[move]) == np.sign(values.max()), (board, player, values, move)


def test_a_value_network_plugs_into_the_same_search():
    """AlphaZero-style: PUCT with a perfect value function (alpha-beta) and uniform priors,
    as a batched Python evaluator, on 40 positions at once."""

    def evaluator(boards, to_play, legal):
        values = [np.sign(alpha_beta_values(b, int(p)).max()) for b, p in zip(boards, to_play)]
        return np.ones(legal.shape, np.float32), np.array(values, np.float64)

    positions = _tictactoe_positions(np.random.default_rng(1), 40)
    boards, players = np.stack([p[0] for p in positions]), np.array([p[1] for p in positions])
    search = BatchedSearch(kernels_of(TICTACTOE), num_simulations=100, selection="puct")
    result = search.search(boards, players, evaluator)
    for board, player, visits in zip(boards, players, result.visits):
        values = alpha_beta_values(board, int(player))
        move = int(visits.argmax())
        assert np.sign(values[move]) == np.sign(values.max()), (board, player, values, move)


def test_a_forced_win_backs_up_a_winning_value():
    # X to move has no immediate win but forks with 3 or 6; O's 8 blocks the diagonal.
    board = np.array([[1, 2, 0], [0, 1, 0], [0, 0, 2]], np.int8)
    values = alpha_beta_values(board, 1)
    assert values.max() > 0 and values.max() < 10 - 6  # a win, but not with the next stone
    result = MCTSBot(TICTACTOE, num_simulations=2000, seed=0).search(board, 0)
    best = int(np.argmax(result.action_visits))
    assert values[best] > 0 and result.root_value > 0.5 and result.action_values[best] > 0.5


def _gomoku_rows(stones_x, stones_o):
    rows = [["."] * 15 for _ in range(15)]
    for (r, c), mark in [(s, "x") for s in stones_x] + [(s, "o") for s in stones_o]:
        rows[r][c] = mark
    return ["".join(row) for row in rows]


POSITIONS = [
    # (rules, rows, player to move, the moves that win now or block the opponent's win)
    (TICTACTOE, ["xx.", "oo.", "..."], 1, {2}),
    (TICTACTOE, ["x..", "oo.", "x.."], 1, {5}),
    (CONNECT4, [".......", ".......", ".......", "x......", "x......", "xooo..."], 2, {4}),
    (CONNECT4, [".......", ".......", ".......", ".......", ".......", "xxx.oo."], 2, {3}),
    (
        GOMOKU,  # an open four for X: either end wins
        _gomoku_rows([(7, 3), (7, 4), (7, 5), (7, 6)], [(0, 0), (1, 1), (2, 2)]),
        1,
        {7 * 15 + 2, 7 * 15 + 7},
    ),
    (
        GOMOKU,  # X's diagonal four, closed at (2, 2): O must take (7, 7)
        _gomoku_rows([(3, 3), (4, 4), (5, 5), (6, 6)], [(2, 2), (0, 9), (1, 9)]),
        2,
        {7 * 15 + 7},
    ),
]


@pytest.mark.parametrize(("rules", "rows", "player", "expected"), POSITIONS)
def test_one_simulation_takes_the_win_or_blocks_the_loss(rules, rows, player, expected):
    board = np.array([[".xo".index(ch) for ch in row] for row in rows], np.int8)
    for seed in range(3):
        bot = MCTSBot(rules, num_simulations=1, seed=seed)
        assert bot.get_actions(board, player - 1) in expected


@pytest.mark.parametrize(
    ("rules", "radius", "evaluator"),
    [(TICTACTOE, 0, "lines"), (CONNECT4, 0, "lines"), (GOMOKU, 2, "lines"), (GOMOKU, 2, "rollout")],
)
def test_the_bound_loop_runs_the_same_search_as_the_generic_one(rules, radius, evaluator):
    kernels = kernels_of(rules, evaluator=evaluator)
    assert kernels.simulations is not None
    assert (kernels.priors is not None) == (rules is GOMOKU and evaluator == "lines")
    selection = "ucb1" if kernels.priors is None else "puct"
    board = np.zeros((rules.height, rules.width), np.int8)
    board.reshape(-1)[rules.action_size // 2] = 1
    kwargs = dict(seed=3, radius=radius, tree_tactics=radius > 0, tactics=True)
    visits = [
        BatchedSearch(k, num_simulations=300, selection=selection, pb_c_init=2.0, **kwargs)
        .search(board[None], np.array([2]))
        .visits[0]
        for k in (kernels, kernels._replace(simulations=None))
    ]
    assert visits[0].tolist() == visits[1].tolist()


def test_the_gomoku_bot_searches_as_a_plain_python_puct():
    """The bot's Gomoku configuration (PUCT over line priors, line-window leaf values, radius
    2, decisive moves) against the plain-Python search with the same numba evaluator."""
    board = np.zeros((15, 15), np.int8)
    board[7, 7], board[7, 8], board[8, 7] = 1, 2, 1
    bot = MCTSBot(GOMOKU, num_simulations=300, seed=5)
    reference = PythonUCT(
        kernels_of(GOMOKU), c_uct=2.0, radius=2, tree_tactics=True, seed=5, selection="puct",
        evaluate=line_eval.evaluate_five, priors=line_eval.priors_five,
    )  # fmt: skip
    visits = reference.search(board, 2, 300)
    assert bot.search(board, 1).action_visits.tolist() == visits.tolist()


def test_lightzero_api_and_reproducibility():
    env = TicTacToeEnv()
    bot = MCTSBot(env, "mcts_player", 300)
    board = np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]], np.int8)
    result = bot.search(board, 1)
    assert result.action_visits.sum() == 300 and result.action_visits[0] == 0
    moves = {MCTSBot(env, "mcts_player", 300, seed=5).get_actions(board, 1) for _ in range(3)}
    assert len(moves) == 1
    assert MCTSBot(env, "mcts_player", 300, seed=5).get_actions(board.reshape(-1), 1) in moves
    with pytest.raises(ValueError, match="expected player_index 0 or 1, got 2"):
        bot.get_actions(board, 2)
    with pytest.raises(TypeError, match="expected a board-game env or BoardRules, got int"):
        MCTSBot(3, "mcts_player", 10)
    with pytest.raises(ValueError, match=r"expected evaluator in \['lines', 'rollout'\], got 'nn'"):
        MCTSBot(env, "mcts_player", 10, evaluator="nn")


def test_lightzero_current_get_actions_form_returns_action_result_and_visits():
    # LightZero's current bot: get_actions(state, step, player_index, num_simulation=...,
    # best_action_type=...) -> (action, child node, its visits); its older form returns the move.
    env = TicTacToeEnv()
    board = np.array([[1, 1, 0], [2, 2, 0], [0, 0, 0]], np.int8)  # X to move wins at 2
    plain = MCTSBot(env, "a", 200, seed=3).get_actions(board, player_index=0)
    action, result, visits = MCTSBot(env, "a", 200, seed=3).get_actions(board, 4, 0)
    assert action == plain == 2
    assert visits == result.action_visits[action] and result.num_simulations == 200
    action, result, _ = MCTSBot(env, "a", 200, seed=3).get_actions(
        board, step=4, player_index=0, num_simulation=37, best_action_type="most_visit"
    )
    assert result.num_simulations == 37 and action == 2
    assert MCTSBot(env, "a", 200, seed=3).get_actions(board, 4, player_index=0)[0] == 2
    # 'UCB' is LightZero's UCB with c = 0: the visited action of highest mean value.
    board = np.zeros((3, 3), np.int8)
    action, result, _ = MCTSBot(env, "a", 300, seed=3).get_actions(
        board, 0, 0, best_action_type="UCB"
    )
    visited = np.flatnonzero(result.action_visits)
    assert action == visited[np.argmax(result.action_values[visited])]
    with pytest.raises(ValueError, match="expected root=None"):
        MCTSBot(env, "a", 10).get_actions(board, 0, 0, root=object())
    with pytest.raises(ValueError, match=r"best_action_type: expected one of .*got 'best'"):
        MCTSBot(env, "a", 10).get_actions(board, 0, 0, best_action_type="best")
    with pytest.raises(TypeError, match="got 4 positional arguments"):
        MCTSBot(env, "a", 10).get_actions(board, 0, 0, 1)


def test_time_limit_in_a_game_and_no_tree_reuse():
    bot = MCTSBot(CONNECT4, num_simulations=500, seed=0)
    timed = MCTSBot(CONNECT4, time_limit_s=0.02, seed=0)
    timed.search(np.zeros((6, 7), np.int8), 0)  # warm up: no compiling inside the clock
    board, moves = np.zeros((6, 7), np.int8), 0
    for player in (1, 2) * 4:
        searcher = bot if player == 1 else timed
        result = searcher.search(board, player - 1)
        action = searcher.best_action(result)
        if player == 1:
            assert result.num_simulations == 500
        else:
            assert result.num_simulations > 50  # 20 ms of search
        cell = CONNECT4.apply_action(board, action, player)
        moves += 1
        assert CONNECT4.result_after(board, cell, player, moves) == 0
    with pytest.raises(ValueError, match="reuse_tree is no longer supported"):
        MCTSBot(CONNECT4, num_simulations=500, reuse_tree=True)


@pytest.mark.parametrize("bot_action_type", ["mcts", "alpha_beta"])
def test_env_plays_against_the_bot(bot_action_type):
    env = TicTacToeEnv(dict(battle_mode="play_with_bot_mode", bot_action_type=bot_action_type))
    env.seed(0)
    obs = env.reset()
    done, steps = False, 0
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        timestep = env.step(action)
        obs, done, steps = timestep.obs, timestep.done, steps + 1
    assert timestep.reward <= 0  # the first-legal-cell agent never beats these bots


def test_the_default_radius_is_off_on_boards_wider_than_the_near_stone_marks():
    # A custom placement game 65 columns wide: 130 cells would default to radius 2, which the
    # near-stone marks (one 64-bit word a row) cannot serve; the bot plays all moves instead.
    wide = GOMOKU._replace(name="wide", height=2, width=65, action_size=130)
    bot = MCTSBot(wide, num_simulations=8, evaluator="rollout", seed=0)
    assert bot._search.radius == 0
    board = np.zeros((2, 65), np.int8)
    assert 0 <= bot.get_actions(board, 0) < 130
    with pytest.raises(ValueError, match="expected radius 0 on a board wider than 64 columns"):
        MCTSBot(wide, num_simulations=8, evaluator="rollout", radius=2)
    nine = GOMOKU._replace(name="nine", height=9, width=9, action_size=81)
    assert MCTSBot(nine, num_simulations=8, evaluator="rollout")._search.radius == 2
