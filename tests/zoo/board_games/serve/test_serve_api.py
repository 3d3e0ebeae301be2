"""The JSON API of ``lzero serve`` without a browser: every bad request gets a 4xx in the one
error shape and changes nothing; games through the API equal the env played directly."""

from __future__ import annotations

import io
import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from lzero.errors import LZeroError
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.othello.envs.othello_env import OthelloEnv
from zoo.board_games.serve import server as server_module
from zoo.board_games.serve.session import GameSession
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

ENVS = {
    "tictactoe": TicTacToeEnv,
    "connect4": Connect4Env,
    "gomoku": GomokuEnv,
    "othello": OthelloEnv,
}


def error_of(status, body, expected_status, pattern):
    """Checks the one error shape and its message."""
    import re

    assert status == expected_status, body
    assert set(body) == {"error"} and set(body["error"]) == {"status", "message"}
    assert body["error"]["status"] == expected_status
    assert re.search(pattern, body["error"]["message"]), body["error"]["message"]


def test_games_are_the_registered_board_games(client):
    status, data = client.call("GET", "/api/games")
    assert status == 200
    names = [g["name"] for g in data["games"]]
    assert names == sorted(ENVS)
    by = {g["name"]: g for g in data["games"]}
    for name, cls in ENVS.items():
        ids = [o["id"] for o in by[name]["opponents"]]
        assert ids[0] == "human" and ids[1 : 1 + len(cls.bot_types)] == list(cls.bot_types)
    assert by["connect4"]["solver"] and not by["tictactoe"]["solver"]
    assert "pretrained" in [o["id"] for o in by["connect4"]["opponents"]]
    assert "pretrained" not in [o["id"] for o in by["gomoku"]["opponents"]]


@pytest.mark.parametrize(
    "body, pattern",
    [
        (
            {"game": "chess"},
            r"game: expected one of \['connect4', 'gomoku', 'othello', 'tictactoe'\], got 'chess'",
        ),
        ({}, r"game: expected one of .* got None"),
        (
            {"game": "connect4", "opponent": "alpha_beta"},
            r"opponent: expected one of .*'perfect'.* got 'alpha_beta'",
        ),
        (
            {"game": "tictactoe", "colour": "red"},
            r"colour: expected 'first' or 'second', got 'red'",
        ),
        (
            {"game": "tictactoe", "opponent": "mcts", "simulations": 0},
            r"simulations: expected an integer 1-20000",
        ),
        ({"game": "tictactoe", "opponent": "mcts", "simulations": "9"}, r"got '9'"),
        (
            {"game": "tictactoe", "opponent": "rule", "simulations": 5},
            r"simulations: the rule bot takes none",
        ),
        ({"game": "tictactoe", "seed": -1}, r"seed: expected an integer"),
        (
            {"game": "tictactoe", "board_size": 5},
            r"board_size: expected 3 \(TicTacToe is 3x3\), got 5",
        ),
        ({"game": "gomoku", "board_size": 99}, r"expected board_size an int in \[5, 19\], got 99"),
        ({"game": "tictactoe", "path": "/etc/passwd"}, r"unknown keys \['path'\]"),
    ],
)
def test_bad_new_games_are_refused(client, app, body, pattern):
    before = len(app.sessions)
    error_of(*client.call("POST", "/api/sessions", body), 400, pattern)
    assert len(app.sessions) == before


