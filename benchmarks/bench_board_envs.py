"""Random-play env steps per second: our board envs against OpenSpiel (numpy observation), a
plain-Python reference env and PettingZoo, in one run.

Usage: ``python benchmarks/bench_board_envs.py [--seconds 0.5] [--rounds 7] [--games ...]
[--clock thread|wall]``.
OpenSpiel and PettingZoo are optional (``pip install -e .[bench]``); missing ones are skipped.

What every contender does per step (the same move sampler everywhere: ``random.choice`` of a
seeded ``random.Random`` over a Python list of the legal actions):

* ``ours``: ``env.step(choice(obs["action_mask"].nonzero()[0].tolist()))`` in self-play, where
  ``obs`` is the last step's observation dict (planes, mask, board, players) and the new one
  replaces it; at the end of a game ``env.reset()`` gives the next first dict. A step's arrays
  are dropped by the next step, so the env writes them again instead of allocating (the
  fastest case, which a caller that drops its observations gets).
* ``ours-kept``: the same, keeping every timestep of the running game as a trajectory
  collector does, so every step's arrays are new ones.
* ``openspiel``: ``state.apply_action(choice(state.legal_actions()))`` on the C++ game, then
  its numpy observation ``obs.set_from(state, player)`` (``open_spiel.python.observation.
  make_observation(game)``, the fastest documented way to read one) for the player to move;
  at the end of a game also the final observation and ``state.returns()``, then a new state
  and its first observation.
* ``python-ref``: a plain-Python env in LightZero's style (list board, full rescans, NumPy
  observation dict), the mask sampler of ``ours``.
* ``pettingzoo``: its AEC env at its fastest, the bare ``raw_env()`` (``env()`` adds three
  checking wrappers), ``env.last()`` then ``env.step`` with the mask sampler of ``ours``
  (TicTacToe and Connect4; it has no Gomoku).

Every contender runs the same loop (``_mask_player``: pick from the last observation, step,
reset at a game's end), and every ratio is given for ``ours`` and ``ours-kept``: a collector
that keeps its observations pays for new arrays, which ``ours`` does not.

The sampler's own cost (list and pick, measured apart) is printed per side. All contenders
are timed by one function, ``--seconds`` each per round of this thread's CPU time (or wall
time with ``--clock wall``), in interleaved rounds (every contender once per round, in turn);
the table gives each one's best round and the median over rounds of the per-round ratio
ours / other, because the machine is shared and its load drifts: compare ratios, not absolute
numbers. The load average is printed beside each game. All contenders run in this thread
(OpenSpiel's C++ too), so CPU time counts all their work. ``bench_board_step_floor.py`` breaks
a step's time down, ours against OpenSpiel's.
"""

from __future__ import annotations

import importlib
import os
import random
import time

import numpy as np
from bench_args import positive_float, positive_int, script_parser
from bench_versions import versions_line

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# name: (our env module, class, kwargs), (OpenSpiel name, params), PettingZoo module
GAMES = {
    "tictactoe": (("tictactoe", "TicTacToeEnv", {}), ("tic_tac_toe", {}), "tictactoe_v3"),
    "connect4": (("connect4", "Connect4Env", {}), ("connect_four", {}), "connect_four_v3"),
    "gomoku": (("gomoku", "GomokuEnv", {"board_size": 15}), ("gomoku", {"size": 15}), None),
}
SIZES = {"tictactoe": (3, 3, 3, False), "connect4": (6, 7, 4, True), "gomoku": (15, 15, 5, False)}


def legal_from_mask(obs: dict) -> list[int]:
    """The legal actions of an observation dict, as a list (the cheapest way we found)."""
    return obs["action_mask"].nonzero()[0].tolist()


