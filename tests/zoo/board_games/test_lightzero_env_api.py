"""The board envs' LightZero surface that LightZero's own env and bot tests use: setting
``env.board``, ``render()`` without a mode, ``info['next player to play']``, the
``current_player`` setter, cell coordinates and the bots under LightZero's method names."""

from __future__ import annotations

import numpy as np
import pytest
from board_reference import ONGOING, connect4, tictactoe

from lzero.errors import ConfigError, IllegalActionError
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

X_WINS = [[1, 1, 1], [2, 2, 0], [0, 0, 0]]
FULL_DRAW = [[1, 2, 1], [1, 2, 2], [2, 1, 1]]


@pytest.mark.parametrize("seed", range(30))
def test_setting_board_rederives_mask_legal_actions_and_result(seed):
    """Positions of random games set through ``env.board``: legal actions are the empty cells
    and the result is the plain-Python judge of the whole board (board_reference)."""
    rng = np.random.default_rng(seed)
    ref = tictactoe()
    for ply in range(int(rng.integers(0, 10))):
        if ref.result() != ONGOING:
            break
        ref.play(int(rng.choice(ref.legal())), 1 + ply % 2)
    env = TicTacToeEnv()
    env.reset()
    env.board = np.array(ref.board, dtype=np.int32)  # LightZero assigns int32 arrays and lists
    result = ref.result()
    done = result != ONGOING
    assert env.get_done_winner() == (done, result if result in (1, 2) else -1)
    assert env.legal_actions == ([] if done else ref.legal())
    assert env._mask.tolist() == [int(a in env.legal_actions) for a in range(9)]


def test_a_board_set_won_or_full_is_over_and_step_refuses():
    env = TicTacToeEnv()
    env.reset()
    env.board = np.array(X_WINS, dtype=np.int32)
    assert env.get_done_winner() == (True, 1) and env.get_done_reward() == (True, 1)
    env.board = FULL_DRAW
    assert env.get_done_winner() == (True, -1) and env.legal_actions == []


def test_step_still_refuses_an_occupied_cell_after_the_board_is_set():
    env = TicTacToeEnv()
    env.reset()
    env.board = [[1, 0, 0], [0, 2, 0], [0, 0, 0]]
    with pytest.raises(IllegalActionError, match=r"got 4; legal actions: \[1, 2, 3, 5, 6, 7, 8\]"):
        env.step(4)
    ts = env.step(1)
    assert ts.obs["board"].tolist() == [[1, 1, 0], [0, 2, 0], [0, 0, 0]]


def test_connect4_board_set_flat_as_lightzero_keeps_it_and_refuses_floating_stones():
    env = Connect4Env()
    env.reset()
    flat = [0] * 42
    flat[5 * 7 + 3] = 1  # bottom row, column 3
    env.board = flat
    assert env.board[5, 3] == 1 and env.legal_actions == list(range(7))
    flat[0] = 2  # top row, nothing below
    with pytest.raises(ValueError, match="board: expected stones resting on the bottom"):
        env.board = flat


def test_tictactoe_render_without_a_mode_prints_the_board(capsys):
    env = TicTacToeEnv()
    env.reset()
    env.step(4)
    assert env.render() is not None
    out = capsys.readouterr().out
    assert "X" in out and out.count("\n") >= 3
    frame = env.render("rgb_array")
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
    assert env._recorder.frames == []  # rgb_array returns the frame, records nothing


@pytest.mark.parametrize("cls", [GomokuEnv, Connect4Env])
def test_render_none_does_nothing_where_lightzero_does_nothing(cls, capsys):
    env = cls()
    env.reset()
    assert env.render(None) is None and env.render() is None
    assert capsys.readouterr().out == ""


def test_render_human_is_a_window_or_a_one_time_notice(capsys):
    """gymnasium's 'human': a window; without a display (SDL_VIDEODRIVER=dummy here) one
    warning and nothing else, however often it is asked."""
    env = GomokuEnv({"board_size": 9})
    env.reset()
    with pytest.warns(UserWarning, match="human: no display found.*'ansi'") as caught:
        assert env.render("human") is None
        assert env.render("human") is None
    assert len(caught) == 1 and capsys.readouterr().out == ""
    env = Connect4Env({"render_mode": "human", "battle_mode": "self_play_mode"})
    with pytest.warns(UserWarning, match="human: no display found") as caught:
        env.reset()
        env.step(3)
        env.step(3)
    assert len(caught) == 1


