"""Reading and writing moves the way a person types them, for the three coordinate styles.

* ``cell`` (TicTacToe): cells ``1..H*W``, left to right, top to bottom.
* ``column`` (Connect4): columns ``1..W``.
* ``coordinate`` (Gomoku): a column letter and a row number counted from the bottom, ``h8``
  being the centre of a 15x15 board (letters ``a..s``, no letter skipped).
"""

from __future__ import annotations

import string
import sys

import numpy as np

MOVE_STYLES = ("cell", "column", "coordinate")


def axis_labels(style: str, height: int, width: int) -> tuple[list[str], list[str]]:
    """Returns ``(row_labels, col_labels)`` for the text board, row 0 (top) first."""
    if style == "cell":
        return [str(r * width + 1) for r in range(height)], [str(c + 1) for c in range(width)]
    if style == "column":
        return [str(height - r) for r in range(height)], [str(c + 1) for c in range(width)]
    return [str(height - r) for r in range(height)], list(string.ascii_lowercase[:width])


def move_hint(style: str, height: int, width: int) -> str:
    """A one-line description of what to type."""
    if style == "cell":
        return f"a cell 1-{height * width} (left to right, top to bottom)"
    if style == "column":
        return f"a column 1-{width}"
    last = string.ascii_lowercase[width - 1]
    return f"a coordinate a1-{last}{height} (column letter, row number from the bottom), e.g. " + (
        f"{string.ascii_lowercase[width // 2]}{height - height // 2}"
    )


def short_hint(style: str, height: int, width: int) -> str:
    """What to type, short enough for a prompt on an 80-column terminal (19x19 included)."""
    if style == "coordinate":
        last = string.ascii_lowercase[width - 1]
        example = f"{string.ascii_lowercase[width // 2]}{height - height // 2}"
        return f"a coordinate a1-{last}{height} (e.g. {example})"
    return move_hint(style, height, width)


def parse_move(text: str, style: str, height: int, width: int) -> int:
    """Parses a typed move into an action (legality is checked by the caller).

    Raises:
        ValueError: the text is not a move of this style on this board; says what was expected.
    """
    raw = text.strip().lower()
    expected = f"expected {move_hint(style, height, width)}, got {text.strip()!r}"
    if style in ("cell", "column"):
        if not raw.isdecimal():  # isdigit() would let '\u00b2' through to int()
            raise ValueError(expected)
        n = int(raw)
        top = height * width if style == "cell" else width
        if not 1 <= n <= top:
            raise ValueError(expected)
        return n - 1
    if len(raw) < 2 or raw[0] not in string.ascii_lowercase[:width] or not raw[1:].isdecimal():
        raise ValueError(expected)
    col = string.ascii_lowercase.index(raw[0])
    row_from_bottom = int(raw[1:])
    if not 1 <= row_from_bottom <= height:
        raise ValueError(expected)
    return (height - row_from_bottom) * width + col


def move_to_string(action: int, style: str, height: int, width: int) -> str:
    """The typed form of ``action`` (the inverse of :func:`parse_move`)."""
    if style in ("cell", "column"):
        return str(action + 1)
    row, col = divmod(action, width)
    return f"{string.ascii_lowercase[col]}{height - row}"


def ask_move(
    mask: np.ndarray, player: int, symbol: str, style: str, height: int, width: int
) -> int:
    """Asks at the terminal until a legal move is typed (``mask[action] == 1``); returns it.

    The prompt is short; invalid text or an illegal move prints the reason, with the full
    description of what to type, and asks again.

    Raises:
        EOFError, KeyboardInterrupt: input ended or was interrupted (the CLI exits cleanly).
    """
    hint = short_hint(style, height, width)
    while True:
        text = input(f"Player {player} ({symbol}), enter {hint}: ")
        if not sys.stdin.isatty():
            print(text)  # echo piped input so the transcript reads like a session
        try:
            action = parse_move(text, style, height, width)
        except ValueError as err:
            print(f"Invalid move: {err}")
            continue
        if not mask[action]:
            print(f"Invalid move: {text.strip()!r} is not legal now (occupied or full)")
            continue
        return action
