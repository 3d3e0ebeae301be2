"""The vectorised board-game backend: every env of a pool stepped by one numba call.

The game hands itself over through its env class (found through ``ENV_REGISTRY``): the
``rules`` kernels of its ``BoardRules`` record and its ``rule_bot``. The observation planes,
the random mover and the episode seeding are the library's (:mod:`lzero.envs.board_step`),
the ones the env class uses too, so the pool's envs behave as that class does, seeded
``seed + i`` (dynamic seeds), and no Python runs per env while stepping.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from lzero.envs.pool.board_kernel import (
    RANDOM_BOT,
    RULE_BOT,
    SELF_PLAY,
    WITH_BOT,
    make_stepper,
)
from lzero.envs.pool.inline import SteppedAtSubmit
from lzero.errors import ConfigError, IllegalActionError
from lzero.utils.nbrng import make_rng_state

_MODES = {"self_play_mode": SELF_PLAY, "play_with_bot_mode": WITH_BOT, "eval_mode": WITH_BOT}
_BOTS = {"rule": RULE_BOT, "random": RANDOM_BOT}


def is_board_game(env_cls: Any) -> bool:
    """True for env classes that expose a rules kernel and a numba rule bot."""
    return hasattr(env_cls, "rules") and getattr(env_cls, "rule_bot", None) is not None


def probe_vectorisable(env_cls: Any, env_kwargs: dict) -> Any:
    """Builds one env of ``env_cls`` (which checks the config) and checks the pool can run it.

    Raises:
        ConfigError: an invalid config, or a setting the vectorised backend cannot run (a
            human, rendering, or a bot other than 'rule' and 'random'); the message quotes the
            value as the user gave it.
    """
    probe = env_cls(dict(env_kwargs))
    cfg = probe._cfg
    for key, ok in (
        ("render_mode", cfg.render_mode is None),
        ("agent_vs_human", not cfg.agent_vs_human),
        ("bot_action_type", cfg.bot_action_type in _bots(env_cls)),
    ):
        if not ok:
            raise ConfigError(
                f"{key}: expected a setting the vectorised pool runs "
                f"(no rendering, no human, bot in {sorted(_bots(env_cls))}), "
                f"got {env_kwargs.get(key, cfg[key])!r}"
            )
    return probe


def _bots(env_cls: Any) -> tuple:
    """The bots the pool runs for ``env_cls``: rule and random, and 'perfect' where the game
    hands over a numba perfect bot (``pool_perfect_bot``, a factory: Connect4)."""
    extra = ("perfect",) if getattr(env_cls, "pool_perfect_bot", None) else ()
    return (*_BOTS, *extra)


class BoardBackend(SteppedAtSubmit):
    """``num_envs`` envs of one board-game class, stepped by one :func:`make_stepper` kernel.

    Args:
        env_cls: a registered board env class (``Connect4Env``, ...).
        num_envs: ``N``.
        seed: env ``i`` is seeded with ``seed + i``.
        max_episode_steps: steps after which an episode is truncated (None: never).
        env_kwargs: the env's config (``battle_mode``, ``bot_action_type``, ...).

    Raises:
        ConfigError: an unknown or invalid key (the env class's own check), or a setting the
            vectorised backend cannot run (a human, rendering, or an 'mcts' bot).
    """

    def __init__(self, env_cls, num_envs, seed, max_episode_steps, env_kwargs) -> None:
        probe = probe_vectorisable(env_cls, env_kwargs)
        cfg = probe._cfg
        rules = probe.rules
        self.observation_space, self.action_space = probe.observation_space, probe.action_space
        self.fns = (
            rules.apply_action,
            rules.result_after,
            rules.legal_mask,
            env_cls.pool_perfect_bot() if cfg.bot_action_type == "perfect" else env_cls.rule_bot,
        )
        self.params = (
            _MODES[cfg.battle_mode],
            _BOTS.get(cfg.bot_action_type, RULE_BOT),  # 'perfect' takes the rule bot's slot
            float(cfg.prob_random_action_in_bot),
            float(cfg.prob_random_agent),
            float(cfg.prob_expert_agent),
            bool(cfg.scale),
            bool(cfg.channel_last),
            int(max_episode_steps or 0),
            tuple(map(tuple, rules.start_board().tolist())),
        )
        self._step = make_stepper(self.fns, self.params)
        n, h, w = num_envs, rules.height, rules.width
        self.n, self._obs_shape = n, probe.observation_space["observation"].shape
        self.action = np.zeros(n, np.int64)
        # (board, player to move, stones, steps, episode over, legal mask): board and mask
        # double as the observations of the same names.
        self.state = (
            np.zeros((n, h, w), np.int8),
            np.ones(n, np.int64),
            np.zeros(n, np.int64),
            np.zeros(n, np.int64),
            np.ones(n, np.bool_),
            np.zeros((n, rules.action_size), np.int8),
        )
        self._spare: list[np.ndarray] = []  # planes arrays handed out, reusable once unheld
        self.out = self._new_outputs()
        self._all, self._no_reset = np.arange(n), np.zeros(n, np.bool_)
        self._fresh = np.zeros(n, np.bool_)  # rows written since the outputs were handed out
        self.seed_states = np.concatenate([make_rng_state(seed + i) for i in range(n)])
        self.seed_states = self.seed_states.reshape(n, 1)
        self.rngs = np.zeros((n, 2), np.uint64)
        self._finished: list[np.ndarray] = []

    def state_dict(self) -> dict:
        """Every env's position, counters and random stream (copies), for a training run's
        checkpoint: :meth:`load_state_dict` puts the pool back where it was."""
        return {
            "state": tuple(a.copy() for a in self.state),
            "seed_states": self.seed_states.copy(),
            "rngs": self.rngs.copy(),
        }

    def load_state_dict(self, state: dict) -> None:
        """Puts back what :meth:`state_dict` returned (of a pool of the same game and size).

        Raises:
            ValueError: the state is of a pool of another size or board.
        """
        if len(state["state"]) != len(self.state) or any(
            a.shape != b.shape or a.dtype != b.dtype for a, b in zip(self.state, state["state"])
        ):
            raise ValueError(
                f"expected the state of a pool of {self.n} envs of boards "
                f"{self.state[0].shape[1:]}, got one of boards "
                f"{tuple(state['state'][0].shape)}"
            )
        for ours, saved in zip(self.state, state["state"]):
            ours[...] = saved
        self.seed_states[...] = state["seed_states"]
        self.rngs[...] = state["rngs"]

    def _new_outputs(self) -> tuple:
        n = self.n
        return (
            self._planes_buffer(),
            np.empty(n, np.int64),
            np.empty(n, np.int64),
            np.empty(n, np.float32),
            np.empty(n, np.bool_),
            np.empty(n, np.bool_),
            np.empty(n, np.int32),
        )

    def _planes_buffer(self) -> np.ndarray:
        """An `[N, ...]` float32 planes array: one handed out before that nobody holds any
        more, else a new one.

        The planes are most of an observation's bytes, and writing them into freshly mapped
        memory costs a fifth of a Connect4 step at 1,024 envs. A handed-out array is reused
        only once no reference to it (nor a view of it) is left outside this list; callers
        only ever get views of it (see ``_hand_out``).
        """
        for k in range(len(self._spare)):
            # Unheld: referenced by the list and getrefcount's argument only.
            if sys.getrefcount(self._spare[k]) <= 2:
                planes = self._spare.pop(k)
                break
        else:
            planes = np.empty((self.n, *self._obs_shape), np.float32)
        self._spare.append(planes)
        if len(self._spare) > 4:
            del self._spare[0]
        return planes

    def submit(self, ids: np.ndarray, reset_now: np.ndarray) -> None:
        """Steps (or resets) ``ids`` now; env ``i`` plays ``action[i]``.

        Raises:
            IllegalActionError: an env would play an illegal move (no env is changed).
        """
        k = self._step(
            ids, self.action, reset_now, *self.state, self.seed_states, self.rngs, *self.out
        )
        if k >= 0:
            i = int(ids[k])
            legal = np.flatnonzero(self.state[5][i]).tolist()
            raise IllegalActionError(
                f"env {i}: expected a legal action in {legal}, got {int(self.action[i])}"
            )
        self._fresh[ids] = True
        self._finished.append(ids)

    def step_all(self) -> tuple:
        """Steps every env (nothing else in flight) and returns the batch, as ``gather``."""
        self.submit(self._all, self._no_reset)
        self._finished = []
        return self._hand_out()

    def _hand_out(self) -> tuple:
        # Every row is fresh: hand the output arrays out and put new ones in their place. The
        # planes go out as a view: the array itself is reused once unheld, and a caller who
        # changed a dropped view's shape, dtype or flags in place must not reach the kernel.
        out, self.out = self.out, self._new_outputs()
        self._fresh[:] = False
        out = (out[0].view(), *out[1:])
        return self._batch(out, self.state[0].copy(), self.state[5].copy())

    @staticmethod
    def _batch(out: tuple, board: np.ndarray, mask: np.ndarray) -> tuple:
        planes, pidx, to_play, reward, term, trunc, elapsed = out
        obs = {
            "observation": planes,
            "action_mask": mask,
            "board": board,
            "current_player_index": pidx,
            "to_play": to_play,
        }
        return obs, reward, term, trunc, elapsed

    def gather(self, ids: np.ndarray) -> tuple:
        """``(obs, reward, terminated, truncated, elapsed)`` of ``ids``, never aliasing state.

        When ``ids`` is every env in order and each was stepped since the last hand-out, the
        output arrays themselves are handed out (no copy).
        """
        if ids.shape[0] == self.n and self._fresh.all() and (ids == self._all).all():
            return self._hand_out()
        out = tuple(a[ids] for a in self.out)
        return self._batch(out, self.state[0][ids], self.state[5][ids])
