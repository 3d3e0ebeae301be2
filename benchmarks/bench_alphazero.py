"""AlphaZero from scratch on a board game, over several seeds: strength against fixed bots,
env steps, wall time and self-play speed.

For each seed: train the zoo self-play config for ``--minutes`` of wall time, then evaluate the
last checkpoint in ``--games`` games against each bot (colours alternate; the perfect TicTacToe
bot breaks ties between optimal moves at random, so the games differ); win/draw/loss is printed
over all games and with the agent first and second. TicTacToe also scores
the raw network (no search) on every reachable position against the alpha-beta oracle: a move
counts as perfect when it keeps the position's game-theoretic value (win, draw or loss);
Connect4 does the same on 200 positions from random games labelled by the exact solver, with
and without search.
Self-play speed is read from ``progress.csv``: positions per second while collecting, and the
share of collect time spent outside the network's forward pass (search, env, Python).

The issue's bars (2 CPU cores): TicTacToe, 3 minutes: no loss in 100 games against the perfect
bot and at least 95% perfect raw-policy moves; Connect4, 60 minutes: at least 95% against the
rule bot and 50% against MCTS at 1,000 rollouts, at no more than 200 simulations a move;
Gomoku 9x9, 60 minutes: at least 90% against the rule bot; outside-forward share at most 25%.
The issue caps the evaluation search of Connect4 only (200 simulations); Gomoku's last checkpoint
is judged at 1,600 simulations a move (``EVAL_SIMULATIONS``, AlphaGo Zero's figure), while the
config's in-training evaluation stays at 200, so that evaluation does not eat the hour of
training. Otherwise the evaluation searches the config's ``eval_num_simulations``.

Run: ``python benchmarks/bench_alphazero.py --game tictactoe --seeds 0 1 2 --minutes 3``;
``--search gumbel`` trains the game's Gumbel AlphaZero config instead (TicTacToe's bar for it:
the same, within 1 minute at 16 simulations).
``--ckpt PATH`` evaluates one saved checkpoint of a run instead (``iteration_N`` checkpoints
too: a run stopped at N iterations, as the learning rate of these configs does not depend on
the time budget), reading the run's ``progress.csv`` and ``config.json`` beside ``ckpt/``.
"""

from __future__ import annotations

import copy
import csv
import importlib
import os
import shutil
import time
from pathlib import Path

import numpy as np
from bench_args import cpu_model, positive_float, positive_int, require, script_parser

from lzero.cli_train import agent_fpu_reduction, fpu_reduction_arg

GAMES = {
    "tictactoe": (
        "zoo.board_games.tictactoe.config.tictactoe_alphazero_sp_mode_config",
        ["alpha_beta", "rule"],
    ),
    "connect4": (
        "zoo.board_games.connect4.config.connect4_alphazero_sp_mode_config",
        ["rule", "mcts"],
    ),
    "gomoku": ("zoo.board_games.gomoku.config.gomoku_9x9_alphazero_sp_mode_config", ["rule"]),
}
#: ``--search gumbel``: the games' Gumbel AlphaZero self-play configs.
GUMBEL_CONFIGS = {
    game: f"zoo.board_games.{game}.config.{game}_gumbel_alphazero_sp_mode_config" for game in GAMES
}
#: Evaluation simulations a move where they differ from the config's ``eval_num_simulations``.
EVAL_SIMULATIONS = {"gomoku": 1600}
BARS = {
    "tictactoe": {"alpha_beta": ("loss", 0.0)},
    "connect4": {"rule": ("win", 0.95), "mcts": ("win", 0.50)},
    "gomoku": {"rule": ("win", 0.90)},
}


def reachable_positions():
    """Every unfinished TicTacToe position reachable from the empty board, with its mover."""
    from zoo.board_games.tictactoe.envs.tictactoe_rules import RULES as rules

    seen, stack, out = set(), [(np.zeros((3, 3), np.int8), 1)], []
    while stack:
        board, player = stack.pop()
        key = (board.tobytes(), player)
        if key in seen:
            continue
        seen.add(key)
        out.append((board, player))
        n = np.count_nonzero(board) + 1
        for a in np.flatnonzero(board.ravel() == 0):
            child = board.copy()
            if rules.result_after(child, rules.apply_action(child, a, player), player, n) == 0:
                stack.append((child, 3 - player))
    return out


