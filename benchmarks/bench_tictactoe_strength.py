"""A TicTacToe agent's strength, graded exhaustively: its move on every unfinished position
reachable from the empty board (4,520), against the alpha-beta oracle's value of each move, and
its games against the perfect, rule and MCTS bots.

A move is an error when the outcome it leads to (win, draw or loss for the mover) is worse
than the best move's (``bench_connect4_strength.py``'s rule). Errors are printed over all
positions and by stones on the board, for the network alone and with ``--simulations`` of its
search; then ``--games`` games a bot at that search, colours alternating, without random
openings (the perfect bot breaks ties between optimal moves at random, so the games differ).

    python benchmarks/bench_tictactoe_strength.py --ckpt PATH|pretrained [--simulations 16]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from bench_args import (
    machine_record,
    non_negative_int,
    positive_int,
    pretrained_or_file,
    require,
    script_parser,
    write_results,
)

BOTS = ("alpha_beta", "rule", "mcts")


def labelled():
    """Boards `[N, 3, 3]`, movers `[N]` and each cell's value `[N, 9]` for the mover (win 1,
    draw 0, loss -1; -2 on an occupied cell)."""
    from bench_alphazero import reachable_positions

    from zoo.board_games.tictactoe.envs.alpha_beta_bot import alpha_beta_values

    positions = reachable_positions()
    boards = np.array([b for b, _ in positions], dtype=np.int8)
    movers = np.array([p for _, p in positions], dtype=np.int64)
    values = np.full((len(positions), 9), -2, dtype=np.int64)
    for i, (board, player) in enumerate(positions):
        v = np.asarray(alpha_beta_values(board, player))
        empty = board.ravel() == 0
        values[i, empty] = np.sign(v[empty])
    return boards, movers, values


def grade(agent, boards, movers, values) -> dict:
    legal = values > -2
    moves = agent.act_batch(boards, movers, legal)
    chosen = values[np.arange(len(moves)), moves]
    errors = chosen < values.max(axis=1)
    stones = np.count_nonzero(boards.reshape(len(boards), -1), axis=1)
    return {
        "positions": len(moves),
        "error_rate": round(float(errors.mean()), 4),
        "by_stones": {
            int(n): round(float(errors[stones == n].mean()), 4) for n in np.unique(stones)
        },
    }


def line(label: str, g: dict) -> str:
    by = ", ".join(f"{n}: {e:.1%}" for n, e in g["by_stones"].items())
    return f"{label}: errors {g['error_rate']:.2%} of {g['positions']} positions (by stones {by})"


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--ckpt", required=True, help="a TicTacToe checkpoint, or 'pretrained'")
    parser.add_argument("--simulations", type=positive_int, default=16, help="search a move")
    parser.add_argument("--games", type=non_negative_int, default=100, help="games a bot (even)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="the games' seed")
    parser.add_argument("--out", default=None, help="results file name in benchmarks/results/")
    args = parser.parse_args()
    if args.games % 2:
        parser.error(f"argument --games: expected an even number (both colours), got {args.games}")
    require("torch", "bench_tictactoe_strength.py")
    from lzero.agent import load_agent, read_checkpoint
    from lzero.worker.alphazero_evaluator import play_games, summarize

    ckpt, rec = pretrained_or_file(args.ckpt, "tictactoe")
    saved = read_checkpoint(ckpt)
    if saved["game"]["name"] != "tictactoe":
        sys.exit(f"--ckpt: expected a TicTacToe checkpoint, got one of {saved['game']['name']}")
    start = time.perf_counter()
    boards, movers, values = labelled()
    raw = grade(load_agent(ckpt, num_simulations=0), boards, movers, values)
    print(line("network alone", raw), flush=True)
    agent = load_agent(ckpt, num_simulations=args.simulations)
    searched = grade(agent, boards, movers, values)
    print(line(f"with {args.simulations} simulations", searched), flush=True)
    record = {
        "figure": "TicTacToe agent graded on every reachable position",
        "ckpt": args.ckpt, "train_iter": int(saved["train_iter"]),
        "env_step": int(saved["env_step"]),
        "training_minutes": round(float(saved.get("wall_time", 0.0)) / 60, 2), "recipe": rec,
        "simulations": args.simulations,
        "errors": {"network": raw, f"search_{args.simulations}": searched}, "bots": {},
    }  # fmt: skip
    for bot in BOTS if args.games else ():
        outcome = play_games(
            agent.act_batch, saved["game"]["create_env"], saved["game"]["env_config"], bot,
            args.games, args.seed,
        )  # fmt: skip
        r = {"all": summarize(outcome), "first": summarize(outcome[0::2]),
             "second": summarize(outcome[1::2])}  # fmt: skip
        record["bots"][bot] = r
        print(
            f"  {bot}: win/draw/loss {r['all']['win']:.2f}/{r['all']['draw']:.2f}/"
            f"{r['all']['loss']:.2f} in {args.games} games",
            flush=True,
        )
    record["seconds"] = round(time.perf_counter() - start, 1)
    record["command"] = "python benchmarks/bench_tictactoe_strength.py " + " ".join(sys.argv[1:])
    record.update(machine_record())
    write_results(
        record, args.out or f"tictactoe_strength_{Path(args.ckpt).stem.split('.')[0]}.json"
    )


if __name__ == "__main__":
    main()
