"""A Gomoku agent's (or bot's) handling of forced wins, graded by a search over continuous fours
(``zoo.board_games.gomoku.eval.gomoku_threats``): does it make five when it can, block the
opponent's five, take a VCF (a win by fours only) and stop the opponent's?

Positions: ``--per-kind`` of each kind from random boards (8 to half the board's cells of
stones, uniformly placed, nobody with five; seeded by ``--sets-seed``), labelled by the search
to ``--depth`` fours. ``win``, ``block`` and ``vcf`` print the share of right moves; ``stop``
the share of sure errors (moves after which the opponent's VCF still stands; the search finds
wins by fours only, so a move it cannot refute is not proved right).

    python benchmarks/bench_gomoku_strength.py --ckpt PATH [--simulations 200]
    python benchmarks/bench_gomoku_strength.py --bot rule|mcts [--mcts-simulations 1600]
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
    require,
    script_parser,
    write_results,
)
from bench_connect4_strength import BotPlayer


def grade(player, sets: dict, depth: int) -> dict:
    from zoo.board_games.gomoku.eval.gomoku_threats import move_is_right

    out = {}
    for kind, rows in sets.items():
        boards = np.array([b for b, _ in rows], dtype=np.int8)
        movers = np.array([m for _, m in rows], dtype=np.int64)
        legal = (boards == 0).reshape(len(rows), -1)
        moves = player.act_batch(boards, movers, legal)
        size = boards.shape[1]
        right = [
            move_is_right(b.copy(), int(m), kind, divmod(int(a), size), depth)
            for b, m, a in zip(boards, movers, moves)
        ]
        share = float(np.mean(right))
        key = "sure_error_share" if kind == "stop" else "right_share"
        out[kind] = {"positions": len(rows), key: round(1 - share if kind == "stop" else share, 4)}
    return out


def line(label: str, graded: dict) -> str:
    parts = []
    for kind, g in graded.items():
        if kind == "stop":
            parts.append(f"stop: {g['sure_error_share']:.1%} sure errors")
        else:
            parts.append(f"{kind}: {g['right_share']:.1%} right")
    return f"{label}: " + "; ".join(parts) + f" ({graded['win']['positions']} positions a kind)"


def main() -> None:
    parser = script_parser(__doc__)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--ckpt", help="a Gomoku checkpoint of lzero train")
    who.add_argument("--bot", choices=("rule", "mcts"), help="grade a bot instead")
    parser.add_argument("--simulations", type=positive_int, default=200, help="agent search")
    parser.add_argument("--mcts-simulations", type=positive_int, default=1600, help="mcts bot")
    parser.add_argument("--board-size", type=positive_int, default=9, help="5 to 19")
    parser.add_argument("--per-kind", type=positive_int, default=100, help="positions a kind")
    parser.add_argument("--depth", type=positive_int, default=6, help="fours the search reads")
    parser.add_argument("--sets-seed", type=non_negative_int, default=0, help="positions' seed")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="the bots' seed")
    parser.add_argument("--out", default=None, help="results file name in benchmarks/results/")
    args = parser.parse_args()
    from zoo.board_games.gomoku.eval.gomoku_threats import build_sets

    start = time.perf_counter()
    sets = build_sets(args.per_kind, args.sets_seed, args.board_size, args.depth)
    print(f"positions built in {time.perf_counter() - start:.0f} s", flush=True)
    record = {
        "figure": "Gomoku forced wins: made, blocked, taken and stopped",
        "board_size": args.board_size, "depth": args.depth,
        "positions": {"sets_seed": args.sets_seed, "per_kind": args.per_kind},
    }  # fmt: skip
    if args.bot:
        player = BotPlayer(
            args.bot, args.seed, "gomoku", board_size=args.board_size,
            mcts_bot_num_simulations=args.mcts_simulations,
        )  # fmt: skip
        label = f"{args.bot} bot" + (
            f" ({args.mcts_simulations} rollouts)" if args.bot == "mcts" else ""
        )
        record["player"] = label
        graded = {"bot": grade(player, sets, args.depth)}
        print(line(label, graded["bot"]), flush=True)
    else:
        require("torch", "bench_gomoku_strength.py")
        from lzero.agent import load_agent

        if not Path(args.ckpt).is_file():
            sys.exit(f"--ckpt: expected a checkpoint file, got {args.ckpt!r} (not found)")
        record["player"] = args.ckpt
        graded = {}
        for name, sims in (("network", 0), (f"search_{args.simulations}", args.simulations)):
            agent = load_agent(args.ckpt, num_simulations=sims)
            agent.check_game("gomoku", (args.board_size, args.board_size))
            graded[name] = grade(agent, sets, args.depth)
            print(line(name, graded[name]), flush=True)
    record["grades"] = graded
    record["seconds"] = round(time.perf_counter() - start, 1)
    record["command"] = "python benchmarks/bench_gomoku_strength.py " + " ".join(sys.argv[1:])
    record.update(machine_record())
    who = args.bot or Path(args.ckpt).stem.split(".")[0]
    write_results(record, args.out or f"gomoku_strength_{who}.json")


if __name__ == "__main__":
    main()
