"""``lzero serve``'s HTTP server: a JSON API over :class:`GameSession` and the page's files.

The standard library's threaded HTTP server is enough here: one JSON API and a few static
files, each request on its own thread, the opponents' thinking on a small worker pool. A
framework would add a dependency and nothing this needs.

API (every error is ``{"error": {"status": N, "message": "..."}}`` with a 4xx or 5xx status):

* ``GET /api/games``: the games, their boards and opponents.
* ``POST /api/sessions`` ``{"game", "opponent", "colour": "first"|"second", "simulations",
  "board_size", "seed"}``: a new game; returns its state (with its ``id``).
* ``GET /api/sessions/ID``: the state; ``POST .../move`` ``{"action": N}`` or ``{"move":
  "4"}``; ``POST .../undo``; ``POST .../new``; ``DELETE /api/sessions/ID``.
* ``GET .../analysis``: the solver's scores and the agent's view; ``GET .../game.gif``,
  ``GET .../moves.txt``: the game as a GIF and as its move list.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from lzero.errors import LZeroError
from zoo.board_games.games import board_games
from zoo.board_games.serve.players import HUMAN, AgentBook, catalogue
from zoo.board_games.serve.session import GameSession, GameSpec, RequestError, shown

#: Largest request body accepted, in bytes (a move is about 20).
MAX_BODY = 16 * 1024
#: Live games at most, and how long an untouched one lives.
MAX_SESSIONS, SESSION_MINUTES = 200, 60.0
#: Files of the page, served by name from the package (never a path from the client).
STATIC_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".png": "image/png",
}


def _static_files() -> dict[str, tuple[bytes, str]]:
    folder = resources.files("zoo.board_games.serve") / "static"
    out = {}
    for entry in folder.iterdir():
        ext = entry.name[entry.name.rfind(".") :]
        if entry.is_file() and ext in STATIC_TYPES:
            out[entry.name] = (entry.read_bytes(), STATIC_TYPES[ext])
    return out


class ServeApp:
    """The games, sessions and opponents of one server.

    Args:
        agents: the ``--agent`` agents.
        seed: seed of the games (each new game takes the next one unless the client gives
            one).
        max_sessions: live games at most; a new one beyond that is refused (429).
        session_minutes: an untouched game ends after this long.
        workers: threads the opponents think on.
        log: print each request (to stderr).
    """

    def __init__(
        self,
        agents: AgentBook | None = None,
        *,
        seed: int = 0,
        max_sessions: int = MAX_SESSIONS,
        session_minutes: float = SESSION_MINUTES,
        workers: int = 4,
        log: bool = False,
    ) -> None:
        self.games = board_games()
        self.agents = agents or AgentBook({}, {})
        self.max_sessions, self.ttl = max_sessions, session_minutes * 60.0
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lzero-serve")
        self.sessions: dict[str, GameSession] = {}
        self._specs: dict[tuple[str, int | None], GameSpec] = {}
        self._lock = threading.Lock()
        self._next_seed = seed
        self.static = _static_files()
        self.log = log

    # -- games ---------------------------------------------------------------------------
    def spec(self, name: Any, board_size: Any = None) -> GameSpec:
        if not isinstance(name, str) or name not in self.games:
            raise RequestError(
                400, f"game: expected one of {sorted(self.games)}, got {shown(name)}"
            )
        cls = self.games[name]
        if board_size is not None and type(board_size) is not int:
            raise RequestError(400, f"board_size: expected an integer, got {shown(board_size)}")
        key = (name, board_size)
        with self._lock:
            if key not in self._specs:
                cfg = {} if board_size is None else {"board_size": board_size}
                try:
                    env = cls({**cfg, "battle_mode": "self_play_mode"})
                except (ValueError, LZeroError) as err:  # the env's message names board_size
                    raise RequestError(400, str(err)) from None
                shape = (env.rules.height, env.rules.width)
                env.close()
                opponents = tuple(catalogue(cls, name, shape, self.agents))
                self._specs[key] = GameSpec(name, cls, cfg, shape, opponents)
            return self._specs[key]

    def list_games(self) -> dict:
        out = []
        for name in sorted(self.games):
            spec, cls = self.spec(name), self.games[name]
            out.append(
                {
                    "name": name,
                    "height": spec.shape[0],
                    "width": spec.shape[1],
                    "move_style": cls.move_style,
                    "board_size": self._sizes_of(name),
                    "opponents": [o.as_json() for o in spec.opponents],
                    "solver": cls.exact_scores is not None,
                }
            )
        return {"games": out}

    def _sizes_of(self, name: str) -> int | None:
        """The default board size of a game played on several (Gomoku), else None."""
        cls = self.games[name]
        return cls.config.get("board_size") if cls.board_sizes else None

    # -- sessions ------------------------------------------------------------------------
    def create(self, body: dict) -> dict:
        allowed = {"game", "opponent", "colour", "simulations", "board_size", "seed"}
        if set(body) - allowed:
            raise RequestError(
                400,
                f"new game: unknown keys {sorted(set(body) - allowed)}; allowed: {sorted(allowed)}",
            )
        spec = self.spec(body.get("game"), body.get("board_size"))
        opponent = spec.opponent(body.get("opponent", "rule"))
        colour = body.get("colour", "first")
        if colour not in ("first", "second"):
            raise RequestError(400, f"colour: expected 'first' or 'second', got {shown(colour)}")
        sims = body.get("simulations")
        if sims is not None:
            if opponent.max_simulations is None:
                raise RequestError(
                    400, f"simulations: the {opponent.label} takes none, got {shown(sims)}"
                )
            if (
                type(sims) is not int
                or not opponent.min_simulations <= sims <= opponent.max_simulations
            ):
                raise RequestError(
                    400,
                    f"simulations: expected an integer {opponent.min_simulations}-"
                    f"{opponent.max_simulations} for the {opponent.label}, got {shown(sims)}",
                )
        elif opponent.simulations is not None:
            sims = opponent.simulations
        seed = body.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**62):
            raise RequestError(400, f"seed: expected an integer 0-2**62, got {shown(seed)}")
        humans = (1, 2) if opponent.id == HUMAN else (1,) if colour == "first" else (2,)
        agent_path = None
        if opponent.id.startswith("agent:"):
            agent_path = self.agents.paths[opponent.id[len("agent:") :]]
        with self._lock:
            self._expire()
            if len(self.sessions) >= self.max_sessions:
                raise RequestError(
                    429,
                    f"too many live games ({self.max_sessions}): end one, or wait for one to expire",
                )
            if seed is None:
                seed, self._next_seed = self._next_seed, self._next_seed + 1
            sid = secrets.token_urlsafe(18)
            session = GameSession(
                sid, spec, opponent, sims, humans, seed, self.pool, self.agents, agent_path
            )
            self.sessions[sid] = session
        return session.state()

    def session(self, sid: str) -> GameSession:
        with self._lock:
            self._expire()
            session = self.sessions.get(sid)
            if session is None:
                raise RequestError(404, "no such game: it ended, expired, or the id is wrong")
            session.last_used = time.monotonic()
            return session

    def end(self, sid: str) -> dict:
        with self._lock:
            if self.sessions.pop(sid, None) is None:
                raise RequestError(404, "no such game: it ended, expired, or the id is wrong")
        return {"ended": sid}

    def _expire(self) -> None:
        now = time.monotonic()
        for sid in [s for s, g in self.sessions.items() if now - g.last_used > self.ttl]:
            del self.sessions[sid]

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def make_handler(app: ServeApp) -> type:
    """The request handler class of ``app``."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "lzero-serve"
        protocol_version = "HTTP/1.1"
        timeout = 30  # seconds a client may take to send its request (a body shorter than
        # its Content-Length would otherwise hold a thread forever)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
            if app.log:
                super().log_message(format, *args)

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

        def do_DELETE(self) -> None:
            self._handle("DELETE")

        def do_PUT(self) -> None:
            self._handle("PUT")

        def do_PATCH(self) -> None:
            self._handle("PATCH")

        def _handle(self, method: str) -> None:
            try:
                body = self._body() if method in ("POST", "PUT", "PATCH") else {}
                self._route(method, self.path.split("?", 1)[0], body)
            except RequestError as err:
                self._json({"error": {"status": err.status, "message": err.message}}, err.status)
            except Exception as err:  # a bug: said, not swallowed, and the server goes on
                traceback.print_exc()
                self._json(
                    {
                        "error": {
                            "status": 500,
                            "message": f"server error: {type(err).__name__}: {err}",
                        }
                    },
                    500,
                )

        def _body(self) -> dict:
            length = self.headers.get("Content-Length")
            if length is None:
                if self.headers.get("Transfer-Encoding"):
                    self.close_connection = True
                    raise RequestError(411, "expected a Content-Length, got a chunked body")
                return {}
            if not length.isdigit():
                self.close_connection = True
                raise RequestError(400, f"Content-Length: expected a number, got {shown(length)}")
            n = int(length)
            if n > MAX_BODY:
                self.close_connection = True  # the body is not read
                raise RequestError(413, f"body of {n} bytes: at most {MAX_BODY} are accepted")
            raw = self.rfile.read(n)
            if not raw.strip():
                return {}
            try:
                body = json.loads(raw)
            except (UnicodeDecodeError, json.JSONDecodeError) as err:
                raise RequestError(
                    400, f"body: expected a JSON object, got invalid JSON ({err})"
                ) from None
            if not isinstance(body, dict):
                raise RequestError(400, f"body: expected a JSON object, got {type(body).__name__}")
            return body

        def _route(self, method: str, path: str, body: dict) -> None:
            parts = [p for p in path.split("/") if p]
            if method == "GET" and parts in ([], ["index.html"]):
                return self._file("index.html")
            if method == "GET" and parts == ["favicon.ico"]:
                return self._send(b"", "image/x-icon", status=204)
            if method == "GET" and len(parts) == 2 and parts[0] == "static":
                return self._file(parts[1])
            if parts[:1] != ["api"]:
                raise RequestError(404, f"no such page: {shown(path)}")
            rest = parts[1:]
            if rest == ["games"] and method == "GET":
                return self._json(app.list_games())
            if rest == ["sessions"] and method == "POST":
                return self._json(app.create(body), 201)
            if len(rest) >= 2 and rest[0] == "sessions":
                sid, action = rest[1], "/".join(rest[2:])
                if method == "DELETE" and not action:
                    return self._json(app.end(sid))
                session = app.session(sid)
                if action in ("undo", "new") and body:
                    raise RequestError(
                        400, f"{action}: expected no body (or {{}}), got keys {sorted(body)}"
                    )
                routes = {
                    ("GET", ""): lambda: self._json(session.state()),
                    ("POST", "move"): lambda: self._json(session.move(body)),
                    ("POST", "undo"): lambda: self._json(session.undo()),
                    ("POST", "new"): lambda: self._json(session.restart()),
                    ("GET", "analysis"): lambda: self._json(session.analysis()),
                    ("GET", "game.gif"): lambda: self._send(session.gif(), "image/gif", "game.gif"),
                    ("GET", "moves.txt"): lambda: self._send(
                        session.move_list().encode(), "text/plain; charset=utf-8", "moves.txt"
                    ),
                }
                handler = routes.get((method, action))
                if handler is not None:
                    return handler()
            raise RequestError(
                404 if method == "GET" else 405, f"no such API call: {method} {shown(path)}"
            )

        def _file(self, name: str) -> None:
            found = app.static.get(name)
            if found is None:
                raise RequestError(404, f"no such file: {shown(name)}")
            self._send(*found)

        def _json(self, data: Any, status: int = 200) -> None:
            self._send(json.dumps(data).encode(), "application/json", status=status)

        def _send(
            self, data: bytes, kind: str, download: str | None = None, status: int = 200
        ) -> None:
            self.send_response(status, HTTPStatus(status).phrase)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            if download:
                self.send_header("Content-Disposition", f'attachment; filename="{download}"')
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)

    return Handler


def make_server(app: ServeApp, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A threaded HTTP server of ``app`` on ``host:port`` (port 0: any free one)."""
    server = ThreadingHTTPServer((host, port), make_handler(app))
    server.daemon_threads = True
    return server
