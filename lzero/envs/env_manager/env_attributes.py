"""DI-engine's attribute forwarding of env managers: ``manager.name`` is ``[env.name, ...]``.

DI-engine's managers answer an attribute they do not have with that attribute of every env
(in env id order); a method of the envs is refused with ``RuntimeError`` unless it is in
``method_name_list``, and then ``manager.method(*args)`` calls it on every env and returns the
list of results (LightZero's evaluators call ``evaluator_env.enable_save_replay(...)`` so).
The values come from the envs themselves, in worker processes too.
"""

from __future__ import annotations

from typing import Any

from lzero.envs.env_manager.env_handle import EnvFailure, EnvMethod
from lzero.errors import ManagerStateError

#: The env methods a manager forwards, DI-engine's list (``step``, ``reset``, ``seed`` and
#: ``close`` are the manager's own).
METHOD_NAME_LIST = ["enable_save_replay", "render", "reward_shaping", "enable_save_figure"]


class EnvAttributeForwarding:
    """Mixin of a manager with ``_handles`` (one per env) answering 'getattr' and 'call'."""

    method_name_list: list[str] = METHOD_NAME_LIST

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
