"""Where ``lzero play`` and ``lzero arena`` save their GIFs (``--gif``, ``--gif-all``); the
checks of a ``--gif`` argument are shared with ``lzero demo`` (``lzero.utils.replay_io``)."""

from __future__ import annotations

import sys

from lzero.utils.replay_io import check_gif_target, gif_folder, names_file, place_replay

__all__ = ["check_gif_target", "gif_failed", "gif_folder", "names_file", "numbered", "place_gif"]


def numbered(gif: str, game: int) -> str:
    """``NAME.gif`` as ``NAME-<game>.gif``, for saving every game of a series."""
    return f"{gif[:-4]}-{game}{gif[-4:]}"


def place_gif(env, gif: str | None, target: str | None = None) -> str | None:
    """Moves the GIF the env just wrote to ``target`` (default ``gif``) when ``gif`` names a
    file, and prints where the game is saved.

    Returns:
        None, or why the game is not saved (one line for the end of the command).
    """
    if gif is None:
        return None
    target = target or gif
    path, err = env.last_replay_file, env.last_replay_error
    env.last_replay_file = env.last_replay_error = None
    if path is None:
        reason = getattr(err, "strerror", None) or err or "nothing was recorded"
        where = f"as {target}" if names_file(gif) else f"in {gif}"
        return f"--gif: the game was not saved {where}: {reason}"
    path, problem = place_replay(path, gif, target)
    if problem:
        return f"--gif: the game was {problem}"
    print(f"Game saved as {path}")
    return None


def gif_failed(problem: str | None) -> int:
    """Prints ``problem`` (from :func:`place_gif`) as an error; returns the exit code."""
    if problem is None:
        return 0
    print(f"error: {problem}", file=sys.stderr)
    return 1
