"""Speed and strength of the array UCT (``lzero.mcts``) against references, in one process.

Speed: simulations per second of searches of 1,000 simulations from the empty board, for
  * ours: ``MCTSBot``, a configuration of ``lzero.mcts.batched_search.BatchedSearch`` (one
    tree searched in numba);
  * openspiel: OpenSpiel's C++ ``pyspiel.MCTSBot`` (UCT, ``uct_c`` 2.0, no solver) with a
    one-rollout ``RandomRolloutEvaluator`` on ``tic_tac_toe``, ``connect_four`` and
    ``gomoku(size=15)`` (freestyle, as ours; 30 times faster than its ``mnk(m=15,n=15,k=5)``)
    (skipped, saying so, if ``open_spiel`` is not installed);
  * py-ref: ``lzero.mcts.python_uct.PythonUCT``, the tests' visit-for-visit reference of our
    search in Python: node objects holding board copies, a new board copy and a numba kernel
    call per move, also in the rollouts. It shows what the array search saves over that way
    of writing a search, not the speed of a tuned Python MCTS.
Rows marked ``uct`` are like for like with OpenSpiel: UCB1 with ``c`` 2.0, one random rollout
per leaf, every legal move a candidate, no tactics at the root or in the tree; only they
carry an ``/openspiel`` ratio. The other Gomoku rows are the bot's settings, which do other
work than OpenSpiel's search (near-stone candidates within radius 2, decisive moves in the
tree, root tactics; ``lines``: PUCT with line-window priors and leaf values instead of
rollouts), so they print no OpenSpiel ratio. Every contender is timed the same way: this
thread's CPU time (OpenSpiel's C++ runs in it too), ``--rounds`` interleaved rounds of at
least ``--seconds`` or one search each, best round shown, ratios the median over rounds of
the per-round ratio; the load average is printed.

Strength: MCTS (2,000 simulations) against the perfect TicTacToe bot, the Connect4 and Gomoku
rule bots and random, alternating colours, fixed seeds; Gomoku also with random rollouts
(``gomoku15 rollout``, the bot before the line evaluator). Both bots are deterministic given
their seeds, so Gomoku games repeat openings; the ``open4`` rows start each pair of games (one
per colour) from 4 random stones in the central 5 x 5. ``ms/move`` is MCTS's mean time per
move.

Compile time: first search in a fresh process with an empty numba cache, then with it warm.

Usage: ``python benchmarks/bench_mcts.py [--games N] [--seconds S] [--rounds R]
[--skip-speed] [--skip-compile] [--skip-strength]``
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from bench_args import non_negative_float, positive_int, script_parser
from bench_versions import versions_line

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
#: OpenSpiel's MCTSBot exploration constant, and ours on the like-for-like rows.
C_UCT = 2.0
#: (row, rules, our MCTSBot settings, OpenSpiel game if like for like, else None)
UCT = dict(radius=0, tactics=False, tree_tactics=False, evaluator="rollout", c_uct=C_UCT)
BOT_R2 = dict(radius=2, tactics=True, tree_tactics=True, evaluator="rollout")
GAMES = [
    ("tictactoe uct", TICTACTOE, UCT, "tic_tac_toe"),
    ("connect4 uct", CONNECT4, UCT, "connect_four"),
    ("gomoku15 uct", GOMOKU, UCT, "gomoku(size=15)"),
    ("gomoku15 r=2", GOMOKU, BOT_R2, None),
    ("gomoku15 lines", GOMOKU, dict(BOT_R2, evaluator="lines"), None),
]


def _rate(search_once, seconds: float) -> float:
    """Simulations per second of CPU time of ``search_once`` (one search of ``SIMS``), over
    ``seconds`` or one search, whichever is longer."""
    start, n = time.thread_time(), 0
    while True:
        search_once()
        n += 1
        elapsed = time.thread_time() - start
        if elapsed >= seconds:
            return n * SIMS / elapsed


def _contenders(rules, settings: dict, spiel_name: str | None) -> dict:
    """``name: search_once`` for ours, OpenSpiel (like-for-like rows, if installed) and the
    Python reference (not for ``lines``: it has no such evaluator)."""
    board = np.zeros((rules.height, rules.width), np.int8)
    bot = MCTSBot(rules, num_simulations=SIMS, seed=0, **settings)
    bot.get_actions(board, 0)  # compile or load the cache outside the timing
    contenders = {"ours": lambda: bot.get_actions(board, 0)}
    if pyspiel is not None and spiel_name is not None:
        game = pyspiel.load_game(spiel_name)
        rollouts = pyspiel.RandomRolloutEvaluator(1, 0)
        spiel_bot = pyspiel.MCTSBot(game, rollouts, C_UCT, SIMS, 10**6, False, 0, False)
        state = game.new_initial_state()
        contenders["openspiel"] = lambda: spiel_bot.step(state)
    if settings["evaluator"] == "rollout":
        kernels = kernels_of(rules, evaluator="rollout")
        reference = PythonUCT(
            kernels,
            c_uct=settings.get("c_uct", 1.4),
            radius=settings["radius"],
            tactics=settings["tactics"],
            tree_tactics=settings["tree_tactics"],
            seed=0,
        )
        contenders["py-ref"] = lambda: reference.search(board, 1, SIMS)
    return contenders


def speed(seconds: float, rounds: int) -> None:
    print(f"\n## Simulations per second of CPU time, {SIMS} simulations per search, empty board")
    print(f"best of {rounds} interleaved rounds; ratios: median over rounds of ours / other")
    if pyspiel is None:
        print("open_spiel is not installed: its column is skipped (pip install open_spiel)")
    print(
        f"{'game':15} {'ours':>10} {'openspiel':>10} {'py-ref':>9} {'/openspiel':>10}"
        f" {'/py-ref':>8}   load"
    )
    for name, rules, settings, spiel_name in GAMES:
        contenders = _contenders(rules, settings, spiel_name)
        rates = {c: [] for c in contenders}
        for _ in range(rounds):
            for c, search_once in contenders.items():
                rates[c].append(_rate(search_once, seconds))
        best = {c: f"{max(r):.0f}" for c, r in rates.items()}
        ratio = {
            c: f"{np.median(np.divide(rates['ours'], rates[c])):.1f}" for c in rates if c != "ours"
        }
        if pyspiel is not None and spiel_name is None:
            best["openspiel"] = ratio["openspiel"] = "other work"
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"{name:15} {best['ours']:>10} {best.get('openspiel', '-'):>10}"
            f" {best.get('py-ref', '-'):>9} {ratio.get('openspiel', '-'):>10}"
            f" {ratio.get('py-ref', '-'):>8}   {load}",
            flush=True,
        )


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
        return lambda b, p: int(out[randbelow(state, rules.legal_actions(b, p, out))])

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
    parser = script_parser(__doc__)
    parser.add_argument(
        "--games", type=positive_int, default=10, help="games per strength match-up"
    )
    parser.add_argument(
        "--seconds",
        type=non_negative_float,
        default=0.5,
        help="CPU time per contender and round (at least one search each)",
    )
    parser.add_argument("--rounds", type=positive_int, default=3, help="interleaved timing rounds")
    parser.add_argument("--skip-speed", action="store_true", help="no speed table")
    parser.add_argument("--skip-strength", action="store_true", help="no strength matches")
    parser.add_argument("--skip-compile", action="store_true", help="no compile-time table")
    args = parser.parse_args()
    print(versions_line(("numpy", "numba", "open_spiel")))
    if not args.skip_speed:
        speed(args.seconds, args.rounds)
    if not args.skip_compile:
        compile_time()
    if not args.skip_strength:
        strength(args.games)


if __name__ == "__main__":
    main()
