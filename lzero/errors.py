"""Exceptions raised at the Python boundary of the library and its zoo.

Each is a subclass of the built-in exception a caller would expect, so existing
``except ValueError`` code keeps working, and of :class:`LZeroError`, so one ``except``
catches everything the project raises on purpose. :class:`ReplayWriteWarning` is a warning:
it reports a failure that must not interrupt an episode.
"""

from __future__ import annotations


class LZeroError(Exception):
    """Base class of every error the project raises deliberately."""


class ConfigError(LZeroError, ValueError):
    """A config holds an unknown key, a bad value, or contradictory settings."""


class IllegalActionError(LZeroError, ValueError):
    """An action is out of range or not legal in the current state."""


class GameOverError(LZeroError, RuntimeError):
    """``step`` (or a board env's move query) was called with no game running: the episode
    has ended, or, on a board env, none was started yet (``reset`` starts one)."""


class EnvCheckError(LZeroError, AssertionError):
    """An env implementation breaks the BaseEnv contract (raised by ``check_env``)."""


class ManagerStateError(LZeroError, RuntimeError, AssertionError):
    """An env manager was used before ``launch()`` or after ``close()``; an AssertionError
    too, which is what DI-engine's managers raise there (they assert it)."""


class ReplayWriteWarning(RuntimeWarning):
    """An episode's replay could not be written; the episode itself is unaffected (``step``
    returns its timestep, and the env keeps the error in ``last_replay_error``)."""


class EnvFailureWarning(RuntimeWarning):
    """An env in a manager raised, died or hung; it is restarted and its episode reported as
    an abnormal timestep (``info['abnormal']``)."""


class MissingExtraError(LZeroError, ImportError):
    """A feature needs an optional dependency that is not installed; the message names the
    extra that installs it (``pip install -e ".[ray]"``)."""


class ActorFailureWarning(RuntimeWarning):
    """A Ray self-play actor died or raised; it is restarted and the games it was playing
    are lost, while the other actors and the learner go on."""
