"""Rendering and GIF replays of a board env (``render``, ``enable_save_replay``), mixed into
:class:`~zoo.board_games.board_game_env.BoardGameEnv`.

They read the env's ``board``, ``_last_cell``, ``render_mode`` and replay settings and drive
its :class:`~zoo.board_games.render.BoardRecorder`; the drawing itself is in ``render.py``.
"""

from __future__ import annotations

import sys
import warnings

from lzero.errors import ConfigError, ReplayWriteWarning
from zoo.board_games.env_support import check_choice
from zoo.board_games.render import draw_board, text_board

RENDER_MODES = ("state_realtime_mode", "image_realtime_mode", "image_savefile_mode")
#: LightZero TicTacToe's ``render`` modes: ``'human'`` prints, ``'rgb_array'`` returns the frame.
LIGHTZERO_RENDER_MODES = {"human": "state_realtime_mode", "rgb_array": "rgb_array"}


class BoardRecordingMethods:
    """Rendering modes and GIF replays, the same for every board game."""

    #: Why the last GIF of ``image_savefile_mode`` could not be written (None if it was, or
    #: before the first); ``last_replay_file`` is None then.
    last_replay_error: OSError | ConfigError | None = None

    #: What ``render()`` does with neither a mode nor ``render_mode``, as in LightZero:
    #: TicTacToe prints the board (``'human'``); Gomoku and Connect4 do nothing (None).
    default_render_mode: str | None = None

    @property
    def last_cell(self) -> int:
        """The flat cell (``row * W + col``) of the last stone played; -1 before the first
        move, or after ``board`` was set from outside."""
        return self._last_cell

    def render(self, mode: str | None = None):
        """Prints the board, shows it in a window, or records a GIF frame (``RENDER_MODES``);
        LightZero's TicTacToe modes ``'human'`` (print) and ``'rgb_array'`` (the frame,
        not recorded) too, and gymnasium's ``'ansi'`` (the text, not printed).

        Args:
            mode: the render mode; None uses ``render_mode`` from the config, and then
                ``default_render_mode`` (None: nothing is rendered).

        Returns:
            The text (state mode, ``'human'``), the frame `[Hpx, Wpx, 3]` uint8 (image modes,
            ``'rgb_array'``), or None when nothing is rendered.
        """
        mode = mode or self.render_mode or self.default_render_mode
        if mode is None:
            return None
        check_choice(
            "render", "mode", mode, RENDER_MODES + tuple(LIGHTZERO_RENDER_MODES) + ("ansi",)
        )
        if mode == "ansi":  # gymnasium's text mode: the board as text, not printed
            rec = self._recorder
            return text_board(self.board, self._last_cell, rec.row_labels, rec.col_labels)
        if mode == "rgb_array":
            rec = self._recorder
            return draw_board(self.board, self._last_cell, rec.gravity, rec.scaling)
        mode = LIGHTZERO_RENDER_MODES.get(mode, mode)
        return self._recorder.render(mode, self.board, self._last_cell)

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
        if self.render_mode is not None:
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


__all__ = ["RENDER_MODES", "BoardRecordingMethods", "ReplayWriteWarning"]
