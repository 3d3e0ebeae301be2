"""Board frames as RGB arrays (pygame), readable beside the terminal's text board.

A frame shows the pieces in the colours the terminal gives ``X`` and ``O`` (TicTacToe draws
the letters themselves), the terminal's row and column labels around the board, the winning
line on a highlighted background, the last stone ringed, and a caption below: whose turn it
is or the result, and who played which piece when that is known. Nothing here knows a game's
rules: the caller passes the board, the last move, the labels and the caption.
"""

from __future__ import annotations

import os
from typing import NamedTuple

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

#: Piece colours of player 1 (``X``) and player 2 (``O``); the terminal's ANSI colours for the
#: letters (``render.ANSI_PIECES``) are the nearest ones, red and yellow.
PIECES = {1: (220, 40, 40), 2: (245, 200, 0)}
#: Background of the winning line's cells; used nowhere else in a frame.
HIGHLIGHT = (40, 200, 90)
#: Ring around the last stone.
LAST = (255, 255, 255)
_RACK, _HOLE = (30, 70, 200), (235, 235, 235)  # gravity games: a blue rack with holes
_BOARD, _GRID = (44, 52, 64), (130, 140, 155)  # the others: a slate board with grid lines
_INK, _PAPER = (235, 235, 235), (24, 28, 34)  # labels and caption on the margins
_FELT, _FELT_GRID, _MARK = (28, 110, 62), (12, 60, 30), (150, 205, 160)  # Othello's board


class BoardStyle(NamedTuple):
    """How one game's boards are drawn.

    Attributes:
        gravity: a rack of holes (Connect4) instead of a grid.
        letters: draw ``X`` and ``O`` as letters in the cells (TicTacToe) instead of stones.
        row_labels: `H` labels, top row first, as the terminal's.
        col_labels: `W` labels, as the terminal's.
        win_length: stones in a row that win (to find the line to highlight; 0: none).
        screen_scaling: the board is about ``60 * screen_scaling`` pixels wide.
        mark_legal: mark the legal moves (Othello, where they are not simply the empty cells),
            and draw the pieces inside the cells of a green board.
    """

    gravity: bool
    letters: bool
    row_labels: list
    col_labels: list
    win_length: int
    screen_scaling: float = 9
    mark_legal: bool = False


def cell_pixels(height: int, width: int, screen_scaling: float) -> int:
    """Side of one cell in pixels: the board is about ``60 * screen_scaling`` pixels wide."""
    return max(12, int(round(60 * screen_scaling / max(height, width))))


def winning_cells(board: np.ndarray, win_length: int) -> set[int]:
    """Flat cells of every line of ``win_length`` or more stones of one player.

    Args:
        board: `[H, W]` int8, 0 empty, 1 and 2 the players' stones.
    """
    h, w = board.shape
    cells: set[int] = set()
    if win_length <= 0:  # a game not won by a line (Othello)
        return cells
    for r in range(h):
        for c in range(w):
            p = board[r, c]
            if not p:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                pr, pc = r - dr, c - dc  # only start at a line's first stone
                if 0 <= pr < h and 0 <= pc < w and board[pr, pc] == p:
                    continue
                run, rr, cc = [], r, c
                while 0 <= rr < h and 0 <= cc < w and board[rr, cc] == p:
                    run.append(rr * w + cc)
                    rr, cc = rr + dr, cc + dc
                if len(run) >= win_length:
                    cells.update(run)
    return cells


_FONTS: dict[int, object] = {}


def _font(size: int):
    import pygame

    # A Font outlives pygame.font.quit() as a dangling handle, and rendering with it crashes
    # the process. Other code quits pygame (gymnasium's classic-control envs call pygame.quit()
    # in close()), so cached fonts are dropped whenever the font module is down.
    if not pygame.font.get_init():
        _FONTS.clear()
        pygame.font.init()
    if size not in _FONTS:
        _FONTS[size] = pygame.font.Font(None, size)
    return _FONTS[size]


def _text_width(font, parts) -> int:
    return sum(font.size(text)[0] for text, _ in parts)