@pytest.mark.parametrize(("mode", "kind"), [("rgb_array", np.ndarray), ("ansi", str)])
def test_gymnasium_render_modes_in_the_config_render_when_asked(mode, kind, capsys, tmp_path):
    env = TicTacToeEnv({"render_mode": mode, "battle_mode": "self_play_mode"})
    env.reset()
    env.step(4)
    assert isinstance(env.render(), kind)  # no mode: the config's
    assert env._recorder.frames == [] and capsys.readouterr().out == ""  # nothing by itself
    assert env.render("state_realtime_mode") is not None and "[X]" in capsys.readouterr().out


@pytest.mark.parametrize("mode", ["play_with_bot_mode", "eval_mode"])
def test_next_player_to_play_tells_who_won_in_bot_modes(mode):
    """LightZero's tests read the winner from it: 2 after the agent's winning move, 1 after
    the bot's; while the game runs the agent (1) is to move again."""
    for seed in range(6):
        env = TicTacToeEnv({"battle_mode": mode, "bot_action_type": "random"})
        env.seed(seed)
        env.reset()
        while True:
            ts = env.step(env.random_action())
            assert ts.info["next player to play"] == env.current_player
            if not ts.done:
                assert ts.info["next player to play"] == 1
                continue
            if ts.reward[0] > 0:
                assert ts.info["next player to play"] == 2
            elif ts.reward[0] < 0:
                assert ts.info["next player to play"] == 1
            break


def test_bot_action_type_is_settable_with_lightzero_names():
    # LightZero's Gomoku test switches bots between moves: env.bot_action_type = 'v0'.
    env = GomokuEnv({"board_size": 6, "bot_action_type": "random"})
    env.seed(0)
    env.reset()
    env.step(14)
    env.bot_action_type = "v0"
    assert env.bot_action_type == "rule"
    board = env.board.copy()
    board.flat[env.bot_action()] = 2
    assert (board == env.board).sum() == board.size - 1  # one legal move, and the block test:
    env.board = np.array([[1, 1, 1, 1, 0, 0]] + [[0] * 6] * 4 + [[2, 2, 2, 0, 0, 0]], np.int8)
    env.current_player = 2
    assert env.bot_action() == 4  # the rule bot blocks five in a row
    with pytest.raises(ConfigError, match="unknown bot type 'alpha_beta_pruning'"):
        env.bot_action_type = "alpha_beta_pruning"
    with pytest.raises(ConfigError, match="bot_action_type: unknown bot type 'rulez'"):
        env.bot_action_type = "rulez"
    assert env.bot_action_type == "rule"


def test_current_player_setter_changes_who_moves():
    env = TicTacToeEnv()
    env.reset()
    env.current_player = 2
    ts = env.step(0)
    assert ts.obs["board"][0, 0] == 2 and env.current_player == 1
    for bad in (0, 3, True, "1"):
        with pytest.raises(ValueError, match=r"current_player: expected 1 or 2, got"):
            env.current_player = bad


@pytest.mark.parametrize("cls, cfg", [(TicTacToeEnv, {}), (GomokuEnv, {"board_size": 7})])
def test_action_to_coord_and_coord_to_action_are_inverse(cls, cfg):
    env = cls(cfg)
    n = env.rules.width
    for a in range(env.rules.action_size):
        assert env.action_to_coord(a) == divmod(a, n)
        assert env.coord_to_action(*env.action_to_coord(a)) == a
    with pytest.raises(ValueError, match="coord_to_action: expected a cell of the"):
        env.coord_to_action(n, 0)
    with pytest.raises(ValueError, match="action_to_coord: expected an action in"):
        env.action_to_coord(env.rules.action_size)


def test_coordinates_are_refused_for_column_actions():
    with pytest.raises(ValueError, match="connect4, whose actions are columns"):
        Connect4Env().action_to_coord(3)


def test_rule_bot_v0_wins_or_blocks_as_the_rule_bot_does():
    env = TicTacToeEnv()
    env.reset()
    env.board = [[1, 1, 0], [2, 2, 0], [0, 0, 0]]
    assert env.rule_bot_v0() == 2  # player 1 to move completes the top row
    env.current_player = 2
    assert env.rule_bot_v0() == 5  # player 2 completes the middle row


def test_bot_action_alpha_beta_pruning_plays_perfectly_on_tictactoe():
    env = TicTacToeEnv()
    env.reset()
    env.board = [[1, 0, 0], [0, 2, 0], [0, 0, 1]]
    env.current_player = 2
    # Player 2 must not take a corner here (1-0-0 / 0-2-0 / 0-0-1 is lost after a corner).
    assert env.bot_action_alpha_beta_pruning() in (1, 3, 5, 7)


