"""A Connect4 agent's strength, graded by the exact solver: its move error rate on labelled
positions of Pascal Pons' six kinds, and its games against the rule, MCTS and perfect bots.

The positions (``zoo.board_games.connect4.eval.connect4_positions``): ``--per-kind``
positions of each kind (distinct move strings) (stage by stones played: beginning 1-13, middle 14-27, end
28-41; difficulty by moves left under perfect play: easy under 14, medium 14-27, hard 28 or
more), from random games seeded by ``--sets-seed`` (each move a random column that does not
complete four, positions whose mover can win at once left out), every column scored by our
solver with its opening book. They are built once and kept in ``benchmarks/data/`` (a file per
seed and size; ``--rebuild`` builds it again). A move is an error when the outcome it leads to
(win, draw or loss for the mover) is worse than the best move's. As in Pons' sets, and as
AlphaZero.jl reports its errors on them, every position counts, including those where no move
is an error (each kind's share of positions where some move is one is printed beside it).

The agent is graded twice: the network alone (its most probable legal move) and with
``--simulations`` of its search. Then it plays ``--games`` games against each bot at that
search, colours alternating, each pair of games from one 2-move random opening: the rule bot,
the MCTS bot at 1,000 rollouts a move, and the perfect bot (the solver; ties between optimal
moves broken at random).

    python benchmarks/bench_connect4_strength.py --ckpt PATH [--simulations 800]
        [--per-kind 1000] [--games 100] [--bots rule mcts perfect]
    python benchmarks/bench_connect4_strength.py --curve EXP_DIR [--simulations 200]
    python benchmarks/bench_connect4_strength.py --grade-bots

``--ckpt pretrained`` grades the agent the package ships. ``--curve`` grades every
``iteration_N`` checkpoint of a training run (no games; the network alone on every position,
with search on the first ``--search-per-kind`` of each kind), against its training time read
from the run's ``progress.csv``, and draws the curve as a PNG (``--png``; needs matplotlib, in the
``train`` extra). ``--grade-bots`` grades the rule bot and the MCTS bot at 1,000 rollouts on
the same positions, the figures to set beside an agent's. Results go to ``benchmarks/results/`` as JSON.
"""

from __future__ import annotations

import csv
import json
import re
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

HERE = Path(__file__).parent
BOTS = ("rule", "mcts", "perfect")
MCTS_BOT_SIMULATIONS = 1000
OPENING_MOVES = 2


def sets_path(seed: int, per_kind: int) -> Path:
    return HERE / "data" / f"connect4_kinds_seed{seed}_{per_kind}.json"


def load_sets(seed: int, per_kind: int, rebuild: bool) -> dict[str, list]:
    """The labelled positions, built (and saved) when there is no file for them yet."""
    from zoo.board_games.connect4.eval.connect4_positions import KIND_NAMES, build_sets

    path = sets_path(seed, per_kind)
    if path.is_file() and not rebuild:
        record = json.loads(path.read_text())
        print(f"positions: {path.relative_to(HERE.parent)} ({record['made']})", flush=True)
        return {k: [(m, s) for m, s in record["sets"][k]] for k in KIND_NAMES}
    from zoo.board_games.connect4.envs.connect4_book import book_available
    from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver

    if not book_available():
        sys.exit(
            "building the positions needs the solver's opening book (beginning positions take "
            "minutes each without it): pip install -e '.[perfect]'"
        )
    start = time.perf_counter()
    sets = build_sets(per_kind, seed, Connect4Solver(opening_book=True))
    made = (
        f"{per_kind} positions (distinct move strings) a kind from random games seeded {seed} (each move a "
        "random column that does not complete four, movers that can win at once left out), "
        f"every column scored by the exact solver; built in {time.perf_counter() - start:.0f} s"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"made": made, "sets": sets}, separators=(",", ":")) + "\n")
    print(f"positions: built {path.relative_to(HERE.parent)} ({made})", flush=True)
    return sets


