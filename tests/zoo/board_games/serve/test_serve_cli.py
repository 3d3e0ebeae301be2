"""``lzero serve`` as a user starts it: the address printed, the page served, Ctrl-C a clean
exit, a warning off loopback, and bad ``--agent`` values refused before it listens."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest
from cli_process import read_until

from lzero.pretrained import pretrained_path

SERVE = [sys.executable, "-m", "zoo.board_games.cli", "serve", "--port", "0"]


def _start(*extra: str) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [*SERVE, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    out = read_until(proc, b"(Ctrl-C stops)", timeout=120)
    url = re.search(rb"open (http://\S+/)", out).group(1).decode()
    return proc, url


def test_serve_prints_its_address_serves_the_page_and_stops_on_ctrl_c():
    proc, url = _start()
    try:
        assert url.startswith("http://127.0.0.1:")
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        assert '<script type="module" src="/static/app.js">' in page
        games = json.load(urllib.request.urlopen(url + "api/games", timeout=30))
        assert [g["name"] for g in games["games"]] == ["connect4", "gomoku", "othello", "tictactoe"]
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert b"stopped" in out and b"Traceback" not in err


def test_serve_warns_when_it_listens_beyond_this_machine():
    proc, url = _start("--host", "0.0.0.0")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert b"warning: listening on 0.0.0.0, not only this machine" in err


@pytest.mark.parametrize(
    "agent, message",
    [
        ("noequals", "--agent: expected NAME=PATH"),
        ("bad/name=x.pth.tar", "--agent: expected NAME=PATH"),
        ("a=/no/such/file.pth.tar", "error: --agent a=/no/such/file.pth.tar: "),
    ],
)
def test_bad_agents_are_refused_before_it_listens(agent, message):
    proc = subprocess.run([*SERVE, "--agent", agent], capture_output=True, timeout=120)
    assert proc.returncode == 2
    assert message in proc.stderr.decode() and b"Ctrl-C stops" not in proc.stdout


def test_an_agent_given_by_name_is_offered_for_its_game_only():
    path = str(pretrained_path("tictactoe"))
    proc, url = _start("--agent", f"mine={path}")
    try:
        games = json.load(urllib.request.urlopen(url + "api/games", timeout=30))["games"]
        offered = {g["name"]: [o["id"] for o in g["opponents"]] for g in games}
        assert "agent:mine" in offered["tictactoe"] and "agent:mine" not in offered["connect4"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)


@pytest.mark.parametrize(
    "options, message",
    [
        (["--port", "70000"], "argument --port: expected a port 0-65535, got '70000'"),
        (["--max-games", "0"], "argument --max-games: expected a positive int, got '0'"),
        (["--session-minutes", "-1"], "expected a finite number of minutes > 0, got '-1'"),
        (["--seed", "-3"], "argument --seed: expected an int in [0, 2**61), got '-3'"),
    ],
)
def test_bad_options_are_refused(options, message, capsys):
    from zoo.board_games.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["serve", *options])
    assert stop.value.code == 2 and message in capsys.readouterr().err


def test_a_port_in_use_is_a_clear_error():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run([*SERVE[:-2], "--port", str(port)], capture_output=True, timeout=120)
    assert proc.returncode == 2
    assert (
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use" in proc.stderr.decode()
    )