def labelled_positions(game: str, count: int, seed: int):
    """``(board, player, scores)`` to judge moves on: every reachable TicTacToe position
    (alpha-beta scores), or Connect4 positions of 14 to 30 stones from random games (exact
    solver scores; fewer stones would take the solver seconds each)."""
    if game == "tictactoe":
        from zoo.board_games.tictactoe.envs.alpha_beta_bot import alpha_beta_values

        return [(b, p, alpha_beta_values(b, p)) for b, p in reachable_positions()]
    from lzero.envs import ENV_REGISTRY
    from zoo.board_games.connect4.envs.connect4_solver import analyze_board

    env = ENV_REGISTRY.build("connect4", {"battle_mode": "self_play_mode"})
    rng, out = np.random.default_rng(seed), []
    while len(out) < count:
        obs, stop = env.reset(), int(rng.integers(14, 31))
        for _ in range(stop):
            timestep = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if timestep.done:
                break
            obs = timestep.obs
        else:
            scores = analyze_board(obs["board"], int(obs["to_play"]))
            values = np.array([-99 if v is None else v for v in scores])
            out.append((obs["board"].copy(), int(obs["to_play"]), values))
    return out


def perfect_move_share(agent, positions, *, search: bool) -> float:
    """Share of ``positions`` where the agent's move keeps the position's game-theoretic value
    (win, draw or loss): the network's most probable move, or the searched move."""
    good = 0
    for board, player, values in positions:
        obs = {"board": board, "to_play": player}
        move = agent.act(obs) if search else int(np.argmax(agent.policy(obs)))
        good += np.sign(values[move]) == np.sign(values.max())
    return good / len(positions)


def column_mean(rows: list[dict], key: str) -> float:
    values = [float(r[key]) for r in rows if r.get(key)]
    return float(np.mean(values)) if values else float("nan")


def run_seed(
    game: str, seed: int, minutes: float, games: int, sims: int | None, out: Path,
    threads: int | None = None, search: str = "puct",
) -> bool:  # fmt: skip
    from lzero.entry import train_alphazero

    module_name = GUMBEL_CONFIGS[game] if search == "gumbel" else GAMES[game][0]
    module = importlib.import_module(module_name)
    main = copy.deepcopy(module.main_config)
    main.exp_name = str(out / f"{game}_{search}_seed{seed}")
    if Path(main.exp_name).exists():  # a run refuses a directory holding one: ours to replace
        print(f"replacing the previous benchmark run in {main.exp_name}", flush=True)
        shutil.rmtree(main.exp_name)
    if threads is not None:
        main.policy.torch_num_threads = threads
    start = time.perf_counter()
    policy = train_alphazero([main, module.create_config], seed=seed, max_time_s=minutes * 60)
    train_s = time.perf_counter() - start
    ckpt = Path(main.exp_name) / "ckpt" / "ckpt_last.pth.tar"
    line, ok = evaluate(game, seed, ckpt, games, sims)
    line = f"{game} seed {seed}: {policy.train_iter} iterations, {train_s:.0f} s; " + line
    ok = ok and train_s <= minutes * 60 * 1.1 + 60
    print(line + f" -> {'PASS' if ok else 'FAIL'}", flush=True)
    write_result(game, search, seed, minutes, threads, line, ok)
    return ok


def write_result(game, search, seed, minutes, threads, line: str, ok: bool) -> None:
    """The run's report as JSON in ``benchmarks/results/`` (one file per game, search and
    seed; the history of a figure is its file's in git)."""
    import json
    from datetime import datetime, timezone

    cpu = cpu_model()
    path = Path(__file__).parent / "results" / f"alphazero_{game}_{search}_seed{seed}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "figure": "AlphaZero from scratch: strength after a wall-time budget", "game": game,
        "search": search, "seed": seed, "minutes": minutes, "torch_threads": threads,
        "report": line, "bars_met": bool(ok),
        "command": f"python benchmarks/bench_alphazero.py --game {game} --search {search} "
        f"--seeds {seed} --minutes {minutes:g}"
        + (f" --torch-threads {threads}" if threads else ""),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"), "cpu": cpu,
        "cores": os.cpu_count(), "load": round(os.getloadavg()[0], 2),
    }  # fmt: skip
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"results: {path}", flush=True)


