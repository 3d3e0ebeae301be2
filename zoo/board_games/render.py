"""Drawing boards: a labelled text board, pygame frames as RGB arrays, a live window, GIFs.

Nothing here knows a game's rules; the env passes the board, the last move and the labels.
"""

from __future__ import annotations

import itertools
import os
import time
import warnings

import numpy as np

from lzero.utils.replay_io import write_frames_atomic

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

SYMBOLS = {0: ".", 1: "X", 2: "O"}
_WOOD, _GRID, _BLUE = (222, 184, 135), (60, 40, 20), (30, 70, 200)
_STONES = {False: {1: (20, 20, 20), 2: (245, 245, 245)}, True: {1: (220, 30, 30), 2: (245, 210, 0)}}
_LAST = (0, 200, 80)


def text_board(
    board: np.ndarray, last_cell: int, row_labels: list[str], col_labels: list[str]
) -> str:
    """Returns the board as text: ``X`` player 1, ``O`` player 2, the last move in brackets.

    Args:
        board: `[H, W]` int8.
        last_cell: flat index of the last stone, or -1.
        row_labels: `H` labels, top row first.
        col_labels: `W` labels.
    """
    h, w = board.shape
    pad = max(len(s) for s in row_labels)
    lines = [" " * (pad + 1) + "".join(f"{c:^3}" for c in col_labels)]
    for r in range(h):
        cells = []
        for c in range(w):
            s = SYMBOLS[int(board[r, c])]
            cells.append(f"[{s}]" if r * w + c == last_cell else f" {s} ")
        lines.append(f"{row_labels[r]:>{pad}} " + "".join(cells) + f" {row_labels[r]}")
    lines.append(lines[0])
    return "\n".join(lines)


def cell_pixels(height: int, width: int, screen_scaling: float) -> int:
    """Side of one cell in pixels: the board is about ``60 * screen_scaling`` pixels wide."""
    return max(12, int(round(60 * screen_scaling / max(height, width))))


def draw_board(board: np.ndarray, last_cell: int, gravity: bool, screen_scaling: float = 9):
    """Draws ``board`` with pygame and returns the picture as an RGB array `[Hpx, Wpx, 3]` uint8.

    Gravity games are drawn as a blue rack with red (player 1) and yellow (player 2) discs;
    the others as a wooden grid with black (1) and white (2) stones. The last stone carries a
    green ring and dot, so it stands out from both colours.
    """
    import pygame

    h, w = board.shape
    size = cell_pixels(h, w, screen_scaling)
    surface = pygame.Surface((w * size, h * size))
    surface.fill(_BLUE if gravity else _WOOD)
    radius = int(size * 0.42)
    if not gravity:
        for i in range(h):
            y = i * size + size // 2
            pygame.draw.line(surface, _GRID, (size // 2, y), (w * size - size // 2, y), 1)
        for j in range(w):
            x = j * size + size // 2
            pygame.draw.line(surface, _GRID, (x, size // 2), (x, h * size - size // 2), 1)
    for r in range(h):
        for c in range(w):
            v = int(board[r, c])
            centre = (c * size + size // 2, r * size + size // 2)
            if v:
                pygame.draw.circle(surface, _STONES[gravity][v], centre, radius)
                pygame.draw.circle(surface, _GRID, centre, radius, max(1, size // 30))
            elif gravity:
                pygame.draw.circle(surface, (240, 240, 240), centre, radius)
    if last_cell >= 0:
        centre = ((last_cell % w) * size + size // 2, (last_cell // w) * size + size // 2)
        pygame.draw.circle(surface, _LAST, centre, radius, max(2, size // 12))
        pygame.draw.circle(surface, _LAST, centre, max(2, size // 10))
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))


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
    return write_frames_atomic(frames, path, extension=".gif", duration=durations, loop=0)


class RealtimeWindow:
    """A pygame window showing the latest frame; without a display it warns once and no-ops."""

    def __init__(self, title: str) -> None:
        self._title = title
        self._screen = None
        self._failed = False

    def show(self, frame: np.ndarray) -> None:
        """Displays ``frame`` `[Hpx, Wpx, 3]` uint8."""
        if self._failed:
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
                self._failed = True
                warnings.warn(f"image_realtime_mode: {err}; the board is not shown", stacklevel=3)
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
    """Renders one env's boards in the three modes and turns recorded frames into GIFs.

    Args:
        name: game name, used in window titles and GIF names.
        gravity: draw as a gravity game (see :func:`draw_board`).
        row_labels: `H` labels for the text board, top row first.
        col_labels: `W` labels for the text board.
        screen_scaling: image size factor.
    """

    def __init__(self, name, gravity, row_labels, col_labels, screen_scaling) -> None:
        self.name, self.gravity, self.scaling = name, gravity, screen_scaling
        self.row_labels, self.col_labels = row_labels, col_labels
        self.frames: list[np.ndarray] = []
        self.window: RealtimeWindow | None = None
        self._tag = f"pid{os.getpid()}_env{next(_RECORDERS)}"

    def render(self, mode: str, board: np.ndarray, last_cell: int):
        """Renders in ``mode``; returns the text (state mode) or the frame (image modes)."""
        if mode == "state_realtime_mode":
            text = text_board(board, last_cell, self.row_labels, self.col_labels)
            print(text, flush=True)
            return text
        frame = draw_board(board, last_cell, self.gravity, self.scaling)
        if mode == "image_realtime_mode":
            if self.window is None:
                self.window = RealtimeWindow(self.name)
            self.window.show(frame)
        else:
            self.frames.append(frame)
        return frame

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