def grade(agent, sets: dict[str, list], chunk: int = 250) -> dict[str, dict]:
    """Per kind: the agent's error rate over all positions, the share of positions where some
    move is an error, and the error rate over those."""
    from zoo.board_games.connect4.envs.connect4_solver import FULL_COLUMN
    from zoo.board_games.connect4.eval.connect4_positions import boards_of, can_err, move_errors

    out = {}
    for kind, rows in sets.items():
        moves = [m for m, _ in rows]
        scores = np.array([s for _, s in rows], dtype=np.int64)
        boards, to_play = boards_of(moves)
        legal = scores != FULL_COLUMN
        chosen = np.concatenate(
            [
                agent.act_batch(boards[i : i + chunk], to_play[i : i + chunk], legal[i : i + chunk])
                for i in range(0, len(moves), chunk)
            ]
        )
        errors, open_ = move_errors(chosen, scores), can_err(scores)
        out[kind] = {
            "positions": len(moves),
            "error_rate": round(float(errors.mean()), 4),
            "choice_share": round(float(open_.mean()), 4),
            "error_rate_where_choice": (
                round(float(errors[open_].mean()), 4) if open_.any() else None
            ),
        }
    return out


class BotPlayer:
    """A bot of a board env as a player of positions (``act_batch``): each position is set on
    one env (``reset(init_state=...)``, which also drops the MCTS bot's tree) and the bot asked
    for its move there. The env is seeded once without a dynamic seed, so every position's
    bot starts from the same random stream: the grades are deterministic. ``legal`` is not
    read (the env computes its own mask from the board)."""

    def __init__(self, kind: str, seed: int, game: str = "connect4", **env_cfg) -> None:
        from lzero.envs import ENV_REGISTRY

        self.kind = kind
        env_cfg.setdefault("mcts_bot_num_simulations", MCTS_BOT_SIMULATIONS)
        self.env = ENV_REGISTRY.build(game, {"battle_mode": "self_play_mode", **env_cfg})
        self.env.seed(seed, dynamic_seed=False)

    def act_batch(self, boards, to_play, legal) -> np.ndarray:
        from zoo.board_games.env_support import bot_move

        out = np.empty(len(boards), dtype=np.int64)
        for i, (board, player) in enumerate(zip(boards, to_play)):
            self.env.reset(start_player_index=int(player) - 1, init_state=board)
            out[i] = bot_move(self.env, self.kind)
        return out


def run_bots(args) -> None:
    """``--grade-bots``: the error rates of the rule and MCTS bots on the same positions (the
    first ``--bot-positions`` of each kind: the MCTS bot takes a second or so a move)."""
    sets = load_sets(args.sets_seed, args.per_kind, args.rebuild)
    sets = {kind: rows[: args.bot_positions] for kind, rows in sets.items()}
    record = {
        "figure": "Connect4 bots graded by the exact solver",
        "positions": {
            "sets_seed": args.sets_seed,
            "per_kind": args.per_kind,
            "graded_per_kind": min(args.per_kind, args.bot_positions),
        },
        "mcts_rollouts": MCTS_BOT_SIMULATIONS,
        "errors": {},
    }
    start = time.perf_counter()
    for kind in ("rule", "mcts"):
        graded = grade(BotPlayer(kind, args.seed), sets)
        record["errors"][kind] = graded
        label = f"mcts bot ({MCTS_BOT_SIMULATIONS} rollouts)" if kind == "mcts" else "rule bot"
        print(grade_line(label, graded), flush=True)
    record["seconds"] = round(time.perf_counter() - start, 1)
    record["command"] = "python benchmarks/bench_connect4_strength.py " + " ".join(sys.argv[1:])
    record.update(machine_record())
    write_results(record, args.out or "connect4_strength_bots.json")


def grade_line(label: str, graded: dict[str, dict]) -> str:
    parts = []
    for kind, g in graded.items():
        where = g["error_rate_where_choice"]
        where = "no position with an error to make" if where is None else (
            f"{where:.1%} of the {g['choice_share']:.0%} where some move is an error"
        )  # fmt: skip
        parts.append(f"{kind} {g['error_rate']:.1%} ({where})")
    return f"{label}: errors " + "; ".join(parts)


def play_bots(agent, saved: dict, bots: list[str], games: int, seed: int) -> dict[str, dict]:
    from lzero.worker.alphazero_evaluator import play_games, summarize

    env_config = dict(saved["game"]["env_config"], mcts_bot_num_simulations=MCTS_BOT_SIMULATIONS)
    out = {}
    for bot in bots:
        outcome = play_games(
            agent.act_batch, saved["game"]["create_env"], env_config, bot, games, seed,
            OPENING_MOVES,
        )  # fmt: skip
        out[bot] = {
            "all": summarize(outcome),
            "first": summarize(outcome[0::2]),
            "second": summarize(outcome[1::2]),
        }
        r = out[bot]
        print(
            f"  {bot}{f' ({MCTS_BOT_SIMULATIONS} rollouts)' if bot == 'mcts' else ''}: "
            f"win/draw/loss {r['all']['win']:.2f}/{r['all']['draw']:.2f}/{r['all']['loss']:.2f}"
            f" (first {r['first']['win']:.2f}/{r['first']['draw']:.2f}/{r['first']['loss']:.2f},"
            f" second {r['second']['win']:.2f}/{r['second']['draw']:.2f}/"
            f"{r['second']['loss']:.2f})",
            flush=True,
        )
    return out


