"""Showing boards: a labelled text board (coloured on a terminal), a live window, GIFs.

The frames themselves are drawn in ``drawing.py``. Nothing here knows a game's rules; the env
passes the board, the last move, the labels and the caption.
"""

from __future__ import annotations

import itertools
import os
import sys
import time
import warnings

import numpy as np

from lzero.utils.replay_io import write_frames_atomic
from zoo.board_games.drawing import BoardStyle, draw_board, winning_cells

SYMBOLS = {0: ".", 1: "X", 2: "O"}
LEGAL_MARK = "*"  # a legal move, where the game marks them (Othello)
#: ANSI colours of ``X`` and ``O`` on a terminal: bold red and bold yellow, as the pieces of a
#: frame (``drawing.PIECES``); the winning line's cells get a green background.
ANSI_PIECES = {1: "\x1b[1;31m", 2: "\x1b[1;33m"}
_ANSI_WON, _ANSI_RESET, _ANSI_PIECE_END = "\x1b[42m", "\x1b[0m", "\x1b[22;39m"


def use_colour(stream=None) -> bool:
    """True when ``stream`` (stdout) is a terminal that takes colours: not piped, ``NO_COLOR``
    unset or empty (https://no-color.org: a non-empty value turns colour off) and ``TERM`` not
    ``dumb``."""
    stream = sys.stdout if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(
        isatty and isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    )


def text_board(
    board: np.ndarray,
    last_cell: int,
    row_labels: list[str],
    col_labels: list[str],
    *,
    colour: bool = False,
    won: set[int] | frozenset = frozenset(),
    legal: np.ndarray | None = None,
) -> str:
    """Returns the board as text: ``X`` player 1, ``O`` player 2, the last move in brackets,
    and with ``legal`` (`[>= H * W]`) each legal move as ``*``.

    Args:
        board: `[H, W]` int8.
        last_cell: flat index of the last stone, or -1.
        row_labels: `H` labels, top row first.
        col_labels: `W` labels.
        colour: colour the pieces (ANSI) and the cells of ``won`` (the winning line).
        won: flat cells of the winning line.
    """
    h, w = board.shape
    pad = max(len(s) for s in row_labels)
    lines = [" " * (pad + 1) + "".join(f"{c:^3}" for c in col_labels)]
    for r in range(h):
        cells = []
        for c in range(w):
            v = int(board[r, c])
            s = f"{ANSI_PIECES[v]}{SYMBOLS[v]}{_ANSI_PIECE_END}" if colour and v else SYMBOLS[v]
            if not v and legal is not None and legal[r * w + c]:
                s = LEGAL_MARK
            cell = f"[{s}]" if r * w + c == last_cell else f" {s} "
            if colour and r * w + c in won:
                cell = f"{_ANSI_WON}{cell}{_ANSI_RESET}"
            cells.append(cell)
        lines.append(f"{row_labels[r]:>{pad}} " + "".join(cells) + f" {row_labels[r]}")
    lines.append(lines[0])
    return "\n".join(lines)


def write_gif(
    frames: list[np.ndarray],
    path: str | os.PathLike,
    *,
    duration_ms: int = 500,
    final_ms: int = 2500,
) -> str:
    """Writes ``frames`` (each `[Hpx, Wpx, 3]` uint8) as a looping GIF at ``path``.

    Each frame shows for ``duration_ms``, the last one for ``final_ms``. The GIF is written to
    a temporary file in the same directory and renamed into place, so ``path`` is either the
    whole GIF or absent.

    Raises:
        ConfigError: the directory of ``path`` is not writable (nothing is left behind).
        OSError: writing failed, e.g. the disk is full (nothing is left behind).
    """
    # The final position is held longer: the GIF loops, and the result is what one looks for.
    durations = [duration_ms] * (len(frames) - 1) + [max(duration_ms, final_ms)]
    # Pillow takes a list of durations for an animation only; one frame takes a number.
    duration = durations if len(durations) > 1 else durations[0]
    return write_frames_atomic(frames, path, extension=".gif", duration=duration, loop=0)