def evaluate(
    game: str,
    seed: int,
    ckpt: Path,
    games: int,
    sims: int | None,
    fpu: float | str | None = None,
    reuse_tree: bool = False,
) -> tuple[str, bool]:
    """The report line of a run's checkpoint ``ckpt`` (its experiment folder holds the
    ``progress.csv`` and ``config.json`` of the run) and whether it meets the game's bars.
    ``fpu``: the search's ``fpu_reduction`` ('off': None; None: the config's); ``reuse_tree``:
    the agent's (``lzero.agent.Agent``)."""
    import json

    from lzero.agent import load_agent, read_checkpoint
    from lzero.worker.alphazero_evaluator import play_games, summarize

    _, bots = GAMES[game]
    exp = ckpt.parent.parent
    with open(exp / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    with open(exp / "config.json") as f:
        policy_cfg = json.load(f)["policy"]
    saved = read_checkpoint(ckpt)
    iteration = int(saved["train_iter"])
    rows = [r for r in rows if int(r["train_iter"]) <= iteration]
    eval_sims = (
        sims
        if sims is not None
        else policy_cfg.get("eval_num_simulations") or policy_cfg["mcts"]["num_simulations"]
    )
    openings = policy_cfg.get("eval_opening_moves", 0)
    # eval_alphazero's games, kept per game so that each colour's share can be printed too
    # (the agent is player 1 in the even games)
    fpu = agent_fpu_reduction(fpu)
    agent = load_agent(ckpt, eval_sims, fpu_reduction=fpu, reuse_tree=reuse_tree)
    g = saved["game"]
    outcomes = {
        bot: play_games(
            agent.act_batch, g["create_env"], g["env_config"], bot, games, 10_000 + seed, openings
        )
        for bot in bots
    }
    results = {bot: summarize(o) for bot, o in outcomes.items()}
    line = (
        f"checkpoint at iteration {iteration}, {saved['env_step']} env steps, "
        f"{float(saved['wall_time']):.0f} s of training; self-play {column_mean(rows, 'positions_per_s'):.0f} positions/s at "
        f"{policy_cfg['mcts']['num_simulations']} sims, outside-forward share {column_mean(rows, 'search_share'):.2f}; "
        f"eval at {eval_sims} sims{f', contempt {agent.contempt}' if agent.contempt else ''}"
        f"{'' if agent.fpu_reduction is None else f', fpu reduction {agent.fpu_reduction}'}"
        f"{', subtrees kept between moves' if agent.reuse_tree else ''}, "
        f"{games} games per bot, {openings}-move random openings:"
    )
    for bot, r in results.items():
        first, second = summarize(outcomes[bot][0::2]), summarize(outcomes[bot][1::2])
        line += (
            f" {bot} {r['win']:.2f}/{r['draw']:.2f}/{r['loss']:.2f} (first "
            f"{first['win']:.2f}/{first['draw']:.2f}/{first['loss']:.2f}, second "
            f"{second['win']:.2f}/{second['draw']:.2f}/{second['loss']:.2f})"
        )
    ok = True
    for bot, (key, bar) in BARS[game].items():
        value = results[bot][key]
        ok &= value <= bar if key == "loss" else value >= bar
    if game in ("tictactoe", "connect4"):
        positions = labelled_positions(game, 200, seed)
        raw = perfect_move_share(load_agent(ckpt, num_simulations=0), positions, search=False)
        line += f"; raw policy perfect on {raw:.1%} of {len(positions)} labelled positions"
        if game == "tictactoe":
            ok &= raw >= 0.95
        else:
            agent = load_agent(ckpt, num_simulations=eval_sims)
            line += f", with search {perfect_move_share(agent, positions, search=True):.1%}"
    return line, ok


def ckpt_problem(ckpt: Path, game: str) -> str | None:
    """Why ``--ckpt`` cannot be evaluated as a run of ``game`` (None if it can): not a file,
    not in a run's ``ckpt/`` folder (the run's ``progress.csv`` and ``config.json`` beside
    it), not an AlphaZero checkpoint (``read_checkpoint``'s message), or one of another game."""
    if not ckpt.is_file():
        why = "a directory" if ckpt.is_dir() else "not found"
        return (
            f"expected a checkpoint file of a run (EXP/ckpt/*.pth.tar), got {str(ckpt)!r} ({why})"
        )
    for name in ("progress.csv", "config.json"):
        if not (ckpt.parent.parent / name).is_file():
            return (
                f"expected a checkpoint in a run's ckpt/ folder, the run's progress.csv and "
                f"config.json beside that folder, got {str(ckpt)!r}: "
                f"{ckpt.parent.parent / name} not found"
            )
    require("torch", "bench_alphazero.py")
    from lzero.agent import read_checkpoint
    from lzero.errors import ConfigError

    try:
        saved = read_checkpoint(ckpt)
    except ConfigError as err:
        return str(err)
    name = saved["game"]["name"]
    if name != game:
        hint = f": pass --game {name}" if name in GAMES else ""
        return f"expected a checkpoint of {game} (--game), got one of {name}{hint}"
    return None


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument(
        "--game", choices=sorted(GAMES), default="tictactoe", help="the zoo self-play config"
    )
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=[0, 1, 2], help="one training run each"
    )
    parser.add_argument(
        "--minutes", type=positive_float, default=3.0, help="training wall time per seed"
    )
    parser.add_argument("--games", type=positive_int, default=100, help="evaluation games per bot")
    parser.add_argument(
        "--simulations", type=positive_int, default=None,
        help="eval simulations a move (default: the game's EVAL_SIMULATIONS, else the config's)",
    )  # fmt: skip
    parser.add_argument(
        "--search", choices=["puct", "gumbel"], default="puct",
        help="the game's AlphaZero self-play config (puct) or its Gumbel AlphaZero one",
    )  # fmt: skip
    parser.add_argument("--out", default="data_bench_alphazero", help="folder of the runs")
    parser.add_argument(
        "--torch-threads", type=positive_int, default=None,
        help="torch threads of training and evaluation (default: the config's); 1 lets seeds "
        "run side by side, each on part of the machine",
    )  # fmt: skip
    parser.add_argument(
        "--ckpt", default=None, help="only evaluate this checkpoint of a run (its first seed's)"
    )
    parser.add_argument(
        "--fpu-reduction", dest="fpu", default=None, type=fpu_reduction_arg,
        help="with --ckpt: the evaluation search's fpu_reduction, a number >= 0 or 'off' "
        "(default: the run's eval_fpu_reduction)",
    )  # fmt: skip
    parser.add_argument(
        "--reuse-tree", action="store_true",
        help="with --ckpt: the agent keeps the subtrees of its earlier searches between moves "
        "(num_simulations more each move)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.fpu is not None and not args.ckpt:
        parser.error("--fpu-reduction applies to --ckpt (a run's evaluation uses its config's)")
    if args.reuse_tree and not args.ckpt:
        parser.error("--reuse-tree applies to --ckpt")
    if args.ckpt and (problem := ckpt_problem(Path(args.ckpt), args.game)):
        parser.error(f"argument --ckpt: {problem}")
    require("torch", "bench_alphazero.py")
    if args.simulations is None:
        args.simulations = EVAL_SIMULATIONS.get(args.game)
    print(
        f"settings: game {args.game}, search {args.search}, seeds {args.seeds}, "
        f"{f'evaluating {args.ckpt}' if args.ckpt else f'{args.minutes} min per seed'}, {args.games} games "
        f"per bot at {args.simulations or 'the configured'} simulations; torch threads {args.torch_threads or 'as configured'}; {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    if args.ckpt:
        line, ok = evaluate(
            args.game, args.seeds[0], Path(args.ckpt), args.games, args.simulations, args.fpu,
            args.reuse_tree,
        )  # fmt: skip
        print(f"{args.game} seed {args.seeds[0]}: {line} -> {'PASS' if ok else 'FAIL'}")
        return
    passed = [
        run_seed(
            args.game,
            s,
            args.minutes,
            args.games,
            args.simulations,
            Path(args.out),
            args.torch_threads,
            args.search,
        )
        for s in args.seeds
    ]
    print(f"{sum(passed)} of {len(passed)} seeds met the bars")


if __name__ == "__main__":
    main()
