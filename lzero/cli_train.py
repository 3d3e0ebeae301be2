"""``python -m <zoo config>`` as ``lzero train <config>``, and LightZero's eval scripts as
``lzero eval``: :func:`run_as_main` and :func:`run_eval_as_main` run the command line
(``lzero.cli.main``), so this module sits above it.

The subcommands themselves are :mod:`lzero.cli_commands`' and their argument types and config
loading :mod:`lzero.cli_args`', below ``lzero.cli``, which registers them; their names are
re-exported here, where they were first, as is :class:`~lzero.utils.signals.Terminated`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lzero.cli_args import (
    agent_fpu_reduction,
    fpu_reduction_arg,
    int_in,
    load_config_module,
    non_negative_int,
    positive_int,
    positive_minutes,
    seeded_exp_name,
)
from lzero.cli_commands import (
    EVAL_OPTIONS,
    TRAIN_OPTIONS,
    TRAINABLE_POLICIES,
    add_eval_subcommand,
    add_train_subcommand,
)
from lzero.cli_commands import _as_options as _as_options  # the tests' name of it
from lzero.utils.signals import Terminated

__all__ = [
    "EVAL_OPTIONS",
    "TRAINABLE_POLICIES",
    "TRAIN_OPTIONS",
    "Terminated",
    "add_eval_subcommand",
    "add_train_subcommand",
    "agent_fpu_reduction",
    "fpu_reduction_arg",
    "int_in",
    "load_config_module",
    "non_negative_int",
    "positive_int",
    "positive_minutes",
    "run_as_main",
    "run_eval_as_main",
    "seeded_exp_name",
]


def run_as_main(config: str) -> None:
    """Runs ``lzero train <config> <this process's arguments>`` and exits with its code.

    A zoo config ends with ``run_as_main(__spec__.name if __spec__ else __file__)`` under
    ``if __name__ == "__main__"``, so ``python -m <config>`` takes the same options
    (``--seed``, ``--max-env-step``, ``--exp-name``) and Ctrl-C prints one line, not a
    traceback.
    """
    from lzero.cli import main

    sys.exit(main(["train", config, *sys.argv[1:]]))


def run_eval_as_main(config: str) -> None:
    """Runs ``lzero eval <this process's arguments>`` and exits with its code.

    The zoo's scripts at LightZero's eval file names (for example
    ``zoo/board_games/tictactoe/entry/tictactoe_alphazero_eval.py``) end with it. Without
    ``--ckpt``, the checkpoint is the ``ckpt_best.pth.tar`` of the run that ``lzero train
    <config>`` writes by default (seed 0); LightZero's scripts evaluate an untrained network
    until ``model_path`` is edited in.
    """
    from lzero.cli import main

    argv = sys.argv[1:]
    asks_help = "-h" in argv or "--help" in argv
    given = any(
        "--ckpt".startswith(a.split("=", 1)[0]) and len(a.split("=", 1)[0]) >= 3 for a in argv
    )
    if not asks_help and not given:  # --ckpt, or an abbreviation argparse takes (--ck)
        try:
            exp_name = seeded_exp_name(load_config_module(config).main_config.exp_name, 0)
        except KeyboardInterrupt:  # while the config imports: one line, as lzero eval's
            print("\ninterrupted", file=sys.stderr)
            sys.exit(130)
        default = Path(exp_name) / "ckpt" / "ckpt_best.pth.tar"
        if not default.is_file():
            print(
                f"lzero eval: error: --ckpt: expected a checkpoint, got none, and there is none "
                f"at {default}, where lzero train {config} writes one (run from the folder it "
                "ran in, or pass --ckpt PATH)",
                file=sys.stderr,
            )
            sys.exit(2)
        argv = ["--ckpt", str(default), *argv]
    sys.exit(main(["eval", *argv]))
