"""Reading and writing moves the way a person types them, for the four coordinate styles.

* ``cell`` (TicTacToe): cells ``1..H*W``, left to right, top to bottom.
* ``column`` (Connect4): columns ``1..W``.
* ``coordinate`` (Gomoku): a column letter and a row number counted from the bottom, ``h8``
  being the centre of a 15x15 board (letters ``a..s``, no letter skipped).
* ``grid`` (Othello): a column letter and a row number counted from the top, ``a1`` being
  the top-left cell, as Othello's notation and OpenSpiel have it.

A game whose last action is a pass (``H * W``, the action after the cells) takes ``pass``.
"""

from __future__ import annotations

import io
import string
import sys

import numpy as np

MOVE_STYLES = ("cell", "column", "coordinate", "grid")
PASS_WORD = "pass"
#: Words that leave the game at the prompt (besides Ctrl-C and Ctrl-D), and that ask for help.
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "h", "?")
#: Typed text longer than this is cut short when it is echoed in an error.
ECHO_LIMIT = 24


class QuitGame(EOFError):
    """The person typed ``quit`` at the move prompt: handled as the end of input is."""


def shown(text: str) -> str:
    """``repr`` of the typed ``text``, stripped and cut to ``ECHO_LIMIT`` characters."""
    text = text.strip()
    if len(text) <= ECHO_LIMIT:
        return repr(text)
    return repr(text[:ECHO_LIMIT]) + f"... ({len(text)} characters)"


def axis_labels(style: str, height: int, width: int) -> tuple[list[str], list[str]]:
    """Returns ``(row_labels, col_labels)`` for the text board, row 0 (top) first."""
    if style == "cell":
        return [str(r * width + 1) for r in range(height)], [str(c + 1) for c in range(width)]
    if style == "column":
        return [str(height - r) for r in range(height)], [str(c + 1) for c in range(width)]
    letters = list(string.ascii_lowercase[:width])
    if style == "grid":
        return [str(r + 1) for r in range(height)], letters
    return [str(height - r) for r in range(height)], letters


def _example(style: str, height: int, width: int) -> str:
    if style == "grid":
        return f"{string.ascii_lowercase[width // 2 - 1]}{height // 2 - 1}"  # d3 on 8x8
    return f"{string.ascii_lowercase[width // 2]}{height - height // 2}"


def move_hint(style: str, height: int, width: int, *, passes: bool = False) -> str:
    """A one-line description of what to type (``passes``: the game has a pass move)."""
    if style == "cell":
        hint = f"a cell 1-{height * width} (left to right, top to bottom)"
    elif style == "column":
        hint = f"a column 1-{width}"
    else:
        last = string.ascii_lowercase[width - 1]
        side = "top" if style == "grid" else "bottom"
        hint = f"a coordinate a1-{last}{height} (column letter, row number from the {side}), "
        hint += f"e.g. {_example(style, height, width)}"
    return hint + f", or {PASS_WORD}" if passes else hint


def short_hint(style: str, height: int, width: int, *, passes: bool = False) -> str:
    """What to type, short enough for a prompt on an 80-column terminal (19x19 included)."""
    if style in ("coordinate", "grid"):
        last = string.ascii_lowercase[width - 1]
        hint = f"a coordinate a1-{last}{height} (e.g. {_example(style, height, width)})"
        return hint + f" or {PASS_WORD}" if passes else hint
    return move_hint(style, height, width, passes=passes)


def _ascii_digits(text: str) -> bool:
    """True if ``text`` is one to nine of 0-9, few enough that ``int()`` takes it (a line of
    4,301 digits, leading zeros included, raised Python's own limit message): isdigit() would let '\u00b2' through
    to int(), and isdecimal() other scripts' digits, which the board's labels are not."""
    return text.isascii() and text.isdecimal() and len(text) <= 9


def parse_move(text: str, style: str, height: int, width: int, *, passes: bool = False) -> int:
    """Parses a typed move into an action (legality is checked by the caller); with
    ``passes``, ``pass`` is the action ``height * width``.

    Raises:
        ValueError: the text is not a move of this style on this board; says what was expected.
    """
    raw = text.strip().lower()
    if passes and raw == PASS_WORD:
        return height * width
    expected = f"expected {move_hint(style, height, width, passes=passes)}, got {shown(text)}"
    if style in ("cell", "column"):
        if not _ascii_digits(raw):
            raise ValueError(expected)
        n = int(raw)
        top = height * width if style == "cell" else width
        if not 1 <= n <= top:
            raise ValueError(expected)
        return n - 1
    if len(raw) < 2 or raw[0] not in string.ascii_lowercase[:width] or not _ascii_digits(raw[1:]):
        raise ValueError(expected)
    col = string.ascii_lowercase.index(raw[0])
    number = int(raw[1:])
    if not 1 <= number <= height:
        raise ValueError(expected)
    row = number - 1 if style == "grid" else height - number
    return row * width + col


def move_to_string(action: int, style: str, height: int, width: int) -> str:
    """The typed form of ``action`` (the inverse of :func:`parse_move`; ``pass`` for the
    action after the cells)."""
    if style != "column" and action == height * width:
        return PASS_WORD
    if style in ("cell", "column"):
        return str(action + 1)
    row, col = divmod(action, width)
    return f"{string.ascii_lowercase[col]}{row + 1 if style == 'grid' else height - row}"


def ask_move(
    mask: np.ndarray,
    player: int,
    symbol: str,
    style: str,
    height: int,
    width: int,
    *,
    illegal_reason: str | None = None,
) -> int:
    """Asks at the terminal until a legal move is typed (``mask[action] == 1``); returns it.

    The prompt is short and says how to leave. ``help`` prints what to type and how to leave;
    invalid text or an illegal move prints the reason, with the full description of what to
    type (long input cut short), and asks again.

    Raises:
        EOFError, KeyboardInterrupt: input ended or was interrupted (the CLI exits cleanly).
        QuitGame: ``quit`` (or ``exit``, ``q``) was typed; an ``EOFError``, handled alike.
    """
    passes = mask.shape[0] == height * width + 1
    hint = short_hint(style, height, width, passes=passes)
    while True:
        if sys.stdin is None:  # started with stdin closed (``<&-``): as the end of input
            raise EOFError("stdin is closed")
        if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
            # Under a strict locale (en_US.UTF-8, not C.UTF-8) one byte the encoding cannot
            # decode ended the game with a UnicodeDecodeError; kept as surrogates it is
            # invalid text like any other, shown escaped, and asked again.
            sys.stdin.reconfigure(errors="surrogateescape")
        text = input(f"Player {player} ({symbol}), enter {hint}, or quit: ")
        if not sys.stdin.isatty():  # piped input is echoed, control characters escaped
            echo = text if len(text) <= 2 * ECHO_LIMIT else text[: 2 * ECHO_LIMIT] + "..."
            print("".join(c if c.isprintable() else repr(c)[1:-1] for c in echo))
        word = text.strip().lower()
        if word in QUIT_WORDS:
            raise QuitGame(word)
        if word in HELP_WORDS:
            print(
                f"Type {move_hint(style, height, width, passes=passes)} and press Enter. "
                "Type quit, or press Ctrl-D or Ctrl-C, to leave the game."
            )
            continue
        try:
            action = parse_move(text, style, height, width, passes=passes)
        except ValueError as err:
            print(f"Invalid move: {err} (help: what to type, quit: leave)")
            continue
        if not mask[action]:
            why = illegal_reason or (
                "that column is full" if style == "column" else "that cell is taken"
            )
            print(f"Invalid move: {shown(text)} is not legal now ({why})")
            continue
        return action
