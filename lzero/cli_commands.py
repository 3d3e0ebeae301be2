"""``lzero train <config>`` (MuZero or AlphaZero, by the config's policy type) and ``lzero eval``:
the subcommands :mod:`lzero.cli` registers besides its own (``lzero.cli_train`` re-exports
these names, where they were first).

It lives outside ``lzero.entry`` so that building the command line does not import torch.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib.util
import os
import re
import signal
import warnings
from types import ModuleType

from easydict import EasyDict

from lzero.cli_args import (
    agent_fpu_reduction,
    fpu_reduction_arg,
    load_config_module,
    non_negative_int,
    positive_int,
    positive_minutes,
    seed_arg,
    seeded_exp_name,
)
from lzero.envs.config import INFERENCE_DTYPES
from lzero.errors import ConfigError, LZeroError
from lzero.utils.signals import Terminated, raising_on_termination

#: Where errors of the entries ``lzero train`` calls name their arguments, and what the
#: command line calls them: ``seed`` and ``resume`` are words of sentences too, so only a
#: message's leading label is renamed; ``model_path`` is not, so it is renamed anywhere.
TRAIN_OPTIONS = ((r"^resume:", "--resume:"), (r"^seed:", "--seed:"))
#: The same for ``lzero eval``.
EVAL_OPTIONS = ((r"\bmodel_path\b", "--ckpt"), (r"^seed:", "--seed:"))


@contextlib.contextmanager
def _as_options(renames: tuple[tuple[str, str], ...]):
    """Re-raises an entry's error with its argument names turned into the command line's
    options (``renames``: regex and replacement pairs); the original error is the cause."""
    try:
        yield
    except LZeroError as err:
        message = renamed = str(err)
        for pattern, option in renames:
            renamed = re.sub(pattern, option, renamed)
        if renamed == message:
            raise
        raise type(err)(renamed) from err


def _sigterm_as_interrupt() -> contextlib.AbstractContextManager[None]:
    """Within it, SIGTERM and SIGHUP raise :class:`Terminated` in the main thread (Python's
    default would end the process at once, skipping the ``finally`` that saves the
    checkpoint). An ignored SIGHUP (``nohup``) stays ignored."""
    return raising_on_termination(
        Terminated,
        lambda signum, handler: signum == signal.SIGTERM or handler is not signal.SIG_IGN,
    )


def _cmd_train(args: argparse.Namespace) -> int:
    with _sigterm_as_interrupt():
        return _train(args)


def _train(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("torch") is None:
        raise ConfigError(
            "training needs torch, which is not installed: pip install -e '.[train]' "
            "(it pins the CPU build, torch==2.13.0)"
        )
    if args.resume and args.exp_name:
        raise ConfigError(
            f"--exp-name {args.exp_name!r} with --resume {args.resume!r}: a resumed run "
            "continues in its own directory; drop one of the two"
        )
    module = load_config_module(args.config)
    policy_type = _policy_type(module)
    main_config = EasyDict(copy.deepcopy(dict(module.main_config)))
    if args.exp_name:
        main_config.exp_name = args.exp_name
    else:
        seed = 0 if args.seed is None else args.seed
        main_config.exp_name = seeded_exp_name(main_config.exp_name, seed)
    max_env_step = args.max_env_step
    if max_env_step is None:
        max_env_step = getattr(module, "max_env_step", int(1e10))
    max_time_s = None if args.max_minutes is None else 60.0 * args.max_minutes
    if policy_type in ("alphazero", "gumbel_alphazero"):
        from lzero.entry import train_alphazero

        with _as_options(TRAIN_OPTIONS):
            train_alphazero(
                [main_config, module.create_config],
                seed=args.seed,
                max_env_step=max_env_step,
                max_train_iter=args.max_train_iter,
                max_time_s=max_time_s,
                resume=args.resume,
            )  # it prints why it stopped and where the checkpoints are
        return 0
    from lzero.entry import train_muzero_with_gym_env

    with warnings.catch_warnings(), _as_options(TRAIN_OPTIONS):
        # The config names its gym version on purpose (CartPole-v0 is LightZero's task):
        # gymnasium's advice to upgrade would only be noise in every run.
        warnings.filterwarnings("ignore", message=r".* is out of date\. You should consider")
        train_muzero_with_gym_env(
            [main_config, module.create_config],
            seed=args.seed,
            max_env_step=max_env_step,
            max_train_iter=args.max_train_iter,
            max_time_s=max_time_s,
            resume=args.resume,
        )  # it prints why it stopped and where the checkpoints are, the last line
    return 0


#: Policy types ``lzero train`` runs, and the entry each one picks.
TRAINABLE_POLICIES = ("alphazero", "gumbel_alphazero", "muzero", "gumbel_muzero")


def _policy_type(module: ModuleType) -> str:
    """The policy type of a config module (its create config's, as LightZero reads it).

    Raises:
        ConfigError: a type ``lzero train`` has no entry for.
    """
    create = getattr(module, "create_config", {}) or {}
    policy = create.get("policy", {}) or {}
    kind = policy.get("type", "muzero")
    if kind not in TRAINABLE_POLICIES:
        raise ConfigError(
            f"create_config.policy.type: expected one of {list(TRAINABLE_POLICIES)}, got {kind!r}"
        )
    return kind


def _cmd_eval(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("torch") is None:
        raise ConfigError("evaluating a checkpoint needs torch: pip install -e '.[train]'")
    from lzero.pretrained import resolve

    try:
        args.ckpt = resolve(args.ckpt)  # pretrained:GAME, the agent the package ships
    except ConfigError as err:
        raise ConfigError(f"--ckpt {args.ckpt}: {err}") from None
    if args.config is not None:
        module = load_config_module(args.config)
        if _policy_type(module) not in ("muzero", "gumbel_muzero"):
            raise ConfigError(
                "lzero eval CONFIG: expected a MuZero config, got an AlphaZero one; AlphaZero "
                "runs are evaluated from the checkpoint alone, which records its config: lzero "
                "eval --ckpt PATH"
            )
        return _eval_muzero(args, [module.main_config, module.create_config])
    from lzero.agent import check_alphazero_state, is_muzero_checkpoint
    from lzero.utils.checkpoint_file import load_checkpoint_file

    state = load_checkpoint_file(args.ckpt, "an AlphaZero or MuZero checkpoint")
    if is_muzero_checkpoint(state):  # it records its config (or says it is too old to)
        from lzero.entry import muzero_setup

        return _eval_muzero(args, muzero_setup.recorded_input_config(state, args.ckpt))
    state = check_alphazero_state(state, args.ckpt, muzero_too=True)  # or says what it is
    _check_gif_folder(args.gif)
    from lzero.entry import eval_alphazero

    bots = [b for b in args.bots.split(",") if b] if args.bots else None
    with _as_options(EVAL_OPTIONS):
        eval_alphazero(
            args.ckpt,
            bots=bots,
            num_games=args.episodes,
            num_simulations=args.simulations,
            seed=args.seed,
            opening_moves=args.openings,
            reuse_tree=args.reuse_tree,
            fpu_reduction=agent_fpu_reduction(args.fpu_reduction),
            inference_dtype=args.dtype,
            state=state,
            replay_path=args.gif,
            print_results=True,  # before the replay's path
            mcts_bot_simulations=args.mcts_simulations,
        )
    return 0


def _check_gif_folder(gif: str | None) -> None:
    """``lzero eval --gif DIR``: a folder it can write (or create), not a .gif file name.

    Raises:
        ConfigError: ``gif`` names a .gif file, or a folder that cannot be written.
    """
    from lzero.utils.replay_io import check_replay_dir, names_file

    if gif is None:
        return
    if names_file(gif):
        raise ConfigError(
            f"--gif: expected a folder (lzero eval names the GIF it saves there), got {gif!r}, "
            "a .gif file name"
        )
    check_replay_dir(gif, "--gif")


def _eval_muzero(args: argparse.Namespace, input_cfg: list) -> int:
    """``lzero eval [CONFIG] --ckpt PATH`` of a MuZero checkpoint: with the config given, or the
    one the checkpoint records."""
    for option in ("reuse_tree", "fpu_reduction", "dtype"):
        if getattr(args, option) not in (None, False):
            raise ConfigError(
                f"--{option.replace('_', '-')}: expected an AlphaZero checkpoint, got a MuZero "
                "one (the option sets AlphaZero's search)"
            )
    from lzero.entry import eval_muzero_with_gym_env

    _check_gif_folder(args.gif)
    main_config, create_config = input_cfg
    main_config = EasyDict(copy.deepcopy(dict(main_config)))
    if args.bots:
        main_config.policy.eval_bots = [b for b in args.bots.split(",") if b]
    with warnings.catch_warnings(), _as_options(EVAL_OPTIONS):
        warnings.filterwarnings("ignore", message=r".* is out of date\. You should consider")
        eval_muzero_with_gym_env(
            [main_config, create_config], seed=args.seed, model_path=args.ckpt,
            num_episodes=args.episodes, save_replay_gif=args.gif is not None,
            replay_path=args.gif, num_simulations=args.simulations, opening_moves=args.openings,
            mcts_bot_simulations=args.mcts_simulations,
        )  # fmt: skip
    return 0


def add_eval_subcommand(subparsers) -> None:
    """Registers ``eval``: a checkpoint against its game's bots (AlphaZero, or MuZero on a board
    game), or a MuZero checkpoint's returns on its gym task."""
    p = subparsers.add_parser(
        "eval",
        help="evaluate a checkpoint: win/draw/loss against its board game's bots, or a MuZero "
        "one's returns on its gym task",
    )
    p.add_argument(
        "config",
        nargs="?",
        default=None,
        help="the MuZero config the checkpoint was trained with (module name or .py path); "
        "not needed for an AlphaZero checkpoint or a MuZero one that records its config",
    )
    p.add_argument(
        "--ckpt",
        required=True,
        type=os.path.expanduser,
        help="a checkpoint written by lzero train, or pretrained:GAME (the agent the package ships)",
    )
    p.add_argument(
        "--gif",
        default=None,
        type=os.path.expanduser,
        metavar="DIR",
        help="also save one episode as a GIF in DIR (on a board "
        "game: a game of the agent, first, against the first bot)",
    )
    p.add_argument(
        "--episodes",
        type=positive_int,
        default=20,
        help="games per bot on a board game, episodes on a gym task (default 20)",
    )
    p.add_argument(
        "--simulations",
        type=non_negative_int,
        default=None,
        help="simulations per move (default: the checkpoint's, or CONFIG's when given; 0 plays the "
        "raw network, on a board game)",
    )
    p.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots (default: rule, mcts and, on TicTacToe, alpha_beta)",
    )
    p.add_argument(
        "--openings",
        type=non_negative_int,
        default=0,
        help="random moves opening each game, the same for both colours of a pair (default 0)",
    )
    p.add_argument(
        "--mcts-simulations",
        type=positive_int,
        default=None,
        help="rollouts a move of the mcts bot (default: the checkpoint's env config's "
        "mcts_bot_num_simulations, or CONFIG's; the results say which)",
    )
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of the envs and bots")
    p.add_argument(
        "--reuse-tree",
        action="store_true",
        help="AlphaZero: keep each search's tree for the next move (the simulations add to it)",
    )
    p.add_argument(
        "--fpu-reduction",
        type=fpu_reduction_arg,
        default=None,
        help="AlphaZero: the search's first-play urgency reduction, a number >= 0 or 'off' "
        "(default: the checkpoint's eval_fpu_reduction)",
    )
    p.add_argument(
        "--dtype",
        default=None,
        choices=INFERENCE_DTYPES,
        help="AlphaZero: the forward passes' dtype, float32, bfloat16 or auto (default: the "
        "checkpoint's inference_dtype)",
    )
    p.set_defaults(func=_cmd_eval)


