"""``lzero serve``: play the board games in a browser, against the bots, the shipped agents and
agents given with ``--agent NAME=PATH``, with the solver's and the agent's view beside it."""

from __future__ import annotations

import argparse
import os
import re
import sys

from lzero.cli import DefaultsHelp
from lzero.cli_train import int_in, positive_int, positive_minutes
from lzero.errors import ConfigError
from zoo.board_games.serve.players import AgentBook

#: An agent's name on the page and in the API: letters, digits, ``_``, ``-`` and ``.``.
AGENT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def agent_arg(text: str) -> tuple[str, str]:
    """argparse type of ``--agent NAME=PATH``."""
    name, sep, path = text.partition("=")
    if not sep or not AGENT_NAME.fullmatch(name) or not path:
        raise argparse.ArgumentTypeError(
            f"expected NAME=PATH (NAME of letters, digits, _ - . up to 40; PATH a checkpoint of "
            f"lzero train), got {text!r}"
        )
    return name, os.path.expanduser(path)


def load_agents(pairs: list[tuple[str, str]]) -> AgentBook:
    """Checks that every ``--agent`` loads (before the server starts) and records its game.

    Raises:
        ValueError: a name given twice.
        ConfigError: a checkpoint that does not load, with the reason.
    """
    from lzero.agent import load_agent

    paths, games = {}, {}
    for name, path in pairs:
        if name in paths:
            raise ValueError(f"--agent: the name {name!r} is given twice")
        try:
            agent = load_agent(path)
        except (OSError, ValueError, ConfigError) as err:
            raise ConfigError(f"--agent {name}={path}: {err}") from None
        paths[name] = path
        games[name] = (agent.game.name, (agent.game.height, agent.game.width))
    return AgentBook(paths, games)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serves the page until Ctrl-C (exit code 0) or SIGTERM."""
    from zoo.board_games.serve.server import ServeApp, make_server

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # GIFs are drawn off-screen
    agents = load_agents(args.agent or [])
    app = ServeApp(agents, seed=args.seed, max_sessions=args.max_games,
                   session_minutes=args.session_minutes, log=args.log)  # fmt: skip
    try:
        server = make_server(app, args.host, args.port)
    except OSError as err:
        app.close()
        raise ConfigError(
            f"cannot listen on {args.host}:{args.port}: {err.strerror or err}"
        ) from None
    host, port = server.server_address[:2]
    if args.host not in LOOPBACK:
        print(
            f"warning: listening on {args.host}, not only this machine: anyone who can reach it "
            "can play here and use its CPU",
            file=sys.stderr,
        )
    shown = f"[{host}]" if ":" in host else host
    print(f"lzero serve: open http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped")
    finally:
        server.server_close()
        app.close()
    return 0


def add_serve_subcommand(subparsers, run) -> None:
    """Registers ``serve``; ``run`` wraps the command (one-line errors)."""
    p = subparsers.add_parser(
        "serve", formatter_class=DefaultsHelp, help="play the board games in a browser"
    )
    p.add_argument(
        "--port", type=int_in(0, 65536, "a port 0-65535"), default=8000,
        help="port to listen on (0: any free one)",
    )  # fmt: skip
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument(
        "--agent", type=agent_arg, action="append", metavar="NAME=PATH",
        help="offer a checkpoint of lzero train as opponent NAME (repeatable)",
    )  # fmt: skip
    p.add_argument(
        "--seed", type=int_in(0, 2**61, "an int in [0, 2**61)"), default=0,
        help="seed of the first game (then +1 a game)",
    )  # fmt: skip
    p.add_argument("--max-games", type=positive_int, default=200, help="live games at most")
    p.add_argument(
        "--session-minutes", type=positive_minutes, default=60.0,
        help="an untouched game ends after this",
    )  # fmt: skip
    p.add_argument("--log", action="store_true", help="print each request")
    p.set_defaults(func=run(cmd_serve))