class PyRefEnv:
    """A plain-Python env in LightZero's style: list board, full rescans, NumPy observation."""

    def __init__(self, game: str) -> None:
        self.h, self.w, self.k, self.gravity = SIZES[game]

    def reset(self) -> dict:
        self.board = [[0] * self.w for _ in range(self.h)]
        self.player = 1
        return self.observe()

    def legal_actions(self) -> list[int]:
        if self.gravity:
            return [c for c in range(self.w) if self.board[0][c] == 0]
        return [
            r * self.w + c for r in range(self.h) for c in range(self.w) if self.board[r][c] == 0
        ]

    def winner(self) -> int:
        b, h, w, k = self.board, self.h, self.w, self.k
        for r in range(h):
            for c in range(w):
                p = b[r][c]
                if p == 0:
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if all(
                        0 <= r + i * dr < h
                        and 0 <= c + i * dc < w
                        and b[r + i * dr][c + i * dc] == p
                        for i in range(k)
                    ):
                        return p
        return 0

    def observe(self) -> dict:
        board = np.array(self.board, dtype=np.int8)
        mask = np.zeros(self.w if self.gravity else self.h * self.w, np.int8)
        mask[self.legal_actions()] = 1
        obs = np.stack(
            [board == self.player, board == 3 - self.player, np.full(board.shape, self.player)]
        ).astype(np.float32)
        return {"observation": obs / 2, "action_mask": mask, "board": board, "to_play": self.player}

    def step(self, action: int):
        if self.gravity:
            row = max(r for r in range(self.h) if self.board[r][action] == 0)
            self.board[row][action] = self.player
        else:
            self.board[action // self.w][action % self.w] = self.player
        win = self.winner()
        done = win != 0 or not self.legal_actions()
        self.player = 3 - self.player
        return self.observe(), float(win != 0), done, {}


CLOCKS = {"thread": time.thread_time, "wall": time.perf_counter}


def _timed(step_once, seconds: float, clock=time.thread_time) -> float:
    """Steps per second of ``step_once`` over at least ``seconds`` of ``clock`` (checked every
    100 steps)."""
    n, start = 0, clock()
    while clock() - start < seconds:
        for _ in range(100):
            step_once()
        n += 100
    return n / (clock() - start)


def _mask_player(step, reset, first_obs, keep: bool = False):
    """A step function playing random legal moves from each observation's mask. ``step(a)``
    returns ``(obs, done)``; ``reset()`` the next first observation. With ``keep`` every
    observation of the running game stays referenced until the game ends."""
    choice = random.Random(0).choice
    box, kept = [first_obs], []

    def step_once():
        obs, done = step(choice(legal_from_mask(box[0])))
        if keep:
            kept.append(obs)
        if done:
            kept.clear()
            obs = reset()
        box[0] = obs

    return step_once


def ours(game: str, keep: bool = False):
    (mod, cls, kwargs), _, _ = GAMES[game]
    module = importlib.import_module(f"zoo.board_games.{mod}.envs.{mod}_env")
    env = getattr(module, cls)(kwargs)
    env.seed(0)
    env.reset()
    env.step(env.random_action())  # compile (or load the cache) outside the timing

    def step(action):
        timestep = env.step(action)
        return timestep.obs, timestep.done

    # The same loop as every other contender's (_mask_player), one call per step more than
    # the loop written out: the same overhead on both sides.
    return _mask_player(step, env.reset, env.reset(), keep)


def ours_kept(game: str):
    return ours(game, keep=True)


def python_ref(game: str):
    env = PyRefEnv(game)

    def step(action):
        obs, _, done, _ = env.step(action)
        return obs, done

    return _mask_player(step, env.reset, env.reset())


def openspiel(game: str):
    import pyspiel  # an ImportError is reported as the peer skipped, with its reason
    from open_spiel.python.observation import make_observation

    name, params = GAMES[game][1]
    spiel_game = pyspiel.load_game(name, params)
    observation = make_observation(spiel_game)
    choice = random.Random(0).choice
    box = [spiel_game.new_initial_state()]
    observation.set_from(box[0], 0)

    def step_once():
        state = box[0]
        state.apply_action(choice(state.legal_actions()))
        if state.is_terminal():
            observation.set_from(state, 0)
            state.returns()
            state = box[0] = spiel_game.new_initial_state()
        observation.set_from(state, state.current_player())

    return step_once


def pettingzoo(game: str):
    name = GAMES[game][2]
    if name is None:
        return None
    module = importlib.import_module(f"pettingzoo.classic.{name}")  # ImportError: skipped
    env = module.raw_env()  # its fastest: env() adds three checking wrappers
    env.reset(seed=0)

    def step(action):
        env.step(action)
        obs, _, term, trunc, _ = env.last()
        return obs, term or trunc

    def reset():
        env.reset()
        return env.last()[0]

    return _mask_player(step, reset, env.last()[0])


CONTENDERS = {
    "ours": ours,
    "ours-kept": ours_kept,
    "openspiel": openspiel,
    "python-ref": python_ref,
    "pettingzoo": pettingzoo,
}


def sampler_costs(game: str) -> str:
    """Nanoseconds of CPU time per pick of each sampler, after 4 random moves."""
    rng, n = random.Random(1), 20000
    (mod, cls, kwargs), (name, params), _ = GAMES[game]
    env = getattr(importlib.import_module(f"zoo.board_games.{mod}.envs.{mod}_env"), cls)(kwargs)
    obs = env.reset()
    for _ in range(4):
        obs = env.step(rng.choice(legal_from_mask(obs))).obs
    start = time.thread_time()
    for _ in range(n):
        rng.choice(legal_from_mask(obs))
    text = f"ours (mask) {1e9 * (time.thread_time() - start) / n:.0f} ns"
    try:
        import pyspiel
    except ImportError:
        return text
    state = pyspiel.load_game(name, params).new_initial_state()
    for _ in range(4):
        state.apply_action(rng.choice(state.legal_actions()))
    start = time.thread_time()
    for _ in range(n):
        rng.choice(state.legal_actions())
    return text + f", openspiel (legal_actions) {1e9 * (time.thread_time() - start) / n:.0f} ns"


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--seconds", type=positive_float, default=0.5, help="timed per contender and round"
    )
    parser.add_argument(
        "--rounds", type=positive_int, default=7, help="interleaved rounds (the best is shown)"
    )
    parser.add_argument(
        "--games", nargs="+", default=list(GAMES), choices=list(GAMES), help="games to time"
    )
    parser.add_argument(
        "--clock",
        default="thread",
        choices=list(CLOCKS),
        help="thread: this thread's CPU time (a shared machine's other work does not count); "
        "wall: elapsed time",
    )
    args = parser.parse_args(argv)
    clock = CLOCKS[args.clock]
    print(versions_line(("numpy", "numba", "open_spiel", "pettingzoo")))
    print(
        f"self-play random steps per second of {args.clock} time, best of {args.rounds} "
        f"interleaved rounds of {args.seconds} s per contender; ratio: median over rounds of "
        "ours / other"
    )
    print(f"{'game':10} " + " ".join(f"{c:>11}" for c in CONTENDERS) + "   ratios   load")
    for game in args.games:
        steppers, skipped = {}, {}
        for name, make in CONTENDERS.items():
            try:
                steppers[name] = make(game)
            except ImportError as err:  # a peer not installed: said so, not left out quietly
                skipped[name] = f"{type(err).__name__}: {err}"
        rates = {name: [] for name, step in steppers.items() if step is not None}
        for _ in range(args.rounds):
            for name in rates:
                rates[name].append(_timed(steppers[name], args.seconds, clock))
        cells = " ".join(
            f"{max(rates[c]):>11,.0f}"
            if c in rates
            else f"{'skipped' if c in skipped else 'no game':>11}"
            for c in CONTENDERS
        )
        ratios = ", ".join(
            f"{np.median(np.divide(rates[mine], rates[c])):.2f}x {c}"
            + ("" if mine == "ours" else f" ({mine})")
            for c in ("openspiel", "python-ref", "pettingzoo")
            if c in rates
            for mine in ("ours", "ours-kept")
        )
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{game:10} {cells}   {ratios}   load {load}", flush=True)
        for name, why in skipped.items():
            print(f"{'':10} {name} skipped ({why})", flush=True)
        print(f"{'':10} sampler per pick: {sampler_costs(game)}", flush=True)


if __name__ == "__main__":
    main()