def test_gomoku_refuses_alpha_beta_naming_its_bots():
    with pytest.raises(ConfigError, match=r"bot_action_type: unknown bot type 'alpha_beta_pruning'.*"
                       r"valid bot types: \['mcts', 'random', 'rule'\]"):  # fmt: skip
        GomokuEnv({"bot_action_type": "alpha_beta_pruning"})
    with pytest.raises(
        ConfigError, match=r"gomoku has no alpha-beta bot .*\['mcts', 'random', 'rule'\]"
    ):
        GomokuEnv().bot_action_alpha_beta_pruning()


@pytest.mark.parametrize(
    "cls, cfg, size, actions",
    [(TicTacToeEnv, {}, 3, 9), (GomokuEnv, {"board_size": 9}, 9, 81), (Connect4Env, {}, None, 7)],
)
def test_lightzeros_env_attributes(cls, cfg, size, actions):
    """players, start_player_index, to_play (LightZero's: the player NOT to move), board_size
    (square boards), total_num_actions, channel_last and scale, as LightZero's envs have them."""
    env = cls(dict(cfg, channel_last=True, scale=False))
    assert env.players == [1, 2] and env.start_player_index == 0
    obs = env.reset(start_player_index=1)
    assert env.start_player_index == 1 and env.current_player == 2 and env.to_play == 1
    assert obs["to_play"] == 2  # the observation's to_play is the player to move
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.current_player == 1 and env.to_play == 2
    assert env.total_num_actions == actions and env.channel_last is True and env.scale is False
    assert cls(cfg).channel_last is False and cls(cfg).scale is True
    if size is None:
        with pytest.raises(AttributeError, match="board_size: expected a square board, got conn"):
            _ = env.board_size
    else:
        assert env.board_size == size


@pytest.mark.parametrize("make, ref_game", [(TicTacToeEnv, tictactoe), (Connect4Env, connect4)])
@pytest.mark.parametrize("seed", range(10))
def test_simulate_action_v2_plays_on_the_given_board(make, ref_game, seed):
    """LightZero's alpha-beta helper against the plain-Python rules: the new board and its legal
    actions after the move of player ``start_player_index + 1``; the env is left on the new
    board with that player still to move, as LightZero's."""
    rng = np.random.default_rng(seed)
    ref = ref_game()
    for ply in range(int(rng.integers(0, 6))):
        ref.play(int(rng.choice(ref.legal())), 1 + ply % 2)
    if ref.result() != ONGOING:
        return
    before = [row[:] for row in ref.board]
    index, action = int(rng.integers(2)), int(rng.choice(ref.legal()))
    env = make()
    env.reset()
    new_board, new_legal = env.simulate_action_v2(np.array(before), index, action)
    ref.play(action, index + 1)
    assert new_board.tolist() == ref.board
    assert new_legal == ([] if ref.result() != ONGOING else ref.legal())
    assert env.board.tolist() == ref.board and env.current_player == index + 1
    with pytest.raises(IllegalActionError, match="expected a legal action, got -1; legal actions"):
        env.simulate_action_v2(np.array(before), index, -1)


def test_reset_v2_sets_the_position_without_starting_an_episode():
    """reset_v2 draws nothing from the env's seeds: the seeded games after it are the games
    without it (a bot-mode game, whose bot moves draw from them)."""

    def bot_moves(call_reset_v2):
        env = TicTacToeEnv(dict(battle_mode="play_with_bot_mode", bot_action_type="random"))
        env.seed(5)
        env.reset()
        if call_reset_v2:
            env.reset_v2(1, [[1, 0, 0], [0, 2, 0], [0, 0, 0]])
            assert env.current_player == 2 and env.board[1, 1] == 2 and env.legal_actions == [
                1, 2, 3, 5, 6, 7, 8
            ]  # fmt: skip
        obs, boards = env.reset(), []
        while True:
            ts = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            boards.append(ts.obs["board"].tolist())
            if ts.done:
                return boards
            obs = ts.obs

    assert bot_moves(True) == bot_moves(False)
    env = TicTacToeEnv()
    env.reset()
    env.step(4)
    for bad, match in (
        ([[3, 0, 0], [0, 0, 0], [0, 0, 0]], r"board: expected values in \{0, 1, 2\}, got \[0, 3\]"),
        (np.zeros((2, 2)), r"board: expected shape \(3, 3\) or \(9,\), got \(2, 2\)"),
    ):
        with pytest.raises(ValueError, match=match):
            env.reset_v2(0, bad)
    with pytest.raises(ValueError, match="start_player_index: expected 0 or 1"):
        env.reset_v2(2)
    assert env.board[1, 1] == 1 and env.current_player == 2  # unchanged by the refusals


