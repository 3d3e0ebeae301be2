"""DI-engine's attribute forwarding of env managers: ``manager.name`` is ``[env.name, ...]``.

DI-engine's managers answer an attribute they do not have with that attribute of every env
(in env id order); a method of the envs is refused with ``RuntimeError`` unless it is in
``method_name_list``, and then ``manager.method(*args)`` calls it on every env and returns the
list of results. The values come from the envs themselves, in worker processes too. Three of
that list's methods are the manager's own, with DI-engine's signatures:
``enable_save_replay(path or [path per env])`` (before ``launch`` too: applied when the envs
are built, and again to an env restarted after a failure), and ``reward_shaping(env_id,
transitions)`` and ``enable_save_figure(env_id, path)``, which call one env.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from numbers import Integral
from typing import Any

from lzero.envs.env_manager.env_handle import EnvFailure, EnvMethod, EnvTimeout
from lzero.errors import ManagerStateError

#: The env methods a manager forwards, DI-engine's list (``step``, ``reset``, ``seed`` and
#: ``close`` are the manager's own).
METHOD_NAME_LIST = ["enable_save_replay", "render", "reward_shaping", "enable_save_figure"]


class EnvAttributeForwarding:
    """Mixin of a manager with ``_handles`` (one per env) answering 'getattr' and 'call'."""

    method_name_list: list[str] = METHOD_NAME_LIST
    _replay_paths: list[str] | None = None

    def enable_save_replay(self, replay_path: str | os.PathLike | Sequence[str]) -> None:
        """Every env saves its episodes' replays under ``replay_path`` (or env ``i`` under
        ``replay_path[i]``), from its next episode; before :meth:`launch` too (DI-engine's
        eval entry calls it then), the envs get it when they are built.

        Raises:
            ValueError: a list whose length is not the number of envs.
        """
        if isinstance(replay_path, (str, os.PathLike)):
            paths = [os.fspath(replay_path)] * self.env_num
        else:
            paths = [os.fspath(p) for p in replay_path]
            if len(paths) != self.env_num:
                raise ValueError(
                    f"enable_save_replay: expected a path or a list of {self.env_num} (one per "
                    f"env), got a list of {len(paths)}"
                )
        self._replay_paths = paths
        if self.launched:
            for env_id in range(self.env_num):
                self._apply_replay_path(env_id)

    def _apply_replay_path(self, env_id: int) -> None:
        if self._replay_paths is not None:
            self._call_env(env_id, "enable_save_replay", self._replay_paths[env_id])

    def reward_shaping(self, env_id: int, transitions: Any) -> Any:
        """DI-engine's: env ``env_id``'s ``reward_shaping(transitions)``."""
        return self._call_env(env_id, "reward_shaping", transitions)

    def enable_save_figure(self, env_id: int, figure_path: str) -> Any:
        """DI-engine's: env ``env_id``'s ``enable_save_figure(figure_path)``."""
        return self._call_env(env_id, "enable_save_figure", figure_path)

    def _call_env(self, env_id: Any, name: str, *args: Any) -> Any:
        """Env ``env_id``'s method ``name`` called with ``args``; its result."""
        if not self.launched:
            raise ManagerStateError(
                f"{name}: expected a launched manager (launch() first), got "
                f"{'a closed one' if self._closed else 'one not launched yet'}"
            )
        if (
            isinstance(env_id, bool)
            or not isinstance(env_id, Integral)
            or not 0 <= env_id < self.env_num
        ):
            raise ValueError(f"{name}: expected an env id in [0, {self.env_num}), got {env_id!r}")
        try:
            return self._ask_env(env_id, "call", (name, args, {}))
        except EnvFailure as err:
            raise RuntimeError(f"{name}: env {env_id} failed: {err}") from None

    def _ask_env(self, env_id: int, cmd: str, arg: Any) -> Any:
        """Sends ``cmd`` to env ``env_id`` and returns its answer (within the step timeout).

        Raises:
            EnvFailure: the env raised; EnvRejected: it refused the command.
        """
        handle = self._handles[env_id]
        handle.send(cmd, arg)
        return handle.recv(self._deadline("step_timeout"))

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):  # the manager's own state (also while __init__ runs)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {key!r}")
        if not self.launched:
            raise ManagerStateError(
                f"{key}: expected a launched manager to read its envs' attribute, got "
                f"{'a closed one' if self._closed else 'one not launched yet'}"
            )
        try:
            values = self._ask_envs("getattr", key)
        except EnvTimeout as err:  # not a missing attribute: an env too slow to answer
            raise RuntimeError(
                f"{key}: an env did not answer within step_timeout ({err})"
            ) from None
        except EnvFailure as err:
            raise AttributeError(f"the envs have no attribute {key!r} ({err})") from None
        if isinstance(values[0], EnvMethod):
            if key not in self.method_name_list:
                raise RuntimeError(
                    f"{key}: expected an env attribute or a method in method_name_list "
                    f"{self.method_name_list}, got a method of the envs"
                )
            return lambda *args, **kwargs: self._ask_envs("call", (key, args, kwargs))
        return values

    def _ask_envs(self, cmd: str, arg: Any) -> list:
        """Sends ``cmd`` to every env and returns their answers in env id order."""
        for handle in self._handles:
            handle.send(cmd, arg)
        deadline, answers, failure = self._deadline("step_timeout"), [], None
        for handle in self._handles:  # every answer is read, so none is left in a pipe
            try:
                answers.append(handle.recv(deadline))
            except EnvFailure as err:
                failure = failure or err
        if failure is not None:
            raise failure
        return answers