def _blit_parts(surface, font, parts, x: int, y: int) -> None:
    """Draws ``parts`` (``(text, colour)`` pairs) side by side from ``(x, y)``."""
    for text, colour in parts:
        image = font.render(text, True, colour, _PAPER)
        surface.blit(image, (x, y))
        x += image.get_width()


def caption_parts(line: str) -> list[tuple[str, tuple]]:
    """Splits a caption line into ``(text, colour)`` parts: the words ``X`` and ``O`` in their
    pieces' colours, the rest in the caption's ink."""
    parts: list[tuple[str, tuple]] = []
    for i, word in enumerate(line.split(" ")):
        text = word if i == 0 else " " + word
        bare = word.strip(",.:;()")
        colour = PIECES[1] if bare == "X" else PIECES[2] if bare == "O" else _INK
        parts.append((text, colour))
    return parts


def _draw_piece(surface, style: BoardStyle, player: int, centre, size: int) -> None:
    import pygame

    colour, (x, y) = PIECES[player], centre
    if not style.letters:
        radius = int(size * 0.42)
        pygame.draw.circle(surface, colour, centre, radius)
        pygame.draw.circle(surface, (20, 20, 20), centre, radius, max(1, size // 30))
        return
    arm, thick = int(size * 0.3), max(3, size // 10)
    if player == 1:
        pygame.draw.line(surface, colour, (x - arm, y - arm), (x + arm, y + arm), thick)
        pygame.draw.line(surface, colour, (x - arm, y + arm), (x + arm, y - arm), thick)
    else:
        pygame.draw.circle(surface, colour, centre, int(arm * 1.1), thick)


class Layout(NamedTuple):
    """Where a frame's parts are, in pixels: the board's top-left corner ``(left, top)``, a
    cell's side ``size``, the frame's ``width`` and ``height``, the margins (``side`` left and
    right of the board, ``band`` above and below it), and the fonts."""

    left: int
    top: int
    size: int
    width: int
    height: int
    side: int
    band: int
    pad: int
    label_font: object
    text_font: object


#: Caption lines below every frame (the status, then who plays which piece), and a line as
#: wide as the widest usual caption: the frame is at least that wide. Every frame of a game
#: has the same size, whatever its caption; a longer line is cut.
CAPTION_LINES = 2
_WIDE_CAPTION = "X: bot1 alpha_beta, O: bot2 random"


def layout(shape: tuple[int, int], style: BoardStyle) -> Layout:
    """The :class:`Layout` of a frame of a board of ``shape`` `(H, W)`."""
    h, w = shape
    size = cell_pixels(h, w, style.screen_scaling)
    label_font = _font(max(12, min(26, size // 2)))
    text_font = _font(max(14, min(30, w * size // 16)))
    pad = max(4, size // 8)
    side = max(label_font.size(s)[0] for s in style.row_labels) + 2 * pad
    band = label_font.get_linesize() + pad
    width = max(w * size + 2 * side, text_font.size(_WIDE_CAPTION)[0] + 2 * pad)
    lines = CAPTION_LINES * text_font.get_linesize() + pad
    left = (width - w * size) // 2
    return Layout(
        left, band, size, width, h * size + 2 * band + lines, side, band, pad, label_font,
        text_font,
    )  # fmt: skip


def _fit(font, line: str, width: int) -> str:
    """``line`` cut to ``width`` pixels. Each of its ``", "``-separated parts (``X: name`` and
    ``O: name`` on the players' line) keeps its start and its end: the longest part loses
    characters from its middle, marked ``...``, until the line fits, so that two long
    ``agent:PATH`` names both stay readable. A line still too wide is cut at its end."""
    if font.size(line)[0] <= width:
        return line
    parts = line.split(", ")
    keep = [len(p) for p in parts]  # characters each part keeps, "..." included

    def joined() -> str:
        return ", ".join(p if k == len(p) else _cut_middle(p, k) for p, k in zip(parts, keep))

    while font.size(joined())[0] > width:
        i = max(range(len(parts)), key=keep.__getitem__)
        if keep[i] <= _MIN_KEEP:
            break
        keep[i] -= 1
    line = joined()
    if font.size(line)[0] <= width:
        return line
    while line and font.size(line + "...")[0] > width:
        line = line[:-1]
    return line + "..."


_MIN_KEEP = 7  # a part cut in its middle keeps 2 characters on each side of "..."


def _cut_middle(text: str, n: int) -> str:
    """``text`` as ``n`` characters: its start and end around ``...``."""
    head = (n - 3 + 1) // 2
    return text[:head] + "..." + text[len(text) - (n - 3 - head) :]


def draw_board(
    board: np.ndarray,
    last_cell: int,
    style: BoardStyle,
    caption: tuple[str, ...] = (),
    legal: np.ndarray | None = None,
) -> np.ndarray:
    """Draws ``board`` with pygame and returns the picture as an RGB array `[Hpx, Wpx, 3]` uint8.

    Args:
        board: `[H, W]` int8.
        last_cell: flat index of the last stone (ringed), or -1 (or ``H * W``, a pass).
        style: how the game is drawn.
        caption: up to ``CAPTION_LINES`` lines below the board; the words ``X`` and ``O``
            take their pieces' colours.
        legal: `[>= H * W]` the legal moves to mark (a dot in the cell), or None.
    """
    import pygame

    h, w = board.shape
    at = layout(board.shape, style)
    left, top, size, width, height = at.left, at.top, at.size, at.width, at.height
    label_font, text_font, pad, side = at.label_font, at.text_font, at.pad, at.side
    surface = pygame.Surface((width, height))
    surface.fill(_PAPER)
    board_rect = pygame.Rect(left, top, w * size, h * size)
    surface.fill(_RACK if style.gravity else _FELT if style.mark_legal else _BOARD, board_rect)
    won = winning_cells(board, style.win_length) if board.any() else set()
    for cell in won:
        r, c = divmod(cell, w)
        surface.fill(HIGHLIGHT, pygame.Rect(left + c * size, top + r * size, size, size))
    if style.letters or style.mark_legal:  # TicTacToe, Othello: lines between the cells
        grid = _FELT_GRID if style.mark_legal else _GRID
        for i in range(1, h):
            y = top + i * size
            pygame.draw.line(surface, grid, (left, y), (left + w * size - 1, y), 2)
        for j in range(1, w):
            x = left + j * size
            pygame.draw.line(surface, grid, (x, top), (x, top + h * size - 1), 2)
    elif not style.gravity:  # Gomoku: lines through the cells' centres, stones on them
        mid = size // 2
        for i in range(h):
            y = top + i * size + mid
            pygame.draw.line(surface, _GRID, (left + mid, y), (left + w * size - mid, y), 1)
        for j in range(w):
            x = left + j * size + mid
            pygame.draw.line(surface, _GRID, (x, top + mid), (x, top + h * size - mid), 1)
    radius = int(size * 0.42)
    for r in range(h):
        for c in range(w):
            centre = (left + c * size + size // 2, top + r * size + size // 2)
            v = int(board[r, c])
            if v:
                _draw_piece(surface, style, v, centre, size)
            elif legal is not None and legal[r * w + c]:
                pygame.draw.circle(surface, _MARK, centre, max(2, size // 10))
            elif style.gravity:
                pygame.draw.circle(surface, _HOLE, centre, radius)
    if 0 <= last_cell < board.size:  # not a pass (the action after the cells)
        r, c = divmod(last_cell, w)
        centre = (left + c * size + size // 2, top + r * size + size // 2)
        pygame.draw.circle(surface, LAST, centre, int(size * 0.47), max(2, size // 20))
    for r, label in enumerate(style.row_labels):
        y = top + r * size + (size - label_font.get_linesize()) // 2
        for x in (left - side + pad, left + w * size + pad):
            _blit_parts(surface, label_font, [(label, _INK)], x, y)
    for c, label in enumerate(style.col_labels):
        x = left + c * size + (size - label_font.size(label)[0]) // 2
        for y in (pad // 2, top + h * size + pad // 2):
            _blit_parts(surface, label_font, [(label, _INK)], x, y)
    y = top + h * size + at.band
    for text in caption[:CAPTION_LINES]:
        parts = caption_parts(_fit(text_font, text, width - 2 * pad))
        _blit_parts(surface, text_font, parts, (width - _text_width(text_font, parts)) // 2, y)
        y += text_font.get_linesize()
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))
