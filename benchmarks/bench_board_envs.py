"""Random-play env steps per second: our board envs against a plain-Python reference env,
OpenSpiel (C++ game, ``observation_tensor()`` each move) and PettingZoo, in one run.

Usage: ``python benchmarks/bench_board_envs.py [--seconds 0.5] [--rounds 7] [--games ...]``.
OpenSpiel and PettingZoo are optional (``pip install -e .[bench]``); missing ones are skipped.
Every contender plays uniformly random legal moves, resetting at the end of each game, and
produces a full observation at every step; ``ours-kept`` also keeps every timestep of the
running game, as a trajectory collector does, so its arrays cannot be written again. Each round times every contender back to back;
the table shows each one's best round and the median over rounds of the per-round ratio,
because the machine is shared and its load drifts: compare ratios, not absolute numbers.
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

# name: (our env module, class, kwargs), (OpenSpiel name, params), PettingZoo module
GAMES = {
    "tictactoe": (("tictactoe", "TicTacToeEnv", {}), ("tic_tac_toe", {}), "tictactoe_v3"),
    "connect4": (("connect4", "Connect4Env", {}), ("connect_four", {}), "connect_four_v3"),
    "gomoku": (("gomoku", "GomokuEnv", {"board_size": 15}), ("gomoku", {"size": 15}), None),
}
SIZES = {"tictactoe": (3, 3, 3, False), "connect4": (6, 7, 4, True), "gomoku": (15, 15, 5, False)}


class PyRefEnv:
    """A plain-Python env in LightZero's style: list board, full rescans, NumPy observation."""

    def __init__(self, game: str, seed: int = 0) -> None:
        self.h, self.w, self.k, self.gravity = SIZES[game]
        self.rng = random.Random(seed)

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

    def random_action(self) -> int:
        return self.rng.choice(self.legal_actions())


def _timed(step_once, seconds: float) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            step_once()
        n += 200
    return n / (time.perf_counter() - start)


def _our_env(game: str):
    import importlib

    (mod, cls, kwargs), _, _ = GAMES[game]
    module = importlib.import_module(f"zoo.board_games.{mod}.envs.{mod}_env")
    env = getattr(module, cls)(kwargs)
    env.seed(0)
    env.reset()
    env.step(env.random_action())  # compile outside the timing
    env.reset()
    return env


def bench_ours(game: str, seconds: float) -> float:
    """Each observation dropped after the step, as the other contenders drop theirs (the env
    then writes its arrays again instead of allocating new ones)."""
    env = _our_env(game)

    def step_once():
        if env.step(env.random_action()).done:
            env.reset()

    return _timed(step_once, seconds)


def bench_ours_kept(game: str, seconds: float) -> float:
    """Every timestep of a game kept until the game ends, as a trajectory collector does (so
    every step allocates new arrays)."""
    env = _our_env(game)
    game_steps = [env.reset()]

    def step_once():
        timestep = env.step(env.random_action())
        game_steps.append(timestep)
        if timestep.done:
            game_steps.clear()
            game_steps.append(env.reset())

    return _timed(step_once, seconds)


def bench_reference(game: str, seconds: float) -> float:
    env = PyRefEnv(game)
    env.reset()

    def step_once():
        if env.step(env.random_action())[2]:
            env.reset()

    return _timed(step_once, seconds)


def bench_openspiel(game: str, seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    name, params = GAMES[game][1]
    spiel_game = pyspiel.load_game(name, params)
    rng = random.Random(0)
    box = [spiel_game.new_initial_state()]

    def step_once():
        state = box[0]
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            state.observation_tensor(0)
            box[0] = spiel_game.new_initial_state()
        else:
            state.observation_tensor()

    return _timed(step_once, seconds)


def bench_pettingzoo(game: str, seconds: float) -> float | None:
    name = GAMES[game][2]
    if name is None:
        return None
    try:
        import importlib

        module = importlib.import_module(f"pettingzoo.classic.{name}")
    except ImportError:
        return None
    env = module.env()
    env.reset(seed=0)
    rng = random.Random(0)

    def step_once():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.reset()
            obs = env.last()[0]
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))

    return _timed(step_once, seconds)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="per contender and round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    args = parser.parse_args(argv)
    contenders = {
        "ours": bench_ours,
        "ours-kept": bench_ours_kept,
        "python-ref": bench_reference,
        "openspiel": bench_openspiel,
        "pettingzoo": bench_pettingzoo,
    }
    print(f"steps/s: best of {args.rounds} rounds; ratio: median over rounds of ours / other,")
    print("each round timing every contender back to back (robust to a drifting machine load)")
    print(f"{'game':10} " + " ".join(f"{c:>12}" for c in contenders) + "   ratios (ours / other)")
    for game in args.games:
        rates: dict[str, list[float]] = {c: [] for c in contenders}
        for _ in range(args.rounds):
            for name, bench in contenders.items():
                rate = bench(game, args.seconds)
                if rate is not None:
                    rates[name].append(rate)
        best = {c: max(r) if r else None for c, r in rates.items()}
        cells = " ".join(f"{best[c]:>12,.0f}" if best[c] else f"{'n/a':>12}" for c in contenders)
        ratios = ", ".join(
            f"{np.median(np.divide(rates['ours'], rates[c])):.2f}x {c}"
            for c in contenders
            if not c.startswith("ours") and rates[c]
        )
        if rates["openspiel"]:
            kept = np.median(np.divide(rates["ours-kept"], rates["openspiel"]))
            ratios += f"; ours-kept: {kept:.2f}x openspiel"
        print(f"{game:10} {cells}   {ratios}", flush=True)


if __name__ == "__main__":
    main()
