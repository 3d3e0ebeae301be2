"""A manager's envs and bookkeeping as plain values, for a training run's checkpoint: what
``--resume`` needs to continue the episodes in flight as if the run had not stopped."""

from __future__ import annotations

from typing import Any

import numpy as np

from lzero.envs.env_manager.env_handle import EnvFailure


class SavableEnvs:
    """``state_dict``/``load_state_dict`` of :class:`BaseEnvManager` and its subclasses: every
    env pickled (in its worker process for ``SubprocessEnvManager``), the observations ready
    to act on, and the seeds and episode counters."""

    def state_dict(self) -> dict:
        """The envs and the manager's bookkeeping, between two ``step`` calls.

        Raises:
            TypeError: an env cannot be pickled (one holding native objects, such as Box2D's).
            ValueError: a step is in flight.
        """
        self._check_launched("state_dict")
        if self._sent_obs:
            raise ValueError("state_dict: expected no step in flight, got some")
        deadline = self._deadline("step_timeout")
        for handle in self._handles:
            handle.send("getstate", None)
        envs = []
        for env_id, handle in enumerate(self._handles):
            try:
                envs.append(np.frombuffer(handle.recv(deadline), np.uint8))
            except EnvFailure as err:
                text = str(err).strip().splitlines()[-1]
                raise TypeError(
                    f"state_dict: env {env_id}'s state cannot be saved (pickled): {text}"
                ) from err
        return {
            "envs": envs,
            "ready_obs": dict(self._ready_obs),
            "episodes": list(self._episodes),
            "failures": list(self._failures),
            "seeds": None if self._seeds is None else list(self._seeds),
            "dynamic_seed": self._dynamic_seed,
            "seed_pending": list(self._seed_pending),
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Puts back what :meth:`state_dict` returned (of a manager of as many envs). The envs
        are unpickled: load only states a run of yours wrote.

        Raises:
            ValueError: the state is of a manager of another number of envs.
        """
        self._check_launched("load_state_dict")
        if len(state["envs"]) != self.env_num:
            raise ValueError(
                f"expected the state of a manager of {self.env_num} envs, got one of "
                f"{len(state['envs'])}"
            )
        deadline = self._deadline("reset_timeout")
        for handle, data in zip(self._handles, state["envs"]):
            handle.send("setstate", np.asarray(data, np.uint8).tobytes())
        for handle in self._handles:
            handle.recv(deadline)
        self._ready_obs = dict(state["ready_obs"])
        self._episodes, self._failures = list(state["episodes"]), list(state["failures"])
        self._seeds = None if state["seeds"] is None else list(state["seeds"])
        self._dynamic_seed = bool(state["dynamic_seed"])
        self._seed_pending = list(state["seed_pending"])