def run_ckpt(args) -> None:
    from lzero.agent import load_agent, read_checkpoint

    ckpt, recipe = pretrained_or_file(args.ckpt, "connect4")
    saved = read_checkpoint(ckpt)
    if saved["game"]["name"] != "connect4":
        sys.exit(f"--ckpt: expected a Connect4 checkpoint, got one of {saved['game']['name']}")
    sets = load_sets(args.sets_seed, args.per_kind, args.rebuild)
    print(
        f"checkpoint {ckpt}: iteration {saved['train_iter']}, {saved['env_step']} env steps, "
        f"{float(saved.get('wall_time', 0.0)) / 60:.1f} min of training",
        flush=True,
    )
    record = {
        "figure": "Connect4 agent graded by the exact solver",
        "ckpt": str(args.ckpt),
        "train_iter": int(saved["train_iter"]),
        "env_step": int(saved["env_step"]),
        "training_minutes": round(float(saved.get("wall_time", 0.0)) / 60, 1),
        "positions": {"sets_seed": args.sets_seed, "per_kind": args.per_kind},
        "recipe": recipe,
    }
    start = time.perf_counter()
    raw = grade(load_agent(ckpt, num_simulations=0), sets)
    print(grade_line("network alone", raw), flush=True)
    agent = load_agent(ckpt, num_simulations=args.simulations)
    first = args.search_per_kind or args.per_kind
    searched = grade(agent, {kind: rows[:first] for kind, rows in sets.items()})
    print(grade_line(f"with {args.simulations} simulations", searched), flush=True)
    record["errors"] = {"network": raw, f"search_{args.simulations}": searched}
    record["positions"]["searched_per_kind"] = min(first, args.per_kind)
    record["simulations"] = args.simulations
    if args.games:
        print(
            f"{args.games} games a bot at {args.simulations} simulations, colours alternating, "
            f"{OPENING_MOVES}-move random openings (seed {args.seed}):",
            flush=True,
        )
        record["games"] = args.games
        record["bots"] = play_bots(agent, saved, args.bots, args.games, args.seed)
    record["seconds"] = round(time.perf_counter() - start, 1)
    record["command"] = "python benchmarks/bench_connect4_strength.py " + " ".join(sys.argv[1:])
    record.update(machine_record())
    name = args.out or f"connect4_strength_{Path(args.ckpt).stem.split('.')[0]}.json"
    write_results(record, name)