def test_bad_moves_are_refused_and_change_nothing(client):
    state = client.new(game="tictactoe", opponent="human")
    sid = state["id"]
    state = client.call("POST", f"/api/sessions/{sid}/move", {"action": 4})[1]
    cases = [
        ({"action": 4}, 400, r"^illegal move 5: 5 is taken; legal now: 1, 2, 3, 4, 6, 7, 8, 9$"),
        ({"action": 9}, 400, r"^illegal move: expected a legal action, got 9"),
        ({"action": -1}, 400, r"^illegal move: expected a legal action, got -1"),
        ({"action": "3"}, 400, r"action: expected an integer 0-8, got '3'"),
        ({"action": 2.0}, 400, r"action: expected an integer"),
        ({"action": True}, 400, r"action: expected an integer"),
        ({"move": "10"}, 400, r"move: expected a cell 1-9"),
        ({"move": "x"}, 400, r"move: expected a cell 1-9 .* got 'x'"),
        ({"move": 5}, 400, r"move: expected text"),
        ({"move": "5", "action": 4}, 400, r"expected a body with one of"),
        ({}, 400, r"expected a body with one of"),
        ({"action": 1, "eval": "x"}, 400, r"expected a body with one of"),
    ]
    for body, code, pattern in cases:
        error_of(*client.call("POST", f"/api/sessions/{sid}/move", body), code, pattern)
        assert client.call("GET", f"/api/sessions/{sid}")[1] == state
    # The same move typed as at the terminal ('5' is the centre) is the same illegal move.
    error_of(
        *client.call("POST", f"/api/sessions/{sid}/move", {"move": "5"}),
        400,
        "illegal move 5: 5 is taken",
    )


def test_a_finished_game_takes_no_move(client):
    sid = client.new(game="tictactoe", opponent="human")["id"]
    for a in (0, 3, 1, 4, 2):
        status, state = client.call("POST", f"/api/sessions/{sid}/move", {"action": a})
        assert status == 200
    assert state["over"] and state["winner"] == 1 and state["winning_cells"] == [0, 1, 2]
    assert state["status"] == "X wins" and state["legal"] == []
    error_of(
        *client.call("POST", f"/api/sessions/{sid}/move", {"action": 5}), 409, "the game is over"
    )
    assert client.call("GET", f"/api/sessions/{sid}")[1] == state


def test_broken_oversized_and_strange_bodies(client):
    sid = client.new(game="tictactoe", opponent="human")["id"]
    path = f"/api/sessions/{sid}/move"
    before = client.call("GET", f"/api/sessions/{sid}")[1]
    error_of(
        *client.raw("POST", path, b"{bad json"),
        400,
        r"body: expected a JSON object, got invalid JSON",
    )
    error_of(*client.raw("POST", path, b"[1, 2]"), 400, r"body: expected a JSON object, got list")
    error_of(*client.raw("POST", path, b"\xff\xfe"), 400, r"invalid JSON")
    big = b'{"action": 1, "pad": "' + b"x" * server_module.MAX_BODY + b'"}'
    error_of(*client.raw("POST", path, big), 413, r"body of \d+ bytes: at most 16384")
    error_of(
        *client.raw("POST", path, b"{}", {"Content-Length": "abc"}),
        400,
        r"Content-Length: expected a number",
    )
    error_of(*client.call("GET", "/api/sessions/nope"), 404, r"no such game")
    error_of(*client.call("POST", "/api/sessions/nope/move", {"action": 1}), 404, r"no such game")
    error_of(*client.call("GET", f"/api/sessions/{sid}/explode"), 404, r"no such API call")
    error_of(*client.call("PUT", f"/api/sessions/{sid}"), 405, r"no such API call: PUT")
    error_of(*client.call("GET", "/static/../setup.py"), 404, r"no such page")
    error_of(*client.call("GET", "/static/setup.py"), 404, r"no such file: 'setup.py'")
    assert client.call("GET", f"/api/sessions/{sid}")[1] == before


class Gate:
    """Holds every bot move of the sessions it patches until released."""

    def __init__(self, monkeypatch):
        self.release = threading.Event()
        self.started = threading.Event()
        original = GameSession._bot_move
        gate = self

        def slow(session, board, player):
            if getattr(session, "gated", False):
                gate.started.set()
                assert gate.release.wait(30)
            return original(session, board, player)

        monkeypatch.setattr(GameSession, "_bot_move", slow)


