"""Where a board env step's time goes, against OpenSpiel's step: the profile behind
``bench_board_envs.py``'s ratios.

Per move of a fixed random game (ongoing moves only, reset excluded), this thread's CPU time,
minimum over repeats, garbage collector off (timeit's default):

* ``env.step``: our whole self-play step, returning LightZero's timestep.
* ``minimal step``: only what any Python step returning that timestep must do, with none of
  the env's bookkeeping: the fused kernel call (the move, the observation into the buffer),
  four array views, the observation dict, the timestep, and dropping the last one's objects.
* ``kernel call``: the fused kernel call alone.
* ``openspiel step``: ``apply_action``, ``is_terminal`` and the numpy observation
  ``set_from(state, current_player())``.
* the two samplers: ``random.choice`` over our mask's ``nonzero()[0].tolist()``, and over
  OpenSpiel's ``legal_actions()``.

If ``minimal step`` alone costs more than ``openspiel step``, no layout of a Python step that
returns the whole timestep can reach OpenSpiel's speed on that game.

Usage: ``python benchmarks/bench_board_step_floor.py [--games tictactoe connect4 gomoku]``.
"""

from __future__ import annotations

import os
import random
import time
import timeit

from bench_args import script_parser
from bench_versions import versions_line

from lzero.envs import BaseEnvTimestep
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

GAMES = {
    "tictactoe": (TicTacToeEnv, {}, "tic_tac_toe"),
    "connect4": (Connect4Env, {}, "connect_four"),
    "gomoku": (GomokuEnv, {"board_size": 15}, "gomoku(size=15)"),
}


def _per_move(run, empty, moves: int) -> float:
    """Nanoseconds per move of ``run`` minus ``empty`` (its setup), best of 15 repeats."""

    def best(fn):
        return min(timeit.repeat(fn, number=300, repeat=15, timer=time.thread_time)) / 300

    return 1e9 * (best(run) - best(empty)) / moves


def profile(game: str) -> list[tuple[str, float]]:
    cls, kwargs, spiel_name = GAMES[game]
    env = cls(kwargs)
    env.seed(0)
    obs, moves, rng = env.reset(), [], random.Random(1)
    while True:  # one random game; its ongoing moves are replayed below
        moves.append(rng.choice(obs["action_mask"].nonzero()[0].tolist()))
        timestep = env.step(moves[-1])
        if timestep.done:
            break
        obs = timestep.obs
    moves.pop()
    late_mask = obs["action_mask"].copy()  # for the samplers
    del obs, timestep  # held views would send every other step down the new-arrays path
    step, reset, n = env.step, env.reset, len(moves)

    def ours():
        held = reset()
        for action in moves:
            held = step(action).obs
        return held

    first = reset()
    empty_board, empty_mask = first["board"].copy(), first["action_mask"].copy()
    del first
    buf, planes, board_out, mask_out, reward = env._outputs._new_set()  # the minimal step's
    kernel, consts, new = env._step_fn, env._consts, tuple.__new__

    def fresh():
        return empty_board.copy(), empty_mask.copy()

    def minimal():
        board, mask = fresh()
        player, held = 1, None
        for i, action in enumerate(moves):
            kernel(board, mask, action, player, i, consts, buf)
            obs = {
                "observation": planes.view(),
                "action_mask": mask_out.view(),
                "board": board_out.view(),
                "current_player_index": 2 - player,
                "to_play": 3 - player,
            }
            held = new(BaseEnvTimestep, (obs, reward.view(), False, {})).obs
            player = 3 - player
        return held

    def kernel_only():
        board, mask = fresh()
        player = 1
        for i, action in enumerate(moves):
            kernel(board, mask, action, player, i, consts, buf)
            player = 3 - player

    rows = [
        ("env.step", _per_move(ours, reset, n)),
        ("minimal step (no bookkeeping)", _per_move(minimal, fresh, n)),
        ("kernel call", _per_move(kernel_only, fresh, n)),
    ]
    choice = random.Random(0).choice
    sampler = min(
        timeit.repeat(
            lambda: choice(late_mask.nonzero()[0].tolist()),
            number=3000,
            repeat=15,
            timer=time.thread_time,
        )
    )
    try:
        import pyspiel
        from open_spiel.python.observation import make_observation
    except ImportError as err:  # the peer this profile is for: said so, not left out quietly
        return rows + [
            ("our sampler (mask)", 1e9 * sampler / 3000),
            (f"openspiel skipped ({type(err).__name__}: {err})", None),
        ]
    spiel_game = pyspiel.load_game(spiel_name)
    observation = make_observation(spiel_game)

    def spiel_new():
        state = spiel_game.new_initial_state()
        observation.set_from(state, 0)
        return state

    def spiel():
        state = spiel_new()
        for action in moves:
            state.apply_action(action)
            state.is_terminal()
            observation.set_from(state, state.current_player())

    state = spiel_new()
    for action in moves[:-1]:
        state.apply_action(action)
    spiel_sampler = min(
        timeit.repeat(
            lambda: choice(state.legal_actions()), number=3000, repeat=15, timer=time.thread_time
        )
    )
    return rows + [
        ("openspiel step", _per_move(spiel, spiel_new, n)),
        ("our sampler (mask)", 1e9 * sampler / 3000),
        ("openspiel sampler (legal_actions)", 1e9 * spiel_sampler / 3000),
    ]


def main(argv: list[str] | None = None) -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--games", nargs="+", default=list(GAMES), choices=list(GAMES), help="games to profile"
    )
    args = parser.parse_args(argv)
    print(versions_line(("numpy", "numba", "open_spiel")))
    print("ns of CPU time per move (min of 15 repeats, GC off); samplers: late in the game")
    for game in args.games:
        rows = profile(game)
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{game}   load {load}")
        for name, ns in rows:
            print(f"{game}: {name}" if ns is None else f"  {ns:8.0f}  {name}")


if __name__ == "__main__":
    main()
