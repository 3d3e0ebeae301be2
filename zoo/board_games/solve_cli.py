"""``lzero solve connect4 MOVES``: each column's exact score, the best move and the outcome."""

from __future__ import annotations

import argparse

from lzero.utils.signals import interruptible
from zoo.board_games.connect4.envs.connect4_book import INSTALL_HINT, book_available
from zoo.board_games.connect4.envs.connect4_position import SIZE, play_sequence
from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver


def outcome(score: int, stones: int) -> str:
    """Pons' ``score`` of a position with ``stones`` played, in words for the player to move."""
    if score == 0:
        return "draw with perfect play"
    if score > 0:
        moves = (SIZE + 2) // 2 - score - stones // 2
        return f"the player to move wins with its {_nth(moves)} stone from now"
    moves = (SIZE + 2) // 2 + score - (stones + 1) // 2
    return f"the player to move loses: the opponent wins with its {_nth(moves)} stone from now"


def _nth(k: int) -> str:
    return f"{k}{'st' if k % 10 == 1 and k != 11 else 'nd' if k % 10 == 2 and k != 12 else 'rd' if k % 10 == 3 and k != 13 else 'th'}"


def cmd_solve(args: argparse.Namespace) -> int:
    """Prints the analysis of ``args.moves`` (Pons' format: columns 1-7)."""
    play_sequence(args.moves)  # bad moves are refused before the note below
    use_book = book_available()
    if not use_book and len(args.moves) < 14:
        print(
            f"note: without the opening book ({INSTALL_HINT}) this can take minutes, or "
            "hours near the empty board (Ctrl-C stops it)",
            flush=True,
        )
    solver = Connect4Solver(opening_book=use_book)
    solver.prepare()  # compiled here: the search runs in a thread that Ctrl-C leaves behind
    scores = interruptible(lambda: solver.analyze(args.moves))
    playable = [s for s in scores if s is not None]
    if not playable:
        print(f"connect4 {args.moves}: the board is full, a draw")
        return 0
    best = max(playable)
    print(f"connect4 after {args.moves or '(empty board)'}: score of each column")
    for col, s in enumerate(scores, start=1):
        mark = "  <- best" if s == best else ""
        print(f"  column {col}: {'full' if s is None else f'{s:+d}'}{mark}")
    best_cols = [str(c) for c, s in enumerate(scores, start=1) if s == best]
    print(f"best move: column {' or '.join(best_cols)}; {outcome(best, len(args.moves))}")
    return 0


def add_solve_subcommand(subparsers, run) -> None:
    """Registers ``solve``; ``run`` wraps the command (one-line errors)."""
    p = subparsers.add_parser("solve", help="exact scores of a Connect4 position")
    p.add_argument("game", choices=["connect4"])
    p.add_argument("moves", nargs="?", default="", help="columns played, 1-7 (e.g. 4453)")
    p.set_defaults(func=run(cmd_solve))