def test_a_move_out_of_turn_is_refused_and_a_slow_bot_blocks_no_other_game(
    client, app, monkeypatch
):
    gate = Gate(monkeypatch)
    real_init = GameSession.__init__

    def init(self, *args, **kwargs):
        self.gated = kwargs.pop("gated", False) or getattr(init, "next_gated", False)
        init.next_gated = False
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(GameSession, "__init__", init)
    init.next_gated = True
    slow = client.new(game="connect4", opponent="rule", colour="second")
    assert gate.started.wait(30) and slow["thinking"]
    error_of(
        *client.call("POST", f"/api/sessions/{slow['id']}/move", {"action": 3}),
        409,
        r"not your turn: the rule bot is to move",
    )
    # Meanwhile another game against the same kind of bot is played to its end.
    other = client.new(game="connect4", opponent="rule", colour="first")
    rng = random.Random(1)
    while not other["over"]:
        other = client.call(
            "POST", f"/api/sessions/{other['id']}/move", {"action": rng.choice(other["legal"])}
        )[1]
        other = client.wait(other["id"])
    assert client.call("GET", f"/api/sessions/{slow['id']}")[1]["thinking"]
    gate.release.set()
    state = client.wait(slow["id"])
    assert len(state["moves"]) == 1 and not state["thinking"]


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(sorted(ENVS)), data=st.data())
def test_random_moves_through_the_api_equal_the_env(client, game, data):
    env = ENVS[game](
        {"battle_mode": "self_play_mode"} | ({"board_size": 6} if game == "gomoku" else {})
    )
    env.reset()
    body = {"game": game, "opponent": "human"} | ({"board_size": 6} if game == "gomoku" else {})
    sid = client.new(**body)["id"]
    size = env.rules.action_size
    for _ in range(data.draw(st.integers(1, 40))):
        action = data.draw(st.integers(-2, size + 1))
        try:
            env.step(action)
            ok = True
        except LZeroError:
            ok = False
        status, state = client.call("POST", f"/api/sessions/{sid}/move", {"action": action})
        assert (status == 200) == ok, (action, state)
        state = client.call("GET", f"/api/sessions/{sid}")[1]
        assert np.array_equal(np.array(state["board"]), env.board)
        assert state["legal"] == env.legal_actions and state["to_play"] == env.current_player
        assert state["over"] == env.get_done_winner()[0]
        if state["over"]:
            assert state["winner"] == env.get_done_winner()[1]
            break


def test_a_thousand_malformed_requests_leave_the_server_and_its_games_intact(client):
    sid = client.new(game="connect4", opponent="human")["id"]
    client.call("POST", f"/api/sessions/{sid}/move", {"action": 3})
    before = client.call("GET", f"/api/sessions/{sid}")[1]
    rng = random.Random(0)
    paths = ["/api/sessions", f"/api/sessions/{sid}/move", f"/api/sessions/{sid}/undo",
             f"/api/sessions/{sid}x/move", "/api/games", "/api/%00", "/" + "a" * 300]  # fmt: skip
    bodies = [b"", b"{", b"null", b"[]", b'{"action": "1"}', b'{"move": []}', b'{"game": 7}',
              b'{"action": 99}', b'{"action": -5}', bytes(rng.randrange(256) for _ in range(64)),
              b'{"game": "connect4", "opponent": "agent:../../etc"}']  # fmt: skip
    statuses = set()
    for i in range(1000):
        path = rng.choice(paths)
        body = rng.choice(bodies)
        if path.endswith("/undo") or path == "/api/sessions":
            body = rng.choice(bodies[1:-1])
            if path == "/api/sessions" and body in (b"", b"null"):
                body = b"{"
        status, reply = client.raw(
            rng.choice(["POST", "GET"]) if i % 7 == 0 else "POST", path, body
        )
        statuses.add(status)
        assert 400 <= status < 500 or (status in (200, 201) and "/api/games" in path), (
            path,
            body,
            reply,
        )
        if isinstance(reply, dict) and "error" in reply:
            assert reply["error"]["status"] == status
    assert statuses <= {200, 400, 404, 405, 409}
    assert client.call("GET", f"/api/sessions/{sid}")[1] == before
    assert client.call("POST", f"/api/sessions/{sid}/move", {"action": 4})[0] == 200


def test_undo_takes_back_the_persons_move_and_the_reply(client):
    state = client.wait(client.new(game="connect4", opponent="rule", colour="second")["id"])
    sid, first = state["id"], state
    assert len(first["moves"]) == 1  # the bot opened
    error_of(*client.call("POST", f"/api/sessions/{sid}/undo"), 409, r"you have made no move")
    client.call("POST", f"/api/sessions/{sid}/move", {"action": 0})
    second = client.wait(sid)
    assert len(second["moves"]) == 3
    client.call("POST", f"/api/sessions/{sid}/move", {"action": 6})
    client.wait(sid)
    undone = client.call("POST", f"/api/sessions/{sid}/undo")[1]
    assert undone["board"] == second["board"] and undone["moves"] == second["moves"]
    undone = client.call("POST", f"/api/sessions/{sid}/undo")[1]
    assert undone["board"] == first["board"] and not undone["thinking"]
    restarted = client.call("POST", f"/api/sessions/{sid}/new")[1]
    assert restarted["thinking"] or len(restarted["moves"]) == 1


