"""The generic board env through its three games: contract, modes, rewards, errors, seeds."""

from __future__ import annotations

import builtins
import copy
import pickle
import re

import numpy as np
import pytest
from board_reference import DRAW, ONGOING, connect4, gomoku, tictactoe
from numba import njit

from lzero.envs import ENV_REGISTRY, check_env
from lzero.errors import ConfigError, GameOverError, IllegalActionError
from zoo.board_games.common.tactics import random_legal_action
from zoo.board_games.connect4.envs import connect4_rules
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs import tictactoe_rules
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

ENVS = {"tictactoe": TicTacToeEnv, "connect4": Connect4Env, "gomoku": GomokuEnv}
REFS = {"tictactoe": tictactoe, "connect4": connect4, "gomoku": gomoku}
MODES = ("self_play_mode", "play_with_bot_mode", "eval_mode")


@pytest.mark.parametrize("name", list(ENVS))
@pytest.mark.parametrize("mode", MODES)
def test_check_env_and_registry(name, mode):
    assert ENV_REGISTRY.get(name) is ENVS[name]
    check_env(ENVS[name]({"battle_mode": mode}))


@pytest.mark.parametrize("cfg", [{"channel_last": True}, {"scale": False}, {"board_size": 9}])
def test_check_env_variants(cfg):
    check_env(GomokuEnv(cfg))


@pytest.mark.parametrize("name", list(ENVS))
def test_self_play_matches_reference_step_by_step(name):
    """Random self-play through the env against the plain-Python reference: board, mask,
    observation planes, to_play, rewards and the final return."""
    env = ENVS[name]()
    env.seed(3)
    for _ in range(20):
        obs, ref = env.reset(), REFS[name]()
        h, w = ref.h, ref.w
        assert obs["observation"].shape == (3, h, w) and obs["observation"].dtype == np.float32
        player = 1
        while True:
            action = env.random_action()
            assert action in ref.legal()
            ref.play(action, player)
            obs, reward, done, info = env.step(action)
            expected = ref.result()
            assert obs["board"].tolist() == ref.board
            nxt = 3 - player
            planes = obs["observation"]
            assert np.array_equal(planes[0], 0.5 * (obs["board"] == nxt))
            assert np.array_equal(planes[1], 0.5 * (obs["board"] == player))
            assert (planes[2] == nxt / 2).all()
            assert obs["to_play"] == nxt and obs["current_player_index"] == nxt - 1
            assert reward.dtype == np.float32 and reward.shape == (1,)
            if expected == ONGOING:
                assert not done and reward[0] == 0 and info == {}
                assert np.flatnonzero(obs["action_mask"]).tolist() == ref.legal()
                player = nxt
                continue
            assert done and not obs["action_mask"].any()
            assert reward[0] == (1.0 if expected == player else 0.0)
            assert info["eval_episode_return"] == {1: 1.0, 2: -1.0, DRAW: 0.0}[expected]
            assert env.get_done_winner() == (True, expected if expected != DRAW else -1)
            break


def test_observation_options():
    env = TicTacToeEnv({"channel_last": True, "scale": False})
    env.reset()
    obs = env.step(4).obs
    assert obs["observation"].shape == (3, 3, 3)
    assert obs["observation"][1, 1].tolist() == [0.0, 1.0, 2.0]  # [H, W, C]: opponent's stone
    raw, scaled = env.current_state()
    assert np.array_equal(raw, scaled) and raw[0, 0, 2] == 2.0
    scaled_env = TicTacToeEnv()
    scaled_env.reset()
    raw, scaled = scaled_env.current_state()
    assert np.array_equal(scaled, raw / 2) and raw[2, 0, 0] == 1.0


def test_self_play_rewards_on_scripted_games():
    env = TicTacToeEnv()
    env.reset()
    for a in (0, 3, 1, 4):
        assert env.step(a).reward[0] == 0
    ts = env.step(2)  # player 1 completes the top row
    assert ts.done and ts.reward[0] == 1 and ts.info["eval_episode_return"] == 1.0
    env.reset()
    for a in (0, 3, 1, 4, 8):
        env.step(a)
    ts = env.step(5)  # player 2 completes the middle row
    assert ts.done and ts.reward[0] == 1 and ts.info["eval_episode_return"] == -1.0
    env.reset()
    for a in (0, 1, 2, 4, 3, 5, 7, 6):
        assert not env.step(a).done
    ts = env.step(8)
    assert ts.done and ts.reward[0] == 0 and ts.info["eval_episode_return"] == 0.0
    assert env.get_done_reward() == (True, 0.0)
    with pytest.raises(GameOverError, match="expected a running game, got a finished one"):
        env.step(0)