def run_curve(args) -> None:
    from lzero.agent import load_agent, read_checkpoint

    exp = Path(args.curve)
    ckpts = sorted(
        (exp / "ckpt").glob("iteration_*.pth.tar"),
        key=lambda p: int(re.search(r"iteration_(\d+)", p.name).group(1)),
    )
    if not ckpts:
        sys.exit(f"--curve: expected a run's folder with ckpt/iteration_N.pth.tar, got {exp}")
    with open(exp / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    sets = load_sets(args.sets_seed, args.per_kind, args.rebuild)
    search_per_kind = args.search_per_kind or 200
    searched_sets = {kind: rows[:search_per_kind] for kind, rows in sets.items()}
    print(
        f"the network alone on all {args.per_kind} positions a kind, with {args.simulations} "
        f"simulations on the first {min(args.per_kind, search_per_kind)} of each",
        flush=True,
    )
    name = args.out or f"connect4_curve_{exp.name}.json"
    done = _graded_points(HERE / "results" / name, args)
    points = []
    for ckpt in ckpts:
        saved = read_checkpoint(ckpt)
        it = int(saved["train_iter"])
        if it in done:  # graded by an earlier --curve of this run with the same settings
            points.append(done[it])
            continue
        minutes = float(saved.get("wall_time") or _wall_at(rows, it)) / 60
        point = {"train_iter": it, "env_step": int(saved["env_step"]), "minutes": round(minutes, 1)}
        point["network"] = grade(load_agent(ckpt, num_simulations=0), sets)
        point[f"search_{args.simulations}"] = grade(
            load_agent(ckpt, num_simulations=args.simulations), searched_sets
        )
        points.append(point)
        print(
            f"iteration {it} ({minutes:.0f} min): "
            + grade_line("network", point["network"])
            + " | "
            + grade_line("search", point[f"search_{args.simulations}"]),
            flush=True,
        )
    record = {
        "figure": "Connect4 error rate on solver-labelled positions against training time",
        "run": str(exp),
        "simulations": args.simulations,
        "positions": {
            "sets_seed": args.sets_seed,
            "per_kind": args.per_kind,
            "searched_per_kind": min(args.per_kind, search_per_kind),
        },
        "points": points,
        "command": "python benchmarks/bench_connect4_strength.py " + " ".join(sys.argv[1:]),
        **machine_record(),
    }
    write_results(record, name)
    if args.png:
        draw_curve(points, args.simulations, Path(args.png))


def _graded_points(path: Path, args) -> dict[int, dict]:
    """The points an earlier ``--curve`` wrote to ``path`` with the same simulations and
    positions, by iteration (so that a run's curve can be extended as it trains)."""
    if not path.is_file():
        return {}
    old = json.loads(path.read_text())
    same = old.get("simulations") == args.simulations and old.get("positions") == {
        "sets_seed": args.sets_seed,
        "per_kind": args.per_kind,
        "searched_per_kind": min(args.per_kind, args.search_per_kind or 200),
    }
    return {p["train_iter"]: p for p in old.get("points", [])} if same else {}


def _wall_at(rows: list[dict], it: int) -> float:
    """The run's wall time at iteration ``it`` (the last progress row at or before it)."""
    wall = [float(r["wall_time"]) for r in rows if int(r["train_iter"]) <= it]
    return wall[-1] if wall else 0.0


def draw_curve(points: list[dict], sims: int, png: Path) -> None:
    require("matplotlib", "bench_connect4_strength.py --png")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = list(points[0]["network"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    minutes = [p["minutes"] for p in points]
    for ax, label, title in (
        (axes[0], "network", "network alone"),
        (axes[1], f"search_{sims}", f"with {sims} simulations"),
    ):
        for kind in kinds:
            ax.plot(minutes, [100 * p[label][kind]["error_rate"] for p in points], marker="o",
                    label=kind)  # fmt: skip
        ax.set_title(title)
        ax.set_xlabel("training minutes (2 CPU cores)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("moves that change the outcome (%)")
    axes[1].legend(fontsize=8)
    fig.suptitle("Connect4 AlphaZero: error rate on solver-labelled positions")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=100)
    print(f"curve: {png}", flush=True)


def main() -> None:
    parser = script_parser(__doc__)
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--ckpt", help="an AlphaZero checkpoint of Connect4, or 'pretrained'")
    what.add_argument("--curve", metavar="EXP_DIR", help="grade every iteration_N checkpoint")
    what.add_argument(
        "--grade-bots", action="store_true", help="grade the rule and MCTS bots instead"
    )
    parser.add_argument("--simulations", type=positive_int, default=800, help="search a move")
    parser.add_argument("--per-kind", type=positive_int, default=1000, help="positions a kind")
    parser.add_argument("--sets-seed", type=non_negative_int, default=0, help="positions' seed")
    parser.add_argument("--rebuild", action="store_true", help="build the positions again")
    parser.add_argument(
        "--search-per-kind",
        type=positive_int,
        default=None,
        help="positions a kind graded with search, the first of each kind (default: 200 with "
        "--curve, all with --ckpt)",
    )
    parser.add_argument(
        "--bot-positions",
        type=positive_int,
        default=1000,
        help="--grade-bots: positions a kind graded (the first of each kind)",
    )
    parser.add_argument(
        "--games", type=non_negative_int, default=100, help="games a bot (even; 0: none)"
    )
    parser.add_argument("--bots", nargs="+", choices=BOTS, default=list(BOTS), help="opponents")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="the games' seed")
    parser.add_argument("--out", default=None, help="results file name in benchmarks/results/")
    parser.add_argument("--png", default=None, help="--curve: where to draw the curve")
    args = parser.parse_args()
    if args.games % 2:
        parser.error(f"argument --games: expected an even number (both colours), got {args.games}")
    if args.grade_bots:
        run_bots(args)
        return
    require("torch", "bench_connect4_strength.py")
    if args.curve:
        run_curve(args)
    else:
        run_ckpt(args)


if __name__ == "__main__":
    main()