def add_train_subcommand(subparsers) -> None:
    """Registers ``train`` on an argparse subparsers object (handler in ``func``)."""
    p = subparsers.add_parser(
        "train",
        help="train MuZero or AlphaZero with a zoo config (module name or .py path); the "
        "config's policy type picks the entry",
    )
    p.add_argument("config", help="e.g. zoo.classic_control.cartpole.config.cartpole_muzero_config")
    p.add_argument(
        "--seed",
        type=seed_arg,
        default=None,
        help="seed of envs, networks and search (default 0; a resumed run keeps its own)",
    )
    p.add_argument(
        "--max-env-step",
        type=positive_int,
        default=None,
        help="env-step budget: MuZero stops within one step of the envs past it, AlphaZero (which "
        "collects n_episode whole games) within one collect phase (default: the config "
        "module's max_env_step)",
    )
    p.add_argument(
        "--max-train-iter", type=positive_int, default=int(1e10), help="gradient-step budget"
    )
    p.add_argument(
        "--max-minutes",
        type=positive_minutes,
        default=None,
        help="wall-clock budget in minutes, a resumed run's earlier time included, checked "
        "between collect phases (default: none)",
    )
    p.add_argument(
        "--exp-name",
        default=None,
        type=os.path.expanduser,
        help="output directory (default: the config's exp_name, its _seedN suffix set to --seed)",
    )
    p.add_argument(
        "--resume",
        default=None,
        type=os.path.expanduser,
        metavar="EXP_DIR",
        help="continue the run in EXP_DIR from its ckpt/ckpt_last.pth.tar: its counters and "
        "best return carry on and progress.csv is appended to",
    )
    p.set_defaults(func=_cmd_train)