class RealtimeWindow:
    """A pygame window showing the latest frame; without a display it warns once and no-ops.

    Args:
        title: the window's title.
        mode: the render mode that asked for it, named in the warning.
    """

    def __init__(self, title: str, mode: str = "image_realtime_mode") -> None:
        self._title, self._mode = title, mode
        self._screen = None
        #: True once opening the window failed: ``show`` does nothing any more.
        self.failed = False

    def show(self, frame: np.ndarray) -> None:
        """Displays ``frame`` `[Hpx, Wpx, 3]` uint8."""
        if self.failed:
            return
        import pygame

        if self._screen is None:
            headless = os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen") or not (
                os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.name == "nt"
            )
            try:
                if headless:
                    raise RuntimeError("no display found (DISPLAY unset or SDL_VIDEODRIVER=dummy)")
                pygame.display.init()
                self._screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
                pygame.display.set_caption(self._title)
            except (RuntimeError, pygame.error) as err:
                self.failed = True
                warnings.warn(
                    f"{self._mode}: {err}; the board is not shown (render_mode 'ansi' gives it as "
                    "text)",
                    stacklevel=4,
                )
                return
        pygame.event.pump()
        self._screen.blit(pygame.surfarray.make_surface(frame.transpose(1, 0, 2)), (0, 0))
        pygame.display.flip()

    def close(self) -> None:
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            self._screen = None


_RECORDERS = itertools.count()


class BoardRecorder:
    """One env's drawing: its text board and frames, its window, the frames of the game being
    recorded and the GIFs made of them.

    Args:
        name: game name, used in window titles and GIF names.
        style: how the game's frames are drawn, labels included.
    """

    def __init__(self, name: str, style: BoardStyle) -> None:
        self.name, self.style = name, style
        self.frames: list[np.ndarray] = []
        self.window: RealtimeWindow | None = None
        self._tag = f"pid{os.getpid()}_env{next(_RECORDERS)}"

    def text(self, board: np.ndarray, last_cell: int, *, colour: bool = False, legal=None) -> str:
        """The text board (see :func:`text_board`), the winning line coloured with ``colour``,
        the moves of ``legal`` marked."""
        style = self.style
        won = winning_cells(board, style.win_length) if colour else frozenset()
        return text_board(
            board, last_cell, style.row_labels, style.col_labels, colour=colour, won=won,
            legal=legal,
        )  # fmt: skip

    def frame(
        self, board: np.ndarray, last_cell: int, caption: tuple[str, ...], legal=None
    ) -> np.ndarray:
        """The picture `[Hpx, Wpx, 3]` uint8 (see :func:`drawing.draw_board`)."""
        return draw_board(board, last_cell, self.style, caption, legal)

    def window_failed(self) -> bool:
        """True once the window could not be opened (no display): drawing for it is wasted."""
        return self.window is not None and self.window.failed

    def show(self, frame: np.ndarray, mode: str) -> None:
        """Shows ``frame`` in the window, opened on first use (``mode`` names it in a warning)."""
        if self.window is None:
            self.window = RealtimeWindow(self.name, mode)
        self.window.show(frame)

    def gif_path(self, folder: str, episode: int, suffix: str | None) -> str:
        """The path of episode ``episode``'s GIF in ``folder``.

        The name holds the game, time, process, recorder and episode, so several envs and
        episodes never overwrite each other.
        """
        stamp = time.strftime("%Y%m%d-%H%M%S")
        extra = f"_{suffix}" if suffix else ""
        return os.path.join(folder, f"{self.name}_{stamp}_{self._tag}_ep{episode}{extra}.gif")

    def save_gif(self, path: str) -> str:
        """Writes the recorded frames as a GIF at ``path`` and frees them; returns the path.

        Raises:
            OSError: writing failed (nothing is left behind; the frames are freed all the same).
            ConfigError: the folder of ``path`` is not writable.
        """
        frames, self.frames = self.frames, []
        return write_gif(frames, path)

    def close(self) -> None:
        if self.window is not None:
            self.window.close()
            self.window = None
        self.frames = []
