"""Rendering and GIF replays of a board env (``render``, ``enable_save_replay``), mixed into
:class:`~zoo.board_games.board_game_env.BoardGameEnv`.

They read the env's ``board``, ``_last_cell``, ``render_mode`` and replay settings and drive
its :class:`~zoo.board_games.render.BoardRecorder`; the drawing itself is in ``render.py``.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from lzero.errors import ConfigError, ReplayWriteWarning
from zoo.board_games.common.rules import DRAW
from zoo.board_games.env_support import check_choice
from zoo.board_games.render import SYMBOLS, use_colour

#: LightZero's modes, each rendering after every move: print the board, show it in a window,
#: record a frame for the game's GIF.
LIGHTZERO_RENDER_MODES = ("state_realtime_mode", "image_realtime_mode", "image_savefile_mode")
#: gymnasium's: ``'human'`` shows a window after every move (without a display, a one-time
#: warning); ``'rgb_array'`` (the frame) and ``'ansi'`` (the text) render when asked.
GYMNASIUM_RENDER_MODES = ("human", "rgb_array", "ansi")
RENDER_MODES = LIGHTZERO_RENDER_MODES + GYMNASIUM_RENDER_MODES
#: The modes that render after every move by themselves.
AUTO_RENDER_MODES = LIGHTZERO_RENDER_MODES + ("human",)


class BoardRecordingMethods:
    """Rendering modes and GIF replays, the same for every board game."""

    #: Why the last GIF of ``image_savefile_mode`` could not be written (None if it was, or
    #: before the first); ``last_replay_file`` is None then.
    last_replay_error: OSError | ConfigError | None = None

    #: What ``render()`` does with neither a mode nor ``render_mode``, as in LightZero:
    #: TicTacToe prints the board; Gomoku and Connect4 do nothing (None).
    default_render_mode: str | None = None

    #: Draw ``X`` and ``O`` as letters in frames (TicTacToe) instead of stones.
    piece_letters = False

    #: Who plays ``X`` and who ``O`` (e.g. ``("rule bot", "you")``), named in the frames'
    #: caption; None names nobody.
    replay_players: tuple[str, str] | None = None

    @property
    def last_cell(self) -> int:
        """The flat cell (``row * W + col``) of the last stone played; -1 before the first
        move, or after ``board`` was set from outside."""
        return self._last_cell

    def render(self, mode: str | None = None):
        """Renders the board in ``mode`` (``RENDER_MODES``).

        LightZero's modes print the board (``'state_realtime_mode'``, in colour on a
        terminal), show it in a window (``'image_realtime_mode'``) or record a GIF frame
        (``'image_savefile_mode'``, when the env records: its ``render_mode`` is that one;
        else the frame is only returned); gymnasium's return the frame (``'rgb_array'``) or the text
        (``'ansi'``), or show the window (``'human'``). Without a display, a window is a
        one-time warning and nothing else.

        Args:
            mode: the render mode; None uses ``render_mode`` from the config, and then
                ``default_render_mode`` (None: nothing is rendered).

        Returns:
            The text (``'state_realtime_mode'``, ``'ansi'``), the frame `[Hpx, Wpx, 3]` uint8
            (``'rgb_array'`` and LightZero's image modes), or None (``'human'``, or nothing
            rendered).
        """
        mode = mode or self.render_mode or self.default_render_mode
        if mode is None:
            return None
        check_choice("render", "mode", mode, RENDER_MODES)
        rec, board, last = self._recorder, self.board, self._last_cell
        legal = self._mask if rec.style.mark_legal and not self._done else None
        if mode in ("ansi", "state_realtime_mode"):
            # Othello's count, which decides the game, goes under its board.
            tail = "\n" + self.caption()[0] if rec.style.mark_legal else ""
            text = rec.text(board, last, legal=legal) + tail
            if mode == "state_realtime_mode":
                coloured = use_colour()
                shown = rec.text(board, last, colour=True, legal=legal) + tail if coloured else text
                print(shown, flush=True)
            return text
        shown = mode in ("human", "image_realtime_mode")
        if shown and rec.window_failed():
            return None
        frame = rec.frame(board, last, self.caption(), legal)
        if shown:
            rec.show(frame, mode)
            return None if mode == "human" else frame
        if mode == "image_savefile_mode" and self.render_mode == mode:
            rec.frames.append(frame)  # recording: the GIF is written when the game ends
        return frame

    def caption(self) -> tuple[str, ...]:
        """The frames' caption: whose turn it is or the result (``'X wins'``, ``'draw'``),
        then who plays which piece when ``replay_players`` names them."""
        result = self._result
        if result in (1, 2):
            status = f"{SYMBOLS[result]} wins"
        elif result == DRAW:
            status = "draw"
        else:
            status = f"{SYMBOLS[self._player]} to move"
        if self._recorder.style.mark_legal:  # Othello: the discs, which decide the game
            black, white = (int(n) for n in np.bincount(self.board.ravel(), minlength=3)[1:])
            status += f" (X {black}, O {white})"
        if self.replay_players is None:
            return (status,)
        x, o = self.replay_players
        return (status, f"X: {x}, O: {o}")

    def enable_save_replay(self, replay_path: str | None) -> None:
        """Records each following game as a GIF under ``replay_path``."""
        super().enable_save_replay(replay_path)
        self.replay_path = replay_path
        self.render_mode = "image_savefile_mode"

    def close(self) -> None:
        self._recorder.close()

    def _replay_dir(self) -> str:
        return self.replay_path or self._replay_path or "./replays"

    def _render_move(self) -> None:
        """Renders the move just played, and writes the GIF once the game is over.

        The move is played whatever happens to the GIF, so a failed write does not raise out
        of ``step`` (the caller would lose the final timestep): it warns with a
        :class:`ReplayWriteWarning` naming the file and the error, sets ``last_replay_file``
        to None and keeps the error in ``last_replay_error``.
        """
        if self.render_mode is not None and self.render_mode in AUTO_RENDER_MODES:
            self.render(self.render_mode)
        if self._done and self._recorder.frames:
            path = self._recorder.gif_path(self._replay_dir(), self._episode, self._replay_suffix)
            try:
                self.last_replay_file = self._recorder.save_gif(path)
                self.last_replay_error = None
            except (OSError, ConfigError) as err:  # ConfigError: the folder became unwritable
                self.last_replay_file, self.last_replay_error = None, err
                # Without err.filename: the temporary file's name only puzzles the reader.
                errno = getattr(err, "errno", None)
                reason = f"[Errno {errno}] {err.strerror}" if errno else err
                warnings.warn(
                    f"image_savefile_mode: the replay {path} was not written: {reason}",
                    ReplayWriteWarning,
                    stacklevel=self._caller_stacklevel(),
                )

    def _caller_stacklevel(self) -> int:
        """The ``stacklevel`` of the first frame outside this env's methods (the step's
        caller), however deep inside them the warning is raised."""
        frame, level = sys._getframe(1), 1
        while frame is not None and frame.f_locals.get("self") is self:
            frame, level = frame.f_back, level + 1
        return level


__all__ = [
    "AUTO_RENDER_MODES",
    "GYMNASIUM_RENDER_MODES",
    "LIGHTZERO_RENDER_MODES",
    "RENDER_MODES",
    "BoardRecordingMethods",
    "ReplayWriteWarning",
]
