"""``lzero play`` (a person against a bot at the terminal) and ``lzero arena`` (bot against bot).

Wired into the ``lzero`` command through the ``lzero.commands`` entry point
(:func:`add_play_subcommands`); ``python -m zoo.board_games.cli play connect4`` works too.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
import warnings

from lzero.cli import DefaultsHelp, quiet_on_closed_stdout
from lzero.cli_train import agent_fpu_reduction, fpu_reduction_arg, non_negative_int, positive_int
from lzero.envs.config import INFERENCE_DTYPES
from lzero.errors import ConfigError, LZeroError, ReplayWriteWarning
from lzero.utils.replay_io import removing_unused_folders
from lzero.utils.signals import exiting_on_termination, interrupts_outside_compilation
from lzero.worker.alphazero_evaluator import check_mcts_bot_simulations
from zoo.board_games.cli_gif import check_gif_target, gif_failed, gif_folder, numbered, place_gif
from zoo.board_games.env_support import bot_move
from zoo.board_games.games import board_games
from zoo.board_games.serve.cli import add_serve_subcommand
from zoo.board_games.solve_cli import add_solve_subcommand

BOTS = ("rule", "mcts", "random", "perfect", "alpha_beta")
#: A trained checkpoint (AlphaZero, or MuZero on a board game) as a bot: ``agent:PATH``.
AGENT_PREFIX = "agent:"
#: The agent the package ships for the game played (``lzero.pretrained``), as a bot.
PRETRAINED = "pretrained"
#: Simulations per move of ``--bot mcts`` at the terminal: strong (Gomoku needs 1,000-2,000 to
#: beat the rule bot) at about 10 ms a move. The env config keeps LightZero's default of 50.
MCTS_SIMULATIONS = 2000


def make_env(args: argparse.Namespace):
    """Builds a self-play env of ``args.game``, recording a GIF into ``args.gif``'s folder if
    asked."""
    game, board_size, gif = args.game, args.board_size, args.gif
    env_cls = board_games()[game]
    cfg: dict = {
        "battle_mode": "self_play_mode",
        "mcts_bot_num_simulations": args.mcts_simulations or MCTS_SIMULATIONS,
    }
    if board_size is not None:
        if not env_cls.board_sizes:
            raise ValueError(
                f"--board-size: expected only with a game of several sizes "
                f"({', '.join(n for n, c in board_games().items() if c.board_sizes)}), "
                f"got it with {game}"
            )
        cfg["board_size"] = board_size
    if gif is not None:
        check_gif_target(gif)
        cfg["render_mode"] = "image_savefile_mode"
        cfg["replay_path"] = gif_folder(gif)
    env = env_cls(cfg)
    env.seed(args.seed)
    return env


def bot_spec(text: str) -> str:
    """argparse type of a bot: a name of ``BOTS``, ``pretrained`` or ``agent:PATH``."""
    if text in (*BOTS, PRETRAINED) or (
        text.startswith(AGENT_PREFIX) and len(text) > len(AGENT_PREFIX)
    ):
        return text
    raise argparse.ArgumentTypeError(
        f"expected one of {list(BOTS)}, {PRETRAINED} (the agent the package ships) or "
        f"agent:PATH (a checkpoint of lzero train), got {text!r}"
    )


def is_agent(bot: str) -> bool:
    """True for the bots that are checkpoints: ``agent:PATH`` and ``pretrained``."""
    return bot == PRETRAINED or bot.startswith(AGENT_PREFIX)


def _check_bot_options(args: argparse.Namespace, bots: tuple[str, ...]) -> None:
    """Refuses ``--agent-*`` options when no bot is ``agent:PATH``, and ``--mcts-simulations``
    when none is ``mcts`` (they would be ignored; the check of ``lzero eval`` too)."""
    given = [
        f"--agent-{name.replace('_', '-')}"
        for name in ("simulations", "reuse_tree", "fpu_reduction", "dtype")
        if getattr(args, f"agent_{name}") not in (None, False)
    ]
    if given and not any(is_agent(b) for b in bots):
        raise ValueError(
            f"{', '.join(given)}: expected an agent:PATH or pretrained bot (the options set a "
            f"checkpoint's player), got {', '.join(bots)}"
        )
    check_mcts_bot_simulations(args.mcts_simulations, bots, "--mcts-simulations")


def _check_bot(
    env, bot: str, agents: dict, args: argparse.Namespace, option: str = "--bot"
) -> None:
    """Checks ``bot`` against ``env``'s game and loads it into ``agents`` if it is a checkpoint.

    Raises:
        ValueError / ConfigError: a bot the game has not, one that needs what is not
            installed (Connect4's perfect bot without its opening book), or a checkpoint of
            another kind, game or board size (before any move is played). ``option`` names
            the command-line option in the message.
    """
    if is_agent(bot):
        if bot in agents:
            return
        if importlib.util.find_spec("torch") is None:
            raise ValueError("agent bots need torch: pip install -e '.[train]'")
        from lzero.agent import load_agent

        if bot == PRETRAINED:
            from lzero.pretrained import pretrained_path

            try:
                path = pretrained_path(env.rules.name)
            except ConfigError as err:
                raise ConfigError(f"{option} {PRETRAINED}: {err}") from None
        else:
            path = os.path.expanduser(bot[len(AGENT_PREFIX) :])  # the shell leaves agent:~/x
        agent = load_agent(
            path, args.agent_simulations, inference_dtype=args.agent_dtype,
            fpu_reduction=agent_fpu_reduction(args.agent_fpu_reduction),
            reuse_tree=args.agent_reuse_tree,
        )  # fmt: skip
        g = agent.game
        if g.name == env.rules.name == "gomoku" and g.height != env.rules.height:
            raise ConfigError(
                f"{bot}: a checkpoint of {g.height}x{g.width} Gomoku, the board is "
                f"{env.rules.height}x{env.rules.width}: pass --board-size {g.height}"
            )
        agent.check_game(env.rules.name, (env.rules.height, env.rules.width))
        agents[bot] = agent
        return
    if bot not in env.bot_types:
        raise ValueError(
            f"{option}: expected one of {list(env.bot_types)} for {env.rules.name}, got {bot!r}"
        )
    env.check_bot_available(bot)


def _move(env, bot: str, agents: dict) -> int:
    """The move of ``bot`` (a bot name or a loaded ``agent:PATH``) for the player to move."""
    if bot in agents:
        return agents[bot].act({"board": env.board, "to_play": env.current_player})
    return bot_move(env, bot)


def cmd_play(args: argparse.Namespace) -> int:
    """Runs ``lzero play``: a person against a bot, the board printed after each move.

    Ctrl-C or end of input, at any point, abandons the game (saving no GIF) and returns 0. If
    ``--gif`` could not be written, the result is printed all the same, then the error;
    returns 1.
    """
    env = None
    try:
        _check_bot_options(args, (args.bot,))
        env = make_env(args)
        agents: dict = {}
        _check_bot(env, args.bot, agents, args)
        human = 1 if args.first == "human" else 2
        you, bot = "you", f"{args.bot} bot"
        env.replay_players = (you, bot) if human == 1 else (bot, you)
        env.reset()
        print(
            f"{args.game}: you are {'X (first)' if human == 1 else 'O (second)'} "
            f"against the {args.bot} bot. Type help for how to move, quit to leave."
        )
        env.render("state_realtime_mode")
        while True:
            if env.current_player == human:
                action = env.human_to_action()
            else:
                action = _move(env, args.bot, agents)
                print(f"Bot plays {env.action_to_string(action)}")
            timestep = env.step(action)
            env.render("state_realtime_mode")
            if timestep.done:
                break
    except (EOFError, KeyboardInterrupt):
        print(
            "\nGame abandoned" + (": no GIF saved (only finished games are)." if args.gif else ".")
        )
        if env is not None:
            env.close()
        return 0
    winner = env.get_done_winner()[1]
    print("Draw." if winner == -1 else "You win!" if winner == human else "The bot wins.")
    problem = place_gif(env, args.gif)
    env.close()
    return gif_failed(problem)


def cmd_arena(args: argparse.Namespace) -> int:
    """Runs ``lzero arena``: two bots, alternating colours; prints each bot's record.

    Ctrl-C stops the series and prints the record of the games finished so far; returns 130
    (a series cut short, as a script reading the exit code must be told).
    If ``--gif`` could not be written, the series is played all the same, then the error is
    printed; returns 1.
    """
    if args.games < 1:
        raise ValueError(f"--games: expected a positive number, got {args.games}")
    if args.gif_all and not args.gif:
        raise ValueError("--gif-all: expected --gif NAME.gif or --gif FOLDER too (where to save)")
    record = {1: [0, 0, 0], 2: [0, 0, 0]}  # per bot: wins, draws, losses
    problems: list[str] = []  # a failed --gif, reported at the end
    env = None
    try:
        _check_bot_options(args, (args.bot1, args.bot2))
        env = make_env(args)
        agents: dict = {}
        for option, bot in (("--bot1", args.bot1), ("--bot2", args.bot2)):
            _check_bot(env, bot, agents, args, option)
        print(f"Playing {args.games} games of {args.game}, {args.bot1} against {args.bot2}...")
        _play_series(env, args, record, problems, agents)
    except KeyboardInterrupt:
        print(f"\nInterrupted after {sum(record[1])} of {args.games} games.")
        interrupted = True
    else:
        interrupted = False
    played = sum(record[1])
    if env is not None:
        env.close()
    print(f"{args.game}: {played} games, colours alternate")
    width = max(10, len(args.bot1), len(args.bot2))  # agent:PATH names are long
    for bot, name in ((1, args.bot1), (2, args.bot2)):
        w, d, loss = record[bot]
        print(f"bot{bot} {name:>{width}}: wins {w}  draws {d}  losses {loss}")
    more = f" (and {len(problems) - 1} more of the games were not saved)" if problems[1:] else ""
    failed = gif_failed(problems[0] + more if problems else None)
    return 130 if interrupted else failed


def _play_series(
    env, args: argparse.Namespace, record: dict, problems: list[str], agents: dict
) -> None:
    """Plays ``args.games`` games, adding each result to ``record`` as it ends and a failure to
    save a game's GIF (the first, or each with ``--gif-all``) to ``problems``."""
    for game in range(args.games):
        colour_of = {1: 1, 2: 2} if game % 2 == 0 else {1: 2, 2: 1}  # bot -> player id
        kind_of = {colour_of[1]: args.bot1, colour_of[2]: args.bot2}
        names = {colour_of[1]: f"bot1 {args.bot1}", colour_of[2]: f"bot2 {args.bot2}"}
        env.replay_players = (names[1], names[2])  # X's, then O's
        if game == 1 and not args.gif_all:
            env.render_mode = None  # only the first game is recorded
        env.reset()
        done = False
        while not done:
            done = env.step(_move(env, kind_of[env.current_player], agents)).done
        winner = env.get_done_winner()[1]
        for bot in (1, 2):
            outcome = 1 if winner == -1 else 0 if winner == colour_of[bot] else 2
            record[bot][outcome] += 1
        if game == 0 or args.gif_all:
            target = numbered(args.gif, game + 1) if args.gif_all and args.gif else None
            if problem := place_gif(env, args.gif, target):
                problems.append(problem)


def _run(func):
    """Wraps a command so that expected errors print one line instead of a traceback.

    The env's warning about a GIF it could not write is left out: the command reports it.
    """

    def run(args: argparse.Namespace) -> int:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ReplayWriteWarning)
                return func(args)
        except (LZeroError, ValueError, NotImplementedError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2

    return run


def add_play_subcommands(subparsers) -> None:
    """Registers ``play``, ``arena``, ``solve`` and ``serve`` on an argparse subparsers object."""
    common = argparse.ArgumentParser(add_help=False, formatter_class=DefaultsHelp)
    common.add_argument("game", choices=sorted(board_games()))
    common.add_argument(
        "--board-size", type=int, default=None, help="gomoku only: 5 to 19 (default: 15)"
    )
    common.add_argument("--seed", type=int, default=0, help="seed of the bots")
    common.add_argument(
        "--mcts-simulations",
        type=positive_int,
        default=None,
        help=f"simulations per move of mcts bots (default: {MCTS_SIMULATIONS})",
    )
    common.add_argument(
        "--gif",
        default=None,
        type=os.path.expanduser,  # the shell leaves --gif=~/x as is
        help="save the game as a GIF: a .gif file, or a folder",
    )
    common.add_argument(
        "--agent-simulations",
        type=non_negative_int,
        default=None,
        help="simulations per move of agent:PATH and pretrained bots (default: the checkpoint's; "
        "0: raw network)",
    )
    common.add_argument(
        "--agent-reuse-tree",
        action="store_true",
        help="agent:PATH bots keep each search's tree for the next move (the simulations add to it)",
    )
    common.add_argument(
        "--agent-fpu-reduction",
        type=fpu_reduction_arg,
        default=None,
        help="first-play urgency reduction of agent:PATH bots' search, a number >= 0 or 'off' "
        "(default: the checkpoint's eval_fpu_reduction)",
    )
    common.add_argument(
        "--agent-dtype",
        default=None,
        choices=INFERENCE_DTYPES,
        help="dtype of agent:PATH bots' forward passes: float32, bfloat16 or auto (default: the "
        "checkpoint's inference_dtype)",
    )
    p = subparsers.add_parser(
        "play",
        parents=[common],
        formatter_class=DefaultsHelp,
        help="play a board game against a bot",
    )
    p.add_argument(
        "--bot",
        type=bot_spec,
        default="rule",
        help=f"the opponent: {', '.join(BOTS)} (perfect: tictactoe, connect4; alpha_beta: "
        "tictactoe, perfect, and othello, a 4-ply search), pretrained (the agent the package "
        "ships) or agent:PATH",
    )
    p.add_argument("--first", choices=("human", "bot"), default="human", help="who moves first")
    p.set_defaults(func=_run(cmd_play))
    p = subparsers.add_parser(
        "arena", parents=[common], formatter_class=DefaultsHelp, help="let two bots play a series"
    )
    p.add_argument(
        "--bot1", type=bot_spec, default="rule", help="a bot name, pretrained or agent:PATH"
    )
    p.add_argument(
        "--bot2", type=bot_spec, default="random", help="a bot name, pretrained or agent:PATH"
    )
    p.add_argument("--games", type=int, default=10, help="games in the series")
    p.add_argument(
        "--gif-all",
        action="store_true",
        help="save every game, not only the first (NAME.gif as NAME-1.gif, NAME-2.gif, ...)",
    )
    p.set_defaults(func=_run(cmd_arena))
    add_solve_subcommand(subparsers, _run)
    add_serve_subcommand(subparsers, _run)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m zoo.board_games.cli``."""
    parser = argparse.ArgumentParser(prog="python -m zoo.board_games.cli")
    add_play_subcommands(parser.add_subparsers(dest="command", required=True))

    def run() -> int:
        args = parser.parse_args(argv)
        with removing_unused_folders(getattr(args, "gif", None)):  # solve has none
            return int(args.func(args) or 0)

    with exiting_on_termination(), interrupts_outside_compilation():
        return quiet_on_closed_stdout(run)


if __name__ == "__main__":
    sys.exit(main())
