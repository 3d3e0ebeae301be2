"""Speed and strength of the array UCT (``lzero.mcts``) against references, in one process.

Speed: simulations per second of searches of 1,000 simulations from the empty board, for
  * ours: ``MCTSBot``, a configuration of ``lzero.mcts.batched_search.BatchedSearch`` (one
    tree searched in numba; UCB1 with random rollouts, or for Gomoku by default PUCT with
    line-window priors and leaf values, the ``lines`` row);
  * python: ``lzero.mcts.python_uct.PythonUCT``, the same algorithm in plain Python with node
    objects and board copies (same kernels, same random stream, same visit counts);
  * openspiel: OpenSpiel's C++ ``pyspiel.MCTSBot`` with a one-rollout
    ``RandomRolloutEvaluator`` on ``tic_tac_toe``, ``connect_four`` and
    ``mnk(m=15,n=15,k=5)`` (skipped, saying so, if ``open_spiel`` is not installed).
Each figure is the best of a few interleaved rounds (the machine is shared). Gomoku is run
with the bot's defaults (``lines``: near-stone radius 2, decisive moves in the tree, PUCT with
line-window priors and values), with random rollouts instead (``r=2``), and as plain UCT over
all 225 moves like OpenSpiel (``r=0``: no tree tactics); the Python UCT matches the rollout
rows (it has no line evaluator, so the ``lines`` row has no Python figure).

Strength: MCTS (2,000 simulations) against the perfect TicTacToe bot, the Connect4 and Gomoku
rule bots and random, alternating colours, fixed seeds; Gomoku also with random rollouts
(``gomoku15 rollout``, the bot before the line evaluator). Both bots are deterministic given
their seeds, so Gomoku games repeat openings; the ``open4`` rows start each pair of games (one
per colour) from 4 random stones in the central 5 x 5. ``ms/move`` is MCTS's mean time per
move.

Compile time: first search in a fresh process with an empty numba cache, then with it warm.

Usage: ``python benchmarks/bench_mcts.py [--games N] [--seconds S] [--skip-speed]
[--skip-compile] [--skip-strength]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from lzero.mcts.python_uct import PythonUCT
from lzero.utils.nbrng import make_rng_state, randbelow
from zoo.board_games.connect4.envs.connect4_bot import rule_bot_action as connect4_rule_bot
from zoo.board_games.connect4.envs.connect4_rules import RULES as CONNECT4
from zoo.board_games.gomoku.envs.gomoku_bot import rule_bot_action as gomoku_rule_bot
from zoo.board_games.gomoku.envs.gomoku_rules import RULES as GOMOKU
from zoo.board_games.mcts_bot import MCTSBot, kernels_of
from zoo.board_games.tictactoe.envs.alpha_beta_bot import alpha_beta_action
from zoo.board_games.tictactoe.envs.tictactoe_rules import RULES as TICTACTOE

try:
    import pyspiel
except ImportError:
    pyspiel = None

SIMS = 1000
#: (row, rules, radius, evaluator, OpenSpiel game)
GAMES = [
    ("tictactoe", TICTACTOE, 0, "rollout", "tic_tac_toe"),
    ("connect4", CONNECT4, 0, "rollout", "connect_four"),
    ("gomoku15 lines", GOMOKU, 2, "lines", "mnk(m=15,n=15,k=5)"),
    ("gomoku15 r=2", GOMOKU, 2, "rollout", "mnk(m=15,n=15,k=5)"),
    ("gomoku15 r=0", GOMOKU, 0, "rollout", "mnk(m=15,n=15,k=5)"),
]


def _rate(search_once, seconds: float) -> float:
    """Simulations per second of ``search_once`` (one search of ``SIMS``) over ``seconds``."""
    start, n = time.perf_counter(), 0
    while True:
        search_once()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n * SIMS / elapsed


def _speeds(rules, radius: int, evaluator: str, spiel_name: str, seconds: float):
    """Simulations per second of ours, the Python UCT (0 for ``lines``: it has no such
    evaluator) and OpenSpiel (0 if not installed)."""
    board = np.zeros((rules.height, rules.width), np.int8)
    tree_tactics = radius > 0  # the r=0 row is plain UCT, as OpenSpiel's
    bot = MCTSBot(
        rules,
        num_simulations=SIMS,
        radius=radius,
        tree_tactics=tree_tactics,
        seed=0,
        evaluator=evaluator,
    )
    bot.get_actions(board, 0)  # compile or load the cache outside the timing
    spiel = None
    if pyspiel is not None:
        game = pyspiel.load_game(spiel_name)
        rollouts = pyspiel.RandomRolloutEvaluator(1, 0)
        spiel_bot = pyspiel.MCTSBot(game, rollouts, 2.0, SIMS, 10**6, False, 0, False)
        state = game.new_initial_state()
        spiel = lambda: spiel_bot.step(state)  # noqa: E731
    ours = theirs = 0.0
    for _ in range(3):  # interleaved rounds, best of each: the machine is shared
        ours = max(ours, _rate(lambda: bot.get_actions(board, 0), seconds / 3))
        if spiel is not None:
            theirs = max(theirs, _rate(spiel, seconds / 3))
    if evaluator == "lines":
        return ours, 0.0, theirs
    kernels = kernels_of(rules, evaluator=evaluator)
    reference = PythonUCT(kernels, radius=radius, tree_tactics=tree_tactics, seed=0)
    python = _rate(lambda: reference.search(board, 1, SIMS), seconds / 3)  # slow: >= 1 search
    return ours, python, theirs


def speed(seconds: float) -> None:
    print(f"\n## Simulations per second, {SIMS} simulations per search from the empty board")
    if pyspiel is None:
        print("open_spiel is not installed: its column is skipped (pip install open_spiel)")
    print(
        f"{'game':14} {'ours':>10} {'python':>9} {'openspiel':>10} {'/python':>8} {'/openspiel':>10}"
    )
    for name, rules, radius, evaluator, spiel_name in GAMES:
        ours, python, theirs = _speeds(rules, radius, evaluator, spiel_name, seconds)
        spiel_text = f"{theirs:10.0f}" if theirs else f"{'skipped':>10}"
        ratio = f"{ours / theirs:10.1f}" if theirs else f"{'skipped':>10}"
        py_text, py_ratio = (f"{python:9.0f}", f"{ours / python:8.0f}") if python else ("-", "-")
        print(f"{name:14} {ours:10.0f} {py_text:>9} {spiel_text} {py_ratio:>8} {ratio}")


def _play(rules, first, second, opening: int = 0, seed: int = 0) -> int:
    """Plays a game; ``opening`` random stones in the central 5 x 5 first (from ``seed``)."""
    board = np.zeros((rules.height, rules.width), np.int8)
    players, player, moves = {1: first, 2: second}, 1, 0
    rng = np.random.default_rng(seed)
    while moves < opening:
        row, col = rng.integers(rules.height // 2 - 2, rules.height // 2 + 3, size=2)
        if board[row, col] == 0:
            board[row, col], moves, player = player, moves + 1, 3 - player
    while True:
        cell = rules.apply_action(board, players[player](board.copy(), player), player)
        moves += 1
        result = rules.result_after(board, cell, player, moves)
        if result:
            return result
        player = 3 - player


def _opponents(rules):
    def random_player(seed):
        state, out = make_rng_state(seed), np.zeros(rules.action_size, np.int64)
        return lambda b, p: int(out[randbelow(state, rules.legal_actions(b, out))])

    def rule_player(bot):
        def make(seed):
            state = make_rng_state(seed)
            return lambda b, p: int(bot(b, p, state))

        return make

    def perfect_player(seed):
        rng = np.random.default_rng(seed)
        return lambda b, p: alpha_beta_action(b, p, rng)

    if rules is TICTACTOE:
        return {"perfect (alpha-beta)": perfect_player, "random": random_player}
    bot = connect4_rule_bot if rules is CONNECT4 else gomoku_rule_bot
    return {"rule bot": rule_player(bot), "random": random_player}


def _timed_player(bot, clock):
    """``bot`` as a player that adds its thinking time and move count to ``clock`` `[2]`."""

    def play(board, player):
        start = time.perf_counter()
        action = bot.get_actions(board, player - 1)
        clock[0] += time.perf_counter() - start
        clock[1] += 1
        return action

    return play


def strength(n_games: int, sims: int = 2000) -> None:
    print(f"\n## MCTS ({sims} simulations) vs reference bots, {n_games} games, alternating colours")
    print(
        f"{'game':22} {'opponent':22} {'win':>5} {'draw':>5} {'loss':>5} {'s/game':>7}"
        f" {'ms/move':>8}"
    )
    rows = [
        ("tictactoe", TICTACTOE, "lines", 0),
        ("connect4", CONNECT4, "lines", 0),
        ("gomoku15", GOMOKU, "lines", 0),
        ("gomoku15 rollout", GOMOKU, "rollout", 0),
        ("gomoku15 open4", GOMOKU, "lines", 4),
        ("gomoku15 rollout open4", GOMOKU, "rollout", 4),
    ]
    for name, rules, evaluator, opening in rows:
        opponents = _opponents(rules)
        if opening:  # the rule bot only: random openings against random play add nothing
            opponents = {"rule bot": opponents["rule bot"]}
        empty = np.zeros((rules.height, rules.width), np.int8)
        MCTSBot(rules, num_simulations=10, evaluator=evaluator).get_actions(empty, 0)  # compile
        for label, opponent in opponents.items():
            counts, clock = [0, 0, 0], [0.0, 0]
            start = time.perf_counter()
            for game in range(n_games):
                bot = MCTSBot(rules, num_simulations=sims, seed=game, evaluator=evaluator)
                me = _timed_player(bot, clock)
                other = opponent(1000 + game)
                first = game % 2 == 0
                players = (me, other) if first else (other, me)
                result = _play(rules, *players, opening=opening, seed=game // 2)
                mine = 1 if first else 2
                counts[0 if result == mine else (1 if result == 3 else 2)] += 1
            per_game = (time.perf_counter() - start) / n_games
            per_move = 1000 * clock[0] / max(clock[1], 1)
            print(
                f"{name:22} {label:22} {counts[0]:5} {counts[1]:5} {counts[2]:5} {per_game:7.3f}"
                f" {per_move:8.1f}"
            )


_FIRST_CALL = """
import time
t = time.perf_counter()
import numpy as np
from zoo.board_games.mcts_bot import MCTSBot
from zoo.board_games.{module} import RULES
MCTSBot(RULES, num_simulations=10).get_actions(np.zeros((RULES.height, RULES.width), np.int8), 0)
print(time.perf_counter() - t)
"""


def compile_time() -> None:
    print("\n## First search in a fresh process (import + compile or cache load + 10 sims), s")
    modules = {
        "tictactoe": "tictactoe.envs.tictactoe_rules",
        "connect4": "connect4.envs.connect4_rules",
        "gomoku": "gomoku.envs.gomoku_rules",
    }
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        print(f"{'game':10} {'cold cache':>11} {'warm cache':>11}")
        for name, module in modules.items():
            code = _FIRST_CALL.format(module=module)
            runs = [
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout.strip()
                for _ in range(2)
            ]
            print(f"{name:10} {float(runs[0]):11.2f} {float(runs[1]):11.2f}")
    print("(cold: tictactoe compiles the shared search; the other games then add their kernels)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per strength match-up")
    parser.add_argument("--seconds", type=float, default=1.5, help="timing budget per engine")
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-strength", action="store_true")
    parser.add_argument("--skip-compile", action="store_true")
    args = parser.parse_args()
    if not args.skip_speed:
        speed(args.seconds)
    if not args.skip_compile:
        compile_time()
    if not args.skip_strength:
        strength(args.games)


if __name__ == "__main__":
    main()
