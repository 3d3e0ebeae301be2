"""One game played on the page: its env, its moves, its opponent and the opponent's thinking.

The env checks every move; the page only shows what :meth:`GameSession.state` says. An
opponent's move is computed on the server's worker threads, never on a request's: the request
that made the move returns at once with ``thinking`` set, and the page asks again. A move or an
undo while the opponent thinks is refused, or (undo, new game) makes its move be dropped: each
change of the position bumps ``version``, and a move computed for an older version is not
played.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
import traceback
from concurrent.futures import Executor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, NamedTuple

import numpy as np

from lzero.errors import ConfigError, LZeroError
from zoo.board_games import human_input
from zoo.board_games.drawing import winning_cells
from zoo.board_games.render import write_gif
from zoo.board_games.serve.players import HUMAN, PRETRAINED, AgentBook, Opponent

#: How long the analysis of one position may take before the request gives up.
ANALYSIS_TIMEOUT_S = 120.0
#: A game's solver (the analysis, the perfect bot) keeps its transposition table per process
#: and searches without the GIL: one search at a time.
_SOLVER_LOCK = threading.Lock()
#: Bots that search with a process-wide solver.
SOLVER_BOTS = ("perfect", "alpha_beta")


class RequestError(Exception):
    """A request the server refuses: ``status`` (4xx) and a message saying what was wrong and
    what is allowed. Nothing was changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class GameSpec(NamedTuple):
    """A game as the server offers it: its registry name, env class, config and board."""

    name: str
    env_cls: type
    cfg: dict
    shape: tuple[int, int]
    opponents: tuple[Opponent, ...]

    def opponent(self, ident: Any) -> Opponent:
        for o in self.opponents:
            if o.id == ident:
                if o.unavailable:
                    raise RequestError(400, f"opponent {ident!r}: {o.unavailable}")
                return o
        raise RequestError(
            400,
            f"opponent: expected one of {[o.id for o in self.opponents]} for {self.name}, "
            f"got {shown(ident)}",
        )


