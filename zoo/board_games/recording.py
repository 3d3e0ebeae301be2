"""Rendering and GIF replays of a board env (``render``, ``enable_save_replay``), mixed into
:class:`~zoo.board_games.board_game_env.BoardGameEnv`.

They read the env's ``board``, ``_last_cell``, ``render_mode`` and replay settings and drive
its :class:`~zoo.board_games.render.BoardRecorder`; the drawing itself is in ``render.py``.
"""

from __future__ import annotations

from lzero.envs.config import unknown_name_message
from lzero.errors import ConfigError

RENDER_MODES = ("state_realtime_mode", "image_realtime_mode", "image_savefile_mode")


class BoardRecordingMethods:
    """Rendering modes and GIF replays, the same for every board game."""

    def render(self, mode: str | None = None):
        """Prints the board, shows it in a window, or records a GIF frame (``RENDER_MODES``).

        Args:
            mode: the render mode; None uses ``render_mode`` from the config.

        Returns:
            The text (state mode) or the frame `[Hpx, Wpx, 3]` uint8 (image modes).
        """
        mode = mode or self.render_mode
        if mode not in RENDER_MODES:
            raise ConfigError("render: " + unknown_name_message("mode", str(mode), RENDER_MODES))
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
        """Renders the move just played, and writes the GIF once the game is over."""
        if self.render_mode is not None:
            self.render(self.render_mode)
        if self._done and self._recorder.frames:
            folder = self._replay_dir()
            self.last_replay_file = self._recorder.save_gif(
                folder, self._episode, self._replay_suffix
            )


__all__ = ["RENDER_MODES", "BoardRecordingMethods"]