def test_clone_is_an_independent_copy():
    env = GomokuEnv(dict(board_size=7))
    env.seed(1)
    env.reset()
    env.step(24)
    twin = env.clone()
    assert np.array_equal(twin.board, env.board) and twin.current_player == env.current_player
    twin.step(25)
    assert (
        env.board.reshape(-1)[25] == 0
        and env.current_player == 2
        and env.legal_actions != twin.legal_actions
    )
    env.step(26)
    assert twin.board.reshape(-1)[26] == 0


@pytest.mark.parametrize(
    ("make", "bots"),
    [
        (lambda: TicTacToeEnv(), ("bot_action", "rule_bot_v0", "bot_action_alpha_beta_pruning")),
        (lambda: Connect4Env(dict(bot_action_type="perfect")), ("bot_action", "rule_bot_v0")),
        (lambda: GomokuEnv(dict(board_size=6)), ("bot_action", "rule_bot_v0")),
    ],
)
def test_no_game_running_is_refused_not_answered(make, bots):
    """Before the first reset there is no game: the result queries, the bots and ``step``
    say so, where they answered as for a finished draw (a move on an empty mask, (True, -1)).
    Once a game is over the bots are refused as ``step`` is."""
    from lzero.errors import GameOverError

    env = make()
    for call in (env.get_done_winner, env.get_done_reward, *(getattr(env, b) for b in bots)):
        with pytest.raises(GameOverError, match="expected a .*game, got none; call reset"):
            call()
    with pytest.raises(GameOverError, match="step: expected a running game, got none"):
        env.step(0)
    env.seed(0)
    env.reset()
    assert env.get_done_winner() == (False, -1) and env.get_done_reward() == (False, None)
    while not env.step(env.random_action()).done:
        pass
    board = env.board.copy()
    for name in bots:
        with pytest.raises(GameOverError, match=f"{name}: expected a running game, got a finished"):
            getattr(env, name)()
    assert np.array_equal(env.board, board) and env.get_done_winner()[0]


def test_reset_v2_on_a_new_env_starts_a_game_for_the_queries():
    """LightZero's alpha-beta bot sets positions with ``reset_v2`` on envs never reset."""
    env = TicTacToeEnv()
    env.reset_v2(0, X_WINS)
    assert env.get_done_winner() == (True, 1)
    env = TicTacToeEnv()
    env.reset_v2(1)
    assert env.get_done_winner() == (False, -1) and env.bot_action() in range(9)


@pytest.mark.parametrize("cls", [Connect4Env, GomokuEnv])
def test_a_clone_with_an_mcts_bot_replies_as_the_original(cls):
    """``clone`` keeps the bot's state, as LightZero's deepcopy clone does: the same agent
    moves on the original, its clone and its deepcopy give the same games."""
    import copy

    cfg = dict(battle_mode="play_with_bot_mode", bot_action_type="mcts")
    cfg["mcts_bot_num_simulations"] = 20
    if cls is GomokuEnv:
        cfg["board_size"] = 6
    env = cls(cfg)
    env.seed(0)
    env.reset()
    env.step(env.legal_actions[len(env.legal_actions) // 2])  # the bot is built and has searched
    twins = [env, env.clone(), copy.deepcopy(env)]
    boards = []
    for twin in twins:
        agent = np.random.default_rng(5)
        for _ in range(4):
            if twin.step(int(agent.choice(twin.legal_actions))).done:
                break
        boards.append(twin.board.copy())
    assert np.array_equal(boards[0], boards[1]) and np.array_equal(boards[0], boards[2])


@pytest.mark.parametrize("cls", [TicTacToeEnv, Connect4Env, GomokuEnv])
def test_reset_takes_lightzeros_katago_keywords(cls):
    """LightZero's AlphaZero resets its simulation envs with ``katago_policy_init`` and
    ``katago_game_state`` (its Go env's); its other envs take and ignore them, as ours do."""
    env = cls()
    env.seed(0)
    plain = env.reset(start_player_index=1)
    env.seed(0)
    obs = env.reset(
        start_player_index=1, init_state=None, katago_policy_init=True, katago_game_state=None
    )
    assert np.array_equal(obs["observation"], plain["observation"])
    assert obs["to_play"] == plain["to_play"] == 2
