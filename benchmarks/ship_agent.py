"""Ships a trained checkpoint as its game's agent (``lzero.pretrained``): copies it to
``zoo/board_games/<game>/pretrained/agent.pth.tar`` (a ``ckpt_last`` without its run state,
the replay buffer and random streams that only ``--resume`` reads) and writes ``recipe.json`` beside it
from the checkpoint itself (seed, iterations, env steps, training minutes), the training
command and commit given, and the grading script's results file (its figures become the
recipe's ``strength``).

    python benchmarks/ship_agent.py --ckpt RUN/ckpt/iteration_N.pth.tar --config MODULE
        --command "lzero train MODULE --seed 0 ..." --commit SHA --strength RESULTS.json
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from bench_args import require, script_parser

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--ckpt", required=True, help="the checkpoint to ship")
    parser.add_argument("--config", required=True, help="the config module it was trained with")
    parser.add_argument("--command", required=True, help="the training command, as run")
    parser.add_argument("--commit", required=True, help="the commit it was trained at")
    parser.add_argument("--strength", required=True, help="the grading script's results JSON")
    parser.add_argument("--note", default="", help="anything else the recipe should say")
    args = parser.parse_args()
    require("torch", "ship_agent.py")
    from lzero.agent import read_checkpoint

    ckpt = Path(args.ckpt)
    saved = read_checkpoint(ckpt)
    game = saved["game"]["name"]
    strength = json.loads(Path(args.strength).read_text())
    graded = Path(str(strength.get("ckpt", ""))).resolve()
    if graded != ckpt.resolve() or strength.get("train_iter") != int(saved["train_iter"]):
        sys.exit(
            f"--strength: expected the grades of {ckpt} (iteration {saved['train_iter']}), got "
            f"those of {strength.get('ckpt')!r} (iteration {strength.get('train_iter')})"
        )
    if "wall_time" not in saved:
        sys.exit(f"--ckpt: {ckpt} records no training time (wall_time); nothing to ship")
    known = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{args.commit}^{{commit}}"],
        capture_output=True, text=True,
    )  # fmt: skip
    if known.returncode:
        sys.exit(f"--commit: expected a commit of this repository, got {args.commit!r}")
    if f"lzero train {args.config}" not in args.command:
        sys.exit(f"--command: expected 'lzero train {args.config} ...', got {args.command!r}")
    recipe = {
        "game": game,
        "config": args.config,
        "seed": int(saved["seed"]),
        "command": args.command,
        "commit": known.stdout.strip()[:12],
        "checkpoint": ckpt.name,
        "train_iter": int(saved["train_iter"]),
        "env_step": int(saved["env_step"]),
        "training_minutes": round(float(saved["wall_time"]) / 60, 1),
        "strength": {
            k: strength[k] for k in ("simulations", "errors", "bots", "games") if k in strength
        },
        "strength_command": strength.get("command"),
        "measured": {k: strength.get(k) for k in ("date", "cpu", "cores")},
        "note": args.note,
    }
    folder = ROOT / "zoo" / "board_games" / game / "pretrained"
    folder.mkdir(parents=True, exist_ok=True)
    if "run_state" in saved:
        from lzero.utils.checkpoint_file import save_checkpoint_file

        save_checkpoint_file(
            {k: v for k, v in saved.items() if k != "run_state"}, folder / "agent.pth.tar"
        )
    else:
        shutil.copyfile(ckpt, folder / "agent.pth.tar")
    (folder / "recipe.json").write_text(json.dumps(recipe, indent=2) + "\n")
    print(f"shipped {ckpt} as {folder / 'agent.pth.tar'} with its recipe", flush=True)


if __name__ == "__main__":
    main()