@pytest.mark.parametrize("name", list(ENVS))
def test_play_with_bot_mode(name):
    env = ENVS[name]({"battle_mode": "play_with_bot_mode"})
    env.seed(1)
    returns = []
    for _ in range(6):
        obs = env.reset()
        assert obs["to_play"] == -1 and obs["current_player_index"] == 0
        while True:
            before = int(np.count_nonzero(obs["board"]))
            obs, reward, done, info = env.step(env.random_action())
            assert obs["to_play"] == -1
            if done:
                assert reward[0] == info["eval_episode_return"]
                returns.append(reward[0])
                break
            assert reward[0] == 0 and np.count_nonzero(obs["board"]) == before + 2
            assert (obs["board"] == 1).sum() == (obs["board"] == 2).sum()  # agent to move again
    assert -1.0 in returns  # the rule bot beats a random agent


def test_bot_opens_when_agent_starts_second():
    env = Connect4Env({"battle_mode": "play_with_bot_mode"})
    obs = env.reset(start_player_index=1)
    assert (obs["board"] == 2).sum() == 1 and (obs["board"] == 1).sum() == 0
    assert obs["current_player_index"] == 0
    obs = Connect4Env().reset(start_player_index=1)
    assert obs["to_play"] == 2 and not obs["board"].any()