def shown(value: Any) -> str:
    """``repr`` of a client's value, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "..."


class GameSession:
    """A game between a person and an opponent (a bot, an agent, or a second person).

    Args:
        sid: the session's unguessable id.
        spec: the game.
        opponent: who plays the colour(s) the person does not.
        simulations: the opponent's simulations a move (checked against ``opponent``).
        human_players: the players (1 is X, who moves first) the page moves for.
        seed: seed of the env and the bot's moves (same seed and moves, same game).
        pool: the worker threads the opponent thinks on.
        agents: where agents are loaded from.
        agent_path: the checkpoint of an agent opponent (chosen by the server, never the client).
    """

    def __init__(
        self,
        sid: str,
        spec: GameSpec,
        opponent: Opponent,
        simulations: int | None,
        human_players: tuple[int, ...],
        seed: int,
        pool: Executor,
        agents: AgentBook,
        agent_path: str | None = None,
    ) -> None:
        self.sid, self.spec, self.opponent, self.simulations = sid, spec, opponent, simulations
        self.humans, self.seed = tuple(human_players), seed
        self._pool, self._agents, self._agent_path = pool, agents, agent_path
        self._lock = threading.Lock()
        self.last_used = time.monotonic()
        self.env = spec.env_cls({**spec.cfg, "battle_mode": "self_play_mode"})
        self.env.seed(seed, dynamic_seed=False)
        self._thinker = None
        if opponent.id not in (HUMAN, PRETRAINED) and not opponent.id.startswith("agent:"):
            cfg = {**spec.cfg, "battle_mode": "self_play_mode", "bot_action_type": opponent.id}
            if simulations is not None:
                cfg["mcts_bot_num_simulations"] = simulations
            self._thinker = spec.env_cls(cfg)
            self._thinker.seed(seed + 1, dynamic_seed=False)
            self._thinker.reset()
        self.moves: list[int] = []
        self.version = 0
        self.thinking = False
        self.error: str | None = None  # why the opponent could not move
        self.agent_view: dict | None = None  # the search behind the agent's last move
        with self._lock:
            self._replay()
            self._schedule()

    # -- what the page sees -------------------------------------------------------------
    def state(self) -> dict:
        """The game as JSON: board rows (0 empty, 1 X, 2 O; row 0 on top), the player to move,
        the moves as typed, the legal moves, the result and its winning line."""
        with self._lock:
            return self._state()

    def _state(self) -> dict:
        env, rules = self.env, self.env.rules
        board = env.board
        done, winner = env.get_done_winner()
        return {
            "id": self.sid,
            "game": self.spec.name,
            "height": rules.height,
            "width": rules.width,
            "move_style": env.move_style,
            "gravity": bool(rules.gravity),
            "has_pass": env.has_pass,
            "letters": bool(env.piece_letters),
            "opponent": {
                "id": self.opponent.id,
                "label": self.opponent.label,
                "simulations": self.simulations,
            },
            "humans": list(self.humans),
            "board": board.tolist(),
            "to_play": env.current_player,
            "moves": [env.action_to_string(a) for a in self.moves],
            "actions": list(self.moves),
            "last_cell": env.last_cell,
            "legal": env.legal_actions,
            "over": bool(done),
            "winner": (winner if done else None),
            "winning_cells": sorted(winning_cells(board, rules.win_length)) if done else [],
            "status": env.caption()[0],
            "thinking": self.thinking,
            "error": self.error,
            "agent_view": self.agent_view,
            "version": self.version,
            "hint": human_input.move_hint(
                env.move_style, rules.height, rules.width, passes=env.has_pass
            ),
        }

    # -- what the page does ---------------------------------------------------------------
    def move(self, body: dict) -> dict:
        """Plays the person's move: ``{"action": int}`` (as the env numbers them) or
        ``{"move": text}`` (as typed at the terminal: ``'4'``, ``'h8'``)."""
        with self._lock:
            env = self.env
            if env.get_done_winner()[0]:
                raise RequestError(409, "the game is over: start a new game or undo")
            if self.thinking or env.current_player not in self.humans:
                raise RequestError(409, f"not your turn: the {self.opponent.label} is to move")
            action = self._action_of(body)
            try:
                env.step(action)
            except LZeroError as err:  # illegal: the env refused it and changed nothing
                raise RequestError(400, self._illegal(action, err)) from None
            self.moves.append(action)
            self._changed()
            self._schedule()
            return self._state()

    def _action_of(self, body: dict) -> int:
        env, rules = self.env, self.env.rules
        keys = set(body) & {"action", "move"}
        if len(keys) != 1 or set(body) - {"action", "move"}:
            raise RequestError(
                400,
                f"move: expected a body with one of 'action' or 'move', got keys {sorted(body)}",
            )
        if "move" in body:
            text = body["move"]
            if not isinstance(text, str):
                raise RequestError(
                    400,
                    f"move: expected text such as {env.action_to_string(0)!r}, got {shown(text)}",
                )
            try:
                return human_input.parse_move(
                    text, env.move_style, rules.height, rules.width, passes=env.has_pass
                )
            except ValueError as err:
                raise RequestError(400, f"move: {err}") from None
        action = body["action"]
        if type(action) is not int:
            raise RequestError(
                400, f"action: expected an integer 0-{rules.action_size - 1}, got {shown(action)}"
            )
        return action

    def _illegal(self, action: int, err: Exception) -> str:
        """Why ``action`` was refused, in the person's terms where it is on the board."""
        env = self.env
        if not 0 <= action < env.rules.action_size:
            return f"illegal move: {err}"
        typed = env.action_to_string(action)
        if env.illegal_move_reason is not None:
            what = env.illegal_move_reason
        elif env.move_style == "column":
            what = f"column {typed} is full"
        else:
            what = f"{typed} is taken"
        legal = ", ".join(env.action_to_string(a) for a in env.legal_actions)
        return f"illegal move {typed}: {what}; legal now: {legal}"

    def undo(self) -> dict:
        """Takes back the person's last move (and the opponent's reply to it); against
        another person, the last move."""
        with self._lock:
            if self.opponent.id == HUMAN:
                if not self.moves:
                    raise RequestError(409, "undo: no move to take back")
                self.moves.pop()
            else:
                players = self._movers()
                if not any(p in self.humans for p in players):
                    raise RequestError(409, "undo: you have made no move to take back")
                while self.moves:
                    self.moves.pop()
                    if players.pop() in self.humans:
                        break
            return self._replayed()

    def restart(self) -> dict:
        """A new game with the same opponent and colours."""
        with self._lock:
            self.moves = []
            return self._replayed()

    def _replayed(self) -> dict:
        """The position of ``moves`` set up anew (a changed version; the opponent moves if it
        is to play), as the state (the lock is held)."""
        self._replay()
        self._changed()
        self._schedule()
        return self._state()

    def move_list(self) -> str:
        """The moves as typed at the terminal, one line each, and the result."""
        with self._lock:
            env = self.env
            lines = [f"# {self.spec.name}: X {self._name(1)}, O {self._name(2)}"]
            lines += [
                f"{i + 1}. {'XO'[i % 2]} {env.action_to_string(a)}"
                for i, a in enumerate(self.moves)
            ]
            lines.append(f"# {env.caption()[0]}")
            return "\n".join(lines) + "\n"

    def gif(self) -> bytes:
        """The game as a GIF, drawn as ``--gif`` draws it: the start and one frame a move,
        the last one with the result."""
        with self._lock:
            moves = list(self.moves)
        env = self.spec.env_cls({**self.spec.cfg, "battle_mode": "self_play_mode"})
        try:
            env.replay_players = (self._name(1), self._name(2))
            env.reset()
            frames = [env.render("rgb_array")]
            for a in moves:
                env.step(a)
                frames.append(env.render("rgb_array"))
        finally:
            env.close()
        with tempfile.TemporaryDirectory(prefix="lzero-serve-") as folder:
            path = os.path.join(folder, "game.gif")
            write_gif(frames, path)
            with open(path, "rb") as f:
                return f.read()

    def analysis(self) -> dict:
        """The solver's exact score of every move (where the game has a solver) and the
        agent opponent's view of the position (its search's visit shares and value)."""
        with self._lock:
            board, player = self.env.board.copy(), self.env.current_player
            done = self.env.get_done_winner()[0]
        if done:
            return {"solver": None, "agent": None, "note": "the game is over"}
        future = self._pool.submit(self._analyse, board, player)
        try:
            return future.result(timeout=ANALYSIS_TIMEOUT_S)
        except FutureTimeout:  # not the builtin TimeoutError before Python 3.11
            raise RequestError(
                503, f"analysis: no answer within {ANALYSIS_TIMEOUT_S:.0f} s"
            ) from None

    def _analyse(self, board: np.ndarray, player: int) -> dict:
        out: dict = {"solver": None, "agent": None, "note": None}
        env = self.env
        if env.exact_scores is not None:
            try:
                env.check_exact_scores()
                with _SOLVER_LOCK:
                    out["solver"] = list(env.exact_scores(board, player))
            except ConfigError as err:
                out["note"] = f"no solver scores: {err}"
        if self._is_agent():
            _, view = self._agent_move(board, player)
            out["agent"] = view
        return out

    # -- inside ------------------------------------------------------------------------------
    def _name(self, player: int) -> str:
        return (
            "you"
            if player in self.humans and self.opponent.id != HUMAN
            else (f"player {player}" if self.opponent.id == HUMAN else self.opponent.label)
        )

    def _movers(self) -> list[int]:
        return [1 + i % 2 for i in range(len(self.moves))]

    def _replay(self) -> None:
        """Plays ``moves`` again on a fresh game (the env checks each)."""
        self.env.reset()
        for a in self.moves:
            self.env.step(a)

    def _changed(self) -> None:
        self.version += 1
        self.thinking, self.error, self.last_used = False, None, time.monotonic()
        if not self.moves:
            self.agent_view = None

    def _is_agent(self) -> bool:
        return self.opponent.id == PRETRAINED or self.opponent.id.startswith("agent:")

    def _schedule(self) -> None:
        """Starts the opponent's move when it is to play (the lock is held)."""
        env = self.env
        if env.get_done_winner()[0] or env.current_player in self.humans:
            return
        self.thinking = True
        self._pool.submit(self._think, self.version, env.board.copy(), env.current_player)

    def _think(self, version: int, board: np.ndarray, player: int) -> None:
        try:
            if self._is_agent():
                action, view = self._agent_move(board, player)
            else:
                action, view = self._bot_move(board, player), None
        except Exception as err:  # shown on the page and printed; the game waits for undo
            print(
                f"lzero serve: game {self.sid[:6]}: the {self.opponent.label} failed:",
                file=sys.stderr,
            )
            traceback.print_exc()
            with self._lock:
                if self.version == version:
                    self.thinking = False
                    self.error = f"the {self.opponent.label} failed: {type(err).__name__}: {err}"
            return
        with self._lock:
            if self.version != version:  # undone or restarted meanwhile
                return
            self.env.step(action)
            self.moves.append(action)
            self.version += 1
            self.thinking, self.agent_view = False, view
            self._schedule()

    def _bot_move(self, board: np.ndarray, player: int) -> int:
        thinker = self._thinker
        thinker.board = board
        thinker.current_player = player
        if self.opponent.id in SOLVER_BOTS:
            with _SOLVER_LOCK:
                return int(thinker.bot_action())
        return int(thinker.bot_action())

    def _agent_move(self, board: np.ndarray, player: int) -> tuple[int, dict]:
        if self.opponent.id == PRETRAINED:
            from lzero.pretrained import pretrained_path

            path = str(pretrained_path(self.spec.name))
        else:
            path = self._agent_path
        agent, lock = self._agents.get(path, self.simulations)
        with lock:
            view = agent.analyze({"board": board, "to_play": player})
        legal = view.policy > 0
        return view.action, {
            "action": view.action,
            "policy": [round(float(p), 4) for p in view.policy],
            "value": round(view.value, 4),
            "simulations": view.num_simulations,
            "considered": int(legal.sum()),
        }