def test_same_seed_same_game(client):
    games = []
    for _ in range(2):
        sid = client.new(game="gomoku", board_size=7, opponent="mcts", simulations=200, seed=11)[
            "id"
        ]
        for move in ("d4", "c3", "e5"):
            state = client.call("POST", f"/api/sessions/{sid}/move", {"move": move})[1]
            state = client.wait(sid)
            if state["over"]:
                break
        games.append(state["moves"])
    assert games[0] == games[1] and len(games[0]) >= 4


def test_analysis_is_the_solvers(client):
    sid = client.new(game="connect4", opponent="human")["id"]
    solver = Connect4Solver(opening_book=True)
    for column in (3, 3, 2, 4, 0):
        client.call("POST", f"/api/sessions/{sid}/move", {"action": column})
        state = client.call("GET", f"/api/sessions/{sid}")[1]
        data = client.call("GET", f"/api/sessions/{sid}/analysis")[1]
        assert data["solver"] == solver.analyze("".join(state["moves"]))
        assert data["agent"] is None


def test_the_gif_and_the_move_list(client):
    sid = client.new(game="tictactoe", opponent="human")["id"]
    for a in (4, 0, 8, 2, 1):
        client.call("POST", f"/api/sessions/{sid}/move", {"action": a})
    status, gif = client.call("GET", f"/api/sessions/{sid}/game.gif")
    assert status == 200 and gif[:6] == b"GIF89a"
    image = Image.open(io.BytesIO(gif))
    assert image.n_frames == 6  # the start, then one frame a move
    status, text = client.call("GET", f"/api/sessions/{sid}/moves.txt")
    assert text.decode().splitlines() == [
        "# tictactoe: X player 1, O player 2", "1. X 5", "2. O 1", "3. X 9", "4. O 3", "5. X 2",
        "# O to move",
    ]  # fmt: skip


def test_games_are_bounded_in_number_expire_and_have_unguessable_ids(served):
    app, client = served(max_sessions=3, session_minutes=1.0)
    ids = [client.new(game="tictactoe", opponent="human")["id"] for _ in range(3)]
    assert len(set(ids)) == 3 and all(len(i) >= 24 for i in ids)
    error_of(
        *client.call("POST", "/api/sessions", {"game": "tictactoe"}),
        429,
        r"too many live games \(3\)",
    )
    assert client.call("DELETE", f"/api/sessions/{ids[0]}")[0] == 200
    error_of(*client.call("GET", f"/api/sessions/{ids[0]}"), 404, r"no such game")
    client.new(game="tictactoe", opponent="human")
    for session in app.sessions.values():  # a minute untouched: expired
        session.last_used -= 61.0
    ids.append(client.new(game="tictactoe", opponent="human")["id"])
    assert list(app.sessions) == ids[-1:]


def test_the_shipped_agent_plays_and_shows_its_search(client):
    sid = client.new(game="tictactoe", opponent="pretrained", colour="second", simulations=16)["id"]
    state = client.wait(sid)
    view = state["agent_view"]
    assert len(state["moves"]) == 1 and view["action"] == state["actions"][0]
    assert view["simulations"] == 16 and abs(sum(view["policy"]) - 1) < 1e-3
    assert -1 <= view["value"] <= 1
    client.call(
        "POST",
        f"/api/sessions/{sid}/move",
        {"action": next(a for a in range(9) if a != view["action"])},
    )
    state = client.wait(sid)
    if not state["over"]:
        data = client.call("GET", f"/api/sessions/{sid}/analysis")[1]
        assert data["solver"] is None and data["agent"]["simulations"] == 16
        assert data["agent"]["policy"][state["actions"][0]] == 0  # occupied cells get nothing