def test_eval_mode_with_human(monkeypatch, capsys):
    typed = iter(["nonsense", "5", "x9", "9"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(typed))
    env = TicTacToeEnv({"battle_mode": "eval_mode", "agent_vs_human": True})
    env.reset()
    obs = env.step(0).obs  # the human answers 5 (cell index 4)
    assert obs["board"].flat[4] == 2
    obs = env.step(1).obs  # "x9" is rejected, then 9 (cell index 8)
    assert obs["board"].flat[8] == 2
    out = capsys.readouterr().out
    assert "Invalid move: expected a cell 1-9" in out and "got 'x9'" in out
    assert "1 [X] .  .  1" in out  # the board was shown before the question


@pytest.mark.parametrize(
    ("action", "pattern"),
    [
        (4, r"expected a legal action, got 4; legal actions: \[0, 1, 2, 3, 5"),
        (9, r"expected a legal action, got 9; legal actions"),
        (-1, r"expected a legal action, got -1"),
        (2**64, r"expected a legal action, got 18446744073709551616"),  # beyond the kernel's int64
        (2.0, r"expected an action as int, NumPy integer or one-element integer array, got 2.0"),
        (True, r"got True"),
        ("3", r"got '3'"),
        (np.array([1, 2]), r"got array\(\[1, 2\]\)"),
        (np.array([1.0]), r"got array\(\[1\.\]\)"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(action, pattern):
    for mode in MODES:
        env = TicTacToeEnv({"battle_mode": mode})
        env.seed(0)
        env.reset()
        env.step(4)  # cell 4 is taken from here on
        board, player = env.board.copy(), env.current_player
        legal = env.legal_actions
        with pytest.raises(IllegalActionError, match=pattern) as err:
            env.step(action)
        if "legal actions" in str(err.value):
            assert str(err.value).endswith(f"legal actions: {legal}")
        assert np.array_equal(env.board, board) and env.current_player == player
        assert env.legal_actions == legal


def test_action_forms_are_equivalent():
    boards = []
    for action in (3, np.int64(3), np.int8(3), np.array([3]), np.array(3), np.array([[3]])):
        env = Connect4Env()
        env.reset()
        boards.append(env.step(action).obs["board"])
    assert all(np.array_equal(b, boards[0]) for b in boards)


@pytest.mark.parametrize(
    ("cfg", "pattern"),
    [
        (
            {"battle_mode": "selfplay"},
            r"battle_mode: unknown battle mode 'selfplay'.*self_play_mode",
        ),
        (
            {"bot_action_type": "minimax"},
            r"unknown bot type 'minimax'.*'mcts', 'perfect', 'random', 'rule'",
        ),
        ({"bot_action_type": "alpha_beta"}, r"bot type 'alpha_beta'"),
        ({"render_mode": "window"}, r"unknown render mode 'window'.*image_savefile_mode"),
        ({"battle_mod": "self_play_mode"}, r"unknown key 'battle_mod'; did you mean 'battle_mode'"),
        (
            {"prob_random_agent": 1.5},
            r"prob_random_agent: expected a probability in \[0, 1\], got 1.5",
        ),
        ({"prob_random_agent": 0.5, "prob_expert_agent": 0.5}, r"at most one of them"),
        ({"screen_scaling": 0}, r"screen_scaling: expected a positive number, got 0"),
        ({"scale": "yes"}, r"scale: expected a bool, got 'yes'"),
    ],
)
def test_bad_config_raises(cfg, pattern):
    with pytest.raises(ConfigError, match=pattern):
        Connect4Env(cfg)


def test_gomoku_board_size():
    env = GomokuEnv({"board_size": 7})
    obs = env.reset()
    assert obs["observation"].shape == (3, 7, 7) and env.action_space.n == 49
    assert env.action_to_string(0) == "a7" and env.action_to_string(48) == "g1"
    with pytest.raises(ConfigError, match=r"expected board_size an int in \[5, 19\], got 20"):
        GomokuEnv({"board_size": 20})


def test_lightzero_bot_aliases():
    assert TicTacToeEnv({"bot_action_type": "v0"}).bot_action_type == "rule"
    assert GomokuEnv({"bot_action_type": "v1"}).bot_action_type == "rule"


@pytest.mark.parametrize("name", list(ENVS))
def test_same_seed_same_games_bots_included(name):
    def play(seed, **cfg):
        env = ENVS[name](
            {"battle_mode": "play_with_bot_mode", "prob_random_action_in_bot": 0.3, **cfg}
        )
        env.seed(seed)
        trace = []
        for _ in range(3):
            env.reset()
            done = False
            while not done:
                ts = env.step(env.random_action())
                trace.append(ts.obs["board"].tobytes())
                done = ts.done
        return trace

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_static_seed_replays_and_dynamic_seed_varies():
    env = Connect4Env({"battle_mode": "play_with_bot_mode", "prob_random_action_in_bot": 0.5})
    env.seed(5, dynamic_seed=False)
    games = []
    for _ in range(3):
        env.reset()
        while not env.step(3 if env.legal_actions.count(3) else env.legal_actions[0]).done:
            pass
        games.append(env.board.tobytes())
    assert games[0] == games[1] == games[2]
    env.seed(5)
    dynamic = set()
    for _ in range(6):
        env.reset()
        while not env.step(env.legal_actions[0]).done:
            pass
        dynamic.add(env.board.tobytes())
    assert len(dynamic) > 1


@pytest.mark.parametrize("env_cls", [TicTacToeEnv, Connect4Env])
def test_random_action_draws_as_the_board_scan_and_is_minus_one_after_the_end(env_cls):
    """``random_action`` reads the legal mask; it draws what a scan of the board would."""
    env = env_cls()
    env.seed(5)
    for _ in range(20):
        env.reset()
        done = False
        while not done:
            state = env._agent_rng_state.copy()
            action = env.random_action()
            assert action == random_legal_action(env.board, env.rules.gravity, state)
            done = env.step(action).done
        assert env.random_action() == -1


def test_prob_random_and_expert_agent():
    env = TicTacToeEnv({"prob_expert_agent": 1.0})
    env.reset()
    env.step(0)  # replaced by the rule bot's move: the centre
    assert env.board[1, 1] == 1 and env.board[0, 0] == 0
    env = Connect4Env({"prob_random_agent": 1.0})
    env.seed(0)
    env.reset()
    cols = set()
    for _ in range(6):
        env.reset()
        env.step(0)
        cols.add(int(np.flatnonzero(env.board[5])[0]))
    assert len(cols) > 1


def test_init_state_and_its_validation():
    env = Connect4Env()
    board = np.zeros((6, 7), np.int8)
    board[5, 3], board[5, 4] = 1, 2
    obs = env.reset(init_state=board)
    assert np.array_equal(obs["board"], board) and obs["to_play"] == 1
    assert env.step(3).obs["board"][4, 3] == 1
    floating = board.copy()
    floating[2, 0] = 1
    with pytest.raises(ValueError, match="floating stone at row 2, column 0"):
        env.reset(init_state=floating)
    won = board.copy()
    won[5, :4] = 1
    with pytest.raises(ValueError, match="a line of 4 already"):
        env.reset(init_state=won)
    with pytest.raises(ValueError, match=r"expected shape \(6, 7\) or \(42,\), got \(3, 3\)"):
        env.reset(init_state=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="expected values in"):
        env.reset(init_state=np.full((6, 7), 5))
    with pytest.raises(ValueError, match="start_player_index: expected 0 or 1, got 2"):
        env.reset(start_player_index=2)
    flat = TicTacToeEnv().reset(init_state=[1, 2, 0, 0, 0, 0, 0, 0, 0])
    assert flat["board"].tolist() == [[1, 2, 0], [0, 0, 0], [0, 0, 0]]


def test_lightzero_methods():
    env = TicTacToeEnv()
    env.reset()
    env.step(4)
    assert env.current_player == 2 and env.next_player == 1 and env.current_player_index == 1
    assert env.legal_actions == [0, 1, 2, 3, 5, 6, 7, 8]
    child = env.simulate_action(0)
    assert child.board[0, 0] == 2 and env.board[0, 0] == 0 and child.current_player == 1
    assert env.get_done_winner() == (False, -1) and env.get_done_reward() == (False, None)
    assert env.action_to_string(8) == "9" and Connect4Env().action_to_string(0) == "1"
    assert GomokuEnv().action_to_string(7 * 15 + 7) == "h8"
    assert env.bot_action() in env.legal_actions
    rand = TicTacToeEnv({"bot_action_type": "random"})
    rand.seed(0)
    rand.reset()
    rand.step(4)
    moves = {rand.bot_action() for _ in range(40)}  # the random bot: legal moves, not one rule
    assert moves == set(rand.legal_actions)


def test_mcts_bot_replies_and_blocks():
    """The MCTS bot's reply is played in the same step: facing three in a row on the bottom
    row (columns 0-2), it blocks the only winning column, 3 (its root tactics)."""
    env = Connect4Env(
        {
            "battle_mode": "play_with_bot_mode",
            "bot_action_type": "mcts",
            "mcts_bot_num_simulations": 20,
        }
    )
    start = np.zeros((6, 7), np.int8)
    start[5, [0, 1]], start[4, [0, 1]] = 1, 2
    env.reset(init_state=start)
    board = env.step(2).obs["board"]
    assert board[5, 2] == 1 and board[5, 3] == 2 and (board == 2).sum() == 3


def test_alpha_beta_bot_never_loses():
    """200 games against a random agent, the bot moving second in half and first in half."""
    env = TicTacToeEnv({"battle_mode": "play_with_bot_mode", "bot_action_type": "alpha_beta"})
    env.seed(11)
    returns = []
    for game in range(200):
        env.reset(start_player_index=game % 2)
        while True:
            ts = env.step(env.random_action())
            if ts.done:
                returns.append(ts.info["eval_episode_return"])  # the agent's (random) view
                break
    assert max(returns) <= 0.0 and returns.count(-1.0) > 100


@pytest.mark.parametrize("clone", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))])
def test_copies_play_on_independently_and_stay_seeded(clone):
    env = Connect4Env({"battle_mode": "play_with_bot_mode", "prob_random_action_in_bot": 0.5})
    env.seed(4)
    env.reset()
    env.step(3)
    twin = clone(env)
    assert np.array_equal(twin.board, env.board)
    a, b = env.step(2).obs["board"], twin.step(2).obs["board"]
    assert np.array_equal(a, b)  # same generator state: same bot reply
    env.seed(9, dynamic_seed=False)
    twin.seed(9, dynamic_seed=False)
    boards = []
    for e in (env, twin):
        e.reset()
        while not e.step(e.random_action()).done:
            pass
        boards.append(e.board.copy())
    assert np.array_equal(*boards)


@pytest.mark.parametrize("index", [1.0, 0.0, "1", None, np.float64(1.0)])
def test_start_player_index_must_be_an_int(index):
    # 1.0 == 1, so a membership test let floats through; the float player then broke indexing.
    env = Connect4Env()
    with pytest.raises(ValueError, match=re.escape(f"expected 0 or 1, got {index!r}")):
        env.reset(start_player_index=index)


def test_start_player_index_as_numpy_int_gives_python_ints():
    env = Connect4Env()
    obs = env.reset(start_player_index=np.int64(1))
    assert type(obs["to_play"]) is int and obs["to_play"] == 2
    assert type(obs["current_player_index"]) is int and obs["current_player_index"] == 1
    assert type(env.current_player) is int
    obs = env.step(3).obs
    assert type(obs["to_play"]) is int and obs["to_play"] == 1


def test_alias_of_a_bot_the_game_lacks_names_what_was_given():
    with pytest.raises(
        ConfigError, match=r"bot_action_type: unknown bot type 'alpha_beta_pruning' \(LightZero's"
    ):
        Connect4Env({"bot_action_type": "alpha_beta_pruning"})


@pytest.mark.parametrize("cfg", [{"prob_random_agent": 0.5}, {"prob_expert_agent": 0.5}])
def test_illegal_action_with_prob_agent_draws_nothing(cfg):
    # The illegal action is rejected before the env draws whether to replace it, so the
    # rejected call leaves the env's generator where it was and the game replays the same.
    full_first_column = np.zeros((6, 7), np.int8)
    full_first_column[:, 0] = [2, 1, 2, 1, 2, 1]

    def play(with_illegal_calls):
        env = Connect4Env(cfg)
        env.seed(3)
        env.reset(init_state=full_first_column.copy())
        boards = []
        for _ in range(8):
            if with_illegal_calls:
                with pytest.raises(IllegalActionError, match="expected a legal action, got 0"):
                    env.step(0)
            ts = env.step(env.legal_actions[-1])
            boards.append(ts.obs["board"].tobytes())
            if ts.done:
                break
        return boards

    assert play(True) == play(False)


@pytest.mark.parametrize("flat", [False, True])
def test_init_state_array_is_copied_not_played_on(flat):
    # An int8 C-ordered array came back from np.ascontiguousarray as itself, so the game
    # wrote its moves into the caller's array.
    init = np.zeros((6, 7), np.int8)
    init[5, 3] = 1
    given = init.reshape(-1) if flat else init
    kept = given.copy()
    env = Connect4Env()
    env.reset(init_state=given)
    env.step(3)
    env.step(3)
    assert np.array_equal(given, kept)
    assert env.board[4, 3] == 1 and env.board[3, 3] == 2


@pytest.mark.parametrize(
    ("agent", "typed", "last_line"),
    [
        ((0, 1, 2), ["4", "5"], "Player 1 (X) wins."),  # the agent's move ends the game
        ((0, 1, 8), ["4", "5", "6"], "Player 2 (O) wins."),  # the person's move does
    ],
)
def test_eval_mode_with_human_shows_the_final_board(agent, typed, last_line, monkeypatch, capsys):
    # The board used to be shown only before the person's turn, so they never saw the move
    # that ended the game, nor who won.
    answers = iter(typed)
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    env = TicTacToeEnv({"battle_mode": "eval_mode", "agent_vs_human": True})
    env.reset()
    for action in agent:
        ts = env.step(action)
    assert ts.done
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == last_line
    final = "\n".join(out[-6:-1])
    assert final == env.render("state_realtime_mode")


@njit(cache=True)
def _corner_wins_result(board, cell, player, num_moves):
    """TicTacToe's result, except that a stone on cell 0 (the top-left corner) wins."""
    return player if cell == 0 else tictactoe_rules.result_after(board, cell, player, num_moves)


@njit(cache=True)
def _bottom_left_wins_result(board, cell, player, num_moves):
    """Connect4's result, except that a stone on the bottom-left cell (5, 0) wins."""
    return player if cell == 35 else connect4_rules.result_after(board, cell, player, num_moves)


class _CornerTicTacToe(TicTacToeEnv):
    rules = tictactoe_rules.RULES._replace(name="corner", result_after=_corner_wins_result)


class _BottomLeftConnect4(Connect4Env):
    rules = connect4_rules.RULES._replace(name="bottom-left", result_after=_bottom_left_wins_result)


@pytest.mark.parametrize("env_cls", [_CornerTicTacToe, _BottomLeftConnect4])
@pytest.mark.parametrize("mode", ["self_play_mode", "play_with_bot_mode"])
def test_the_env_judges_by_the_games_own_result_after(env_cls, mode):
    """A game whose placing, dropping and mask are the shared k-in-a-row kernels but whose
    ``result_after`` is its own: the env's fused step (self-play) and its general path (bot
    modes) both end the game by that rule, not by k in a row."""
    env = env_cls({"battle_mode": mode})
    env.reset()
    timestep = env.step(0)  # top-left cell / bottom of column 0: wins by this game's rule
    assert timestep.done and timestep.reward[0] == 1.0
    assert timestep.info["eval_episode_return"] == 1.0
    assert not timestep.obs["action_mask"].any()


@pytest.mark.parametrize("env_cls", [_CornerTicTacToe, _BottomLeftConnect4])
def test_the_pool_judges_by_the_games_own_result_after(env_cls):
    from lzero.envs.pool.board_pool import BoardBackend

    pool = BoardBackend(env_cls, 2, 0, None, {})
    pool.step_all()  # the first step resets
    pool.action[:] = (0, 1)
    _, reward, terminated, _, _ = pool.step_all()
    assert terminated.tolist() == [True, False] and reward.tolist() == [1.0, 0.0]


@pytest.mark.parametrize("dynamic", [True, False])
def test_a_seed_beyond_64_bits_plays_other_games_than_its_low_bits(dynamic):
    """Seeds are ints of any size: 2**64 (and 2**63, static) kept only their low bits, so
    they replayed seed 0's games."""
    from zoo.board_games.connect4.envs.connect4_env import Connect4Env

    def streams(seed):
        env = Connect4Env(dict(battle_mode="play_with_bot_mode", bot_action_type="random"))
        env.seed(seed, dynamic_seed=dynamic)
        env.reset()
        return env._streams.tolist(), env.step(3).obs["board"].tolist()

    assert streams(0) == streams(0)
    assert streams(2**64) != streams(0) and streams(2**63) != streams(0)


def test_neighbouring_seeds_play_unrelated_games():
    """Seed s + 1 replayed seed s's games one episode later (its stream was seed s's shifted
    by one draw), so arena series under seeds 0 and 2 shared 28 of 30 games, and a pool's
    env i + 1 replayed env i's. Random-bot Gomoku games against a fixed reply are long
    enough that two equal ones mean a shared stream."""

    def games(seed, n=6):
        env = GomokuEnv(
            dict(board_size=9, battle_mode="play_with_bot_mode", bot_action_type="random")
        )
        env.seed(seed)
        out = []
        for _ in range(n):
            obs, done = env.reset(), False
            while not done:
                ts = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
                obs, done = ts.obs, ts.done
            out.append(env.board.tobytes())
        return out

    assert games(5) == games(5)
    assert not set(games(0)) & set(games(1)) and not set(games(0)) & set(games(2))


def test_neighbouring_pool_envs_play_unrelated_games():
    from lzero.envs import make

    pool = make("gomoku", num_envs=3, board_size=9, battle_mode="play_with_bot_mode",
                bot_action_type="random", seed=0)  # fmt: skip
    obs = pool.reset()
    boards = {i: [] for i in range(3)}
    while min(len(b) for b in boards.values()) < 4:
        # after a game's end its env resets at the next step (envpool's NEXT_STEP), whatever
        # the action
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in obs["action_mask"]])
        obs, _, done, _ = pool.step(actions)
        for i in np.flatnonzero(done):
            boards[int(i)].append(obs["board"][i].tobytes())
    assert not set(boards[0]) & set(boards[1]) and not set(boards[1]) & set(boards[2])


def test_exact_scores_are_the_solvers_where_a_game_has_one():
    from lzero.errors import ConfigError
    from zoo.board_games.connect4.envs.connect4_env import Connect4Env
    from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver
    from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

    env = Connect4Env({"battle_mode": "self_play_mode"})
    env.reset()
    for column in (3, 3, 4, 2):
        env.step(column)
    env.check_exact_scores()  # the opening book is installed with the test extra
    want = Connect4Solver(opening_book=True).analyze("4453")
    assert env.exact_scores(env.board, env.current_player) == want
    ttt = TicTacToeEnv({})
    assert ttt.exact_scores is None
    with pytest.raises(ConfigError, match="tictactoe has no exact solver"):
        ttt.check_exact_scores()
