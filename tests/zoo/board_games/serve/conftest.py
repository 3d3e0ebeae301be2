"""A ``lzero serve`` app in this process on a free port, and a JSON client for it."""

from __future__ import annotations

import http.client
import json
import threading

import pytest

from zoo.board_games.serve.server import ServeApp, make_server


class Client:
    """Calls the API at ``port``; returns ``(status, parsed JSON or raw bytes)``."""

    def __init__(self, port: int) -> None:
        self.port = port

    def raw(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            data = response.read()
            kind = response.getheader("Content-Type", "")
            return response.status, json.loads(data) if kind == "application/json" else data
        finally:
            conn.close()

    def call(self, method: str, path: str, body=None):
        data = None if body is None else json.dumps(body).encode()
        return self.raw(method, path, data, {"Content-Type": "application/json"})

    def new(self, **body) -> dict:
        status, state = self.call("POST", "/api/sessions", body)
        assert status == 201, state
        return state

    def wait(self, sid: str, timeout: float = 60.0) -> dict:
        """The state once the opponent has moved."""
        import time

        end = time.monotonic() + timeout
        while True:
            status, state = self.call("GET", f"/api/sessions/{sid}")
            assert status == 200, state
            if not state["thinking"] or time.monotonic() > end:
                return state
            time.sleep(0.02)


def serve(app: ServeApp):
    server = make_server(app, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture(scope="module")
def app():
    app = ServeApp(seed=0)
    server = serve(app)
    app.port = server.server_port
    yield app
    server.shutdown()
    server.server_close()
    app.close()


@pytest.fixture(scope="module")
def client(app) -> Client:
    return Client(app.port)


@pytest.fixture
def served():
    """``served(**ServeApp options) -> (app, client)``: a server of its own, stopped after."""
    started = []

    def start(**options):
        app = ServeApp(**options)
        server = serve(app)
        started.append((app, server))
        return app, Client(server.server_port)

    yield start
    for app, server in started:
        server.shutdown()
        server.server_close()
        app.close()
