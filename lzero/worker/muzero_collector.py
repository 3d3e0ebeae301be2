"""Collector and evaluator: play batched MuZero searches in the envs of an env manager.

Both speak the env-manager interface of :mod:`lzero.envs.env_manager` (``ready_obs``
dict ``env_id -> obs``, ``step({env_id: action})`` -> ``{env_id: BaseEnvTimestep}``, envs
reset automatically after ``done``). Observations are LightZero dicts with
``observation`` and ``action_mask``; one search call serves all ready envs. A board game's
``to_play`` (1 or 2 in ``self_play_mode``) makes the search two-player; with ``two_player``
set, a policy trained that way also searches two-player where the env reports -1 (a game
against the env's bot, whose replies the model predicts as the opponent's moves).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lzero.mcts.buffer.game_segment import EpisodeRecorder, GameSegment


def _stack(obs: dict, ids: list, two_player: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    o = np.stack([np.asarray(obs[i]["observation"], np.float32).reshape(-1) for i in ids])
    m = np.stack([np.asarray(obs[i]["action_mask"]).reshape(-1) for i in ids])
    return o, m, np.array([_to_play(obs[i], two_player) for i in ids], np.int64)


def _to_play(obs: dict, two_player: bool) -> int:
    to_play = int(np.asarray(obs.get("to_play", -1)).reshape(-1)[0])
    if to_play in (1, 2) or not two_player:
        return to_play
    return int(np.asarray(obs.get("current_player_index", 0)).reshape(-1)[0]) + 1


def _truncated(info: dict) -> bool:
    return bool(info.get("TimeLimit.truncated", info.get("truncated", False)))


def _episode_return(info: dict, fallback: float) -> float:
    return float(info.get("eval_episode_return", fallback))


def _abnormal(timestep: Any) -> bool:
    # An env manager reports a worker that raised, died or hung as a done timestep with
    # info['abnormal'] and no observation; the worker restarts and its new episode shows up
    # in ready_obs. The broken episode is dropped: its data and return are not to be trusted.
    return bool(timestep.info.get("abnormal", False))


class MuZeroCollector:
    """Plays exploratory searches and cuts the episodes into game segments.

    Episodes still running when a collect phase ends carry over to the next one, so no
    env step is thrown away.

    Args:
        env_manager: a launched env manager.
        policy: a :class:`lzero.policy.MuZeroPolicy`.
        segment_length: sampleable steps per segment.
        pad: steps stored after them (``num_unroll_steps + td_steps``).
        rng: generator for root noise and action sampling.
        two_player: search two-player where the env reports ``to_play`` -1 (see above).
        fast_search_prob: playout cap randomisation (Wu 2019): each step is, with this
            probability and for all envs at once, a search of ``fast_search_simulations``
            without root noise, stored with no policy target (zeros, left out of the policy
            loss); drawn from ``fast_rng``. 0: off.
    """

    def __init__(
        self,
        env_manager: Any,
        policy: Any,
        *,
        segment_length: int,
        pad: int,
        rng: np.random.Generator,
        two_player: bool = False,
        fast_search_prob: float = 0.0,
        fast_search_simulations: int | None = None,
        fast_rng: np.random.Generator | None = None,
    ) -> None:
        self.env, self.policy, self.rng = env_manager, policy, rng
        self.fast_prob, self.fast_sims = float(fast_search_prob), fast_search_simulations
        if self.fast_prob > 0 and (fast_rng is None or fast_search_simulations is None):
            raise ValueError(
                "expected fast_search_simulations and fast_rng with fast_search_prob > 0, got "
                f"{fast_search_simulations!r} and {fast_rng!r}"
            )
        self.fast_rng = fast_rng
        self.two_player = bool(two_player)
        self.length, self.pad = segment_length, pad
        self.recorders: dict[Any, EpisodeRecorder] = {}
        self.returns: dict[Any, float] = {}
        self.env_steps = 0

    def collect(
        self, n_episode: int, *, max_steps: int | None = None, epsilon: float | None = None
    ) -> tuple[list[GameSegment], dict[str, float]]:
        """Steps the envs until ``n_episode`` episodes have ended, or until ``max_steps`` env
        steps (a budget: the envs step together, so it is exceeded by at most the number of
        envs less one); episodes still running carry over to the next call. ``epsilon``:
        epsilon-greedy actions for this phase (``MuZeroPolicy.search``), None for sampling.

        Returns:
            The finished segments, and stats: ``env_steps`` of this phase, ``episodes``,
            ``return_mean`` (NaN when no episode ended).
        """
        segments: list[GameSegment] = []
        returns: list[float] = []
        steps = 0
        while len(returns) < n_episode and (max_steps is None or steps < max_steps):
            obs = self.env.ready_obs
            ids = sorted(obs)
            o, m, to_play = _stack(obs, ids, self.two_player)
            for i, row in zip(ids, o):
                if i not in self.recorders:
                    self.recorders[i] = EpisodeRecorder(
                        row, segment_length=self.length, pad=self.pad
                    )
                    self.returns[i] = 0.0
            fast = self.fast_prob > 0 and self.fast_rng.random() < self.fast_prob
            cap = {"num_simulations": self.fast_sims, "root_noise": False} if fast else {}
            actions, dist, values = self.policy.search(
                o, m, rng=self.rng, explore=True, to_play=to_play, epsilon=epsilon, **cap
            )
            if fast:  # no policy target: a fast search's visits would teach its noise-free guess
                dist = np.zeros_like(dist)
            timesteps = self.env.step({i: int(a) for i, a in zip(ids, actions)})
            for n, i in enumerate(ids):
                ts = timesteps[i]
                if _abnormal(ts):
                    del self.recorders[i]
                    self.returns.pop(i)
                    continue
                rec = self.recorders[i]
                reward = float(np.asarray(ts.reward).reshape(-1)[0])
                self.returns[i] += reward
                next_obs = np.asarray(ts.obs["observation"], np.float32).reshape(-1)
                rec.append(actions[n], reward, next_obs, dist[n], values[n], to_play[n])
                segments += rec.ready_segments()
                steps += 1
                self.env_steps += 1  # counted as taken, so an interrupted collect counts too
                if ts.done:
                    segments += rec.final_segments(truncated=_truncated(ts.info))
                    returns.append(_episode_return(ts.info, self.returns.pop(i)))
                    del self.recorders[i]
        return segments, {
            "env_steps": steps,
            "episodes": len(returns),
            "return_mean": float(np.mean(returns)) if returns else float("nan"),
        }

    def state_dict(self) -> dict:
        """The episodes in flight (recorded steps and returns so far), the envs (the manager's
        ``state_dict``), the env-step count and the generator, between two :meth:`collect`
        calls; for a training run's checkpoint.

        Raises:
            TypeError: the manager's envs cannot be saved (Ray's; an env that does not pickle).
        """
        if not hasattr(self.env, "state_dict"):
            raise TypeError(f"state_dict: the {type(self.env).__name__} cannot save its envs")
        return {
            "envs": self.env.state_dict(),
            "recorders": {i: dict(vars(r)) for i, r in self.recorders.items()},
            "returns": dict(self.returns),
            "env_steps": self.env_steps,
            "rng": self.rng.bit_generator.state,
            "fast_rng": None if self.fast_rng is None else self.fast_rng.bit_generator.state,
        }

    def load_state_dict(self, state: dict) -> None:
        """Puts back what :meth:`state_dict` returned."""
        self.env.load_state_dict(state["envs"])
        self.recorders = {}
        for i, fields in state["recorders"].items():
            rec = EpisodeRecorder.__new__(EpisodeRecorder)
            rec.__dict__.update({k: list(v) if isinstance(v, (list, tuple)) else v
                                 for k, v in fields.items()})  # fmt: skip
            self.recorders[i] = rec
        self.returns = dict(state["returns"])
        self.env_steps = int(state["env_steps"])
        self.rng.bit_generator.state = state["rng"]
        if (state["fast_rng"] is None) != (self.fast_rng is None):
            raise ValueError(
                "expected the state of a collector with fast_search_prob "
                f"{'on' if self.fast_rng is not None else 'off'}, got one with it "
                f"{'off' if self.fast_rng is not None else 'on'}"
            )
        if self.fast_rng is not None:
            self.fast_rng.bit_generator.state = state["fast_rng"]

    def close(self) -> None:
        """Closes the env manager."""
        self.env.close()


class MuZeroEvaluator:
    """Plays greedy searches (no noise, most-visited action) for a number of episodes.

    Episodes are spread evenly over the envs before any starts, so short episodes do not
    crowd out long ones.

    Args:
        env_manager: a launched env manager with ``env_num`` envs.
        policy: a :class:`lzero.policy.MuZeroPolicy`.
        two_player: search two-player where the env reports ``to_play`` -1 (see above).
    """

    def __init__(self, env_manager: Any, policy: Any, *, two_player: bool = False) -> None:
        self.env, self.policy, self.two_player = env_manager, policy, bool(two_player)

    def eval(self, n_episode: int, *, on_step=None) -> np.ndarray:
        """Resets the envs and plays ``n_episode`` episodes.

        Args:
            n_episode: number of episodes.
            on_step: optional callback ``on_step(env_id, timestep)`` (e.g. for recording).

        Returns:
            `[n_episode]` episode returns, in order of completion.
        """
        self.env.reset()
        ids_all = sorted(self.env.ready_obs)
        quota = {
            i: n_episode // len(ids_all) + (k < n_episode % len(ids_all))
            for k, i in enumerate(ids_all)
        }
        totals = dict.fromkeys(ids_all, 0.0)
        returns: list[float] = []
        while len(returns) < n_episode:
            obs = self.env.ready_obs
            ids = sorted(i for i in obs if quota[i] > 0)
            o, m, to_play = _stack(obs, ids, self.two_player)
            actions, _, _ = self.policy.search(o, m, rng=None, explore=False, to_play=to_play)
            timesteps = self.env.step({i: int(a) for i, a in zip(ids, actions)})
            for i in ids:
                ts = timesteps[i]
                if _abnormal(ts):
                    totals[i] = 0.0  # the episode is replayed from the restarted env
                    continue
                if on_step is not None:
                    on_step(i, ts)
                totals[i] += float(np.asarray(ts.reward).reshape(-1)[0])
                if ts.done:
                    returns.append(_episode_return(ts.info, totals[i]))
                    totals[i] = 0.0
                    quota[i] -= 1
        return np.array(returns)
