"""The lzero command line: train and evaluate AlphaZero and MuZero, play against the bots, list
and check envs.

Subcommands of the library itself are defined here; packages built on it (our ``zoo`` with
``play`` and ``arena``) add theirs through the ``lzero.commands`` entry-point group, whose
entries name a function ``add(subparsers)`` that registers one or more subcommands, each
setting ``func`` (a callable taking the parsed args and returning an exit code).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from importlib.metadata import entry_points

from lzero import __version__
from lzero.cli_commands import add_eval_subcommand, add_train_subcommand
from lzero.envs import ENV_REGISTRY, check_env
from lzero.errors import LZeroError
from lzero.utils.replay_io import (
    check_gif_target,
    gif_folder,
    place_replay,
    removing_unused_folders,
)
from lzero.utils.signals import Terminated, exiting_on_termination, interrupts_outside_compilation
from lzero_interrupts import INTERACTIVE_COMMANDS, interrupt_behind

COMMAND_ENTRY_POINT_GROUP = "lzero.commands"
#: Subcommands of the library itself, as adders (those of packages built on it come from the
#: entry points, as "module:function").
BUILTIN_COMMANDS = (add_train_subcommand, add_eval_subcommand)


class DefaultsHelp(argparse.ArgumentDefaultsHelpFormatter):
    """Help that shows each option's default, except None and False (nothing to show)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default is None or action.default is False:
            return action.help or ""
        return super()._get_help_string(action)


def _cmd_envs(args: argparse.Namespace) -> int:
    for name in ENV_REGISTRY.names():
        print(name)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    if args.gif is not None:
        check_gif_target(args.gif)  # before anything is built or played
    env = ENV_REGISTRY.build(args.env, {})
    env.seed(args.seed, dynamic_seed=False)
    if args.check:
        check_env(env, seed=args.seed)
        print(f"check_env: {args.env} keeps the BaseEnv contract")
    if args.gif is not None:
        env.enable_save_replay(gif_folder(args.gif))
    obs = env.reset()
    steps, ret, done = 0, 0.0, False
    while not done:
        timestep = env.step(env.random_action())
        steps, done = steps + 1, timestep.done
        ret = timestep.info.get("eval_episode_return", ret)
    env.close()
    keys = sorted(obs) if isinstance(obs, dict) else f"array {obs.shape}"
    print(f"{args.env}: one random episode of {steps} steps, return {ret:+.3f}; obs: {keys}")
    return 0 if args.gif is None else _place_demo_gif(env, timestep.info, args.gif)


def _place_demo_gif(env, info: dict, gif: str) -> int:
    """Moves the episode's replay to ``gif`` if that names a file; prints where it is, or why
    it is not there (exit code 1)."""
    path = info.get("replay_path") or getattr(env, "last_replay_file", None)
    if path is None:
        error = info.get("replay_error") or getattr(env, "last_replay_error", None)
        print(f"error: --gif: the episode was not saved: {error}", file=sys.stderr)
        return 1
    path, problem = place_replay(path, gif)
    if problem:
        print(f"error: --gif: the episode was {problem}", file=sys.stderr)
        return 1
    print(f"Episode saved as {path}")
    return 0


def _load_adder(spec: str):
    module, _, func = spec.partition(":")
    return getattr(importlib.import_module(module), func)


def build_parser() -> argparse.ArgumentParser:
    """Returns the parser with every available subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="lzero", description=" ".join(__doc__.split("\n\n")[0].split())
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    p = sub.add_parser("envs", help="list the registered envs")
    p.set_defaults(func=_cmd_envs)
    p = sub.add_parser(
        "demo", formatter_class=DefaultsHelp, help="run one random episode of a registered env"
    )
    p.add_argument("env", help="a name from `lzero envs`")
    p.add_argument("--seed", type=int, default=0, help="static seed of the episode")
    p.add_argument("--check", action="store_true", help="run check_env on it first")
    p.add_argument(
        "--gif",
        default=None,
        type=os.path.expanduser,  # the shell leaves --gif=~/x as is
        help="save the episode as a GIF: a .gif file or a folder",
    )
    p.set_defaults(func=_cmd_demo)
    for adder in BUILTIN_COMMANDS:
        adder(sub)
    for ep in entry_points(group=COMMAND_ENTRY_POINT_GROUP):
        try:
            adder = _load_adder(ep.value)
        except ModuleNotFoundError:
            continue  # the package declaring it is not installed any more
        adder(sub)
    return parser


def quiet_on_closed_stdout(run: Callable[[], int]) -> int:
    """Calls ``run`` and returns its exit code, or 1 without a traceback if the reader of
    stdout went away (``lzero arena ... | head -1``).

    stdout is flushed before returning (also when ``run`` raises ``SystemExit``), so that a
    closed pipe shows up here rather than in the interpreter's final flush; after a
    ``BrokenPipeError`` stdout is pointed at ``os.devnull`` so that flush cannot fail again
    (the recipe of the Python docs, "Note on SIGPIPE" in the ``signal`` module).
    """
    try:
        try:
            return run()
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 1


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit code.

    Errors the project raises on purpose (and unknown registry names) print one line and
    exit 2; Ctrl-C exits without a traceback, with 0 in ``lzero play`` (it leaves the game, as
    ``quit`` does) and 130 elsewhere
    (SIGTERM and SIGHUP during ``lzero train`` stop the run as Ctrl-C does, and exit with 143
    and 129; elsewhere they raise ``SystemExit`` with those codes, the folders ``--gif`` made
    removed);
    a closed stdout (piping into ``head``) exits 1 quietly.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    with exiting_on_termination(), interrupts_outside_compilation():
        return quiet_on_closed_stdout(lambda: _dispatch(argv))


def _dispatch(argv: list[str]) -> int:
    try:
        args = build_parser().parse_args(argv)
        with removing_unused_folders(getattr(args, "gif", None)):
            return int(args.func(args) or 0)
    except (LZeroError, KeyError) as err:
        message = err.args[0] if isinstance(err, KeyError) and err.args else err
        print(f"lzero {argv[0] if argv else ''}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as err:
        return _interrupted(argv, err)
    except Exception as err:
        interrupt = interrupt_behind(err)
        if interrupt is None:
            raise
        return _interrupted(argv, interrupt)


def _interrupted(argv: list[str], interrupt: KeyboardInterrupt) -> int:
    if isinstance(interrupt, Terminated):  # SIGTERM or SIGHUP during lzero train
        print("\nterminated", file=sys.stderr)
        return 128 + interrupt.signum
    print("\ninterrupted", file=sys.stderr)
    return 0 if argv and argv[0] in INTERACTIVE_COMMANDS else 130


if __name__ == "__main__":
    sys.exit(main())
