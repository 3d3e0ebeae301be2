"""Our registered envs as ``gymnasium.Env``: ``gymnasium.make("lzero/Connect4-v0", **config)``.

Importing ``lzero`` registers the ids below with gymnasium (gymnasium 1.x dropped its plugin
entry points, so an import comes first; ``gymnasium.make("lzero:lzero/Connect4-v0")`` does the
import itself). ``config`` is the env's own config. Board games default to
``play_with_bot_mode``, one agent against the env's bot, as a single-agent env must be; their
observation is the env's dict (``observation``, ``action_mask``, ``board``,
``current_player_index``, ``to_play``) in a ``Dict`` space; a continuous task's
``action_mask`` (None) is left out.

``reset(seed=s)`` reseeds the env's episode stream with ``s`` (as the vectorised pool seeds its
env ``i`` with ``s + i``), so the same seed gives the same episodes, and ``reset()`` goes on
from it; a first ``reset()`` without a seed draws one from gymnasium's ``np_random``. ``step`` returns
``(obs, reward: float, terminated, truncated, info)``; a time limit's cut is a truncation.
"""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium
import numpy as np

from lzero.envs.registry import ENV_REGISTRY

__all__ = [
    "GYMNASIUM_IDS",
    "GymnasiumEnv",
    "board_games",
    "is_board_game",
    "gymnasium_ids",
    "register_gymnasium_envs",
    "render_board",
]

#: The gym tasks' registry names under their gymnasium ids. A board game's id comes from the
#: class its entry point declares (``othello = ...othello_env:OthelloEnv`` is
#: ``lzero/Othello-v0``), so no game is listed here.
GYMNASIUM_IDS = {
    "lzero/CartPoleLightZero-v0": "cartpole_lightzero",
    "lzero/PendulumLightZero-v0": "pendulum_lightzero",
    "lzero/MountainCarLightZero-v0": "mountain_car_lightzero",
    "lzero/AcrobotLightZero-v0": "acrobot_lightzero",
    "lzero/LunarLanderLightZero-v0": "lunarlander_lightzero",
    "lzero/BipedalWalkerLightZero-v0": "bipedalwalker_lightzero",
    # LightZero's own Box2D names (its lunarlander_env, bipedalwalker_env, ... modules).
    "lzero/LunarLander-v0": "lunarlander",
    "lzero/LunarLanderContDisc-v0": "lunarlander_cont_disc",
    "lzero/BipedalWalker-v0": "bipedalwalker",
    "lzero/BipedalWalkerContDisc-v0": "bipedalwalker_cont_disc",
}
BOARD_RENDER_MODES = ["human", "rgb_array", "ansi"]


def is_board_game(name: str) -> bool:
    """True if the registered env ``name`` is a two-player board game: its class carries the
    game's rules record (``rules``), as every board env of the zoo does."""
    cls = ENV_REGISTRY.get(name)
    return isinstance(cls, type) and getattr(cls, "rules", None) is not None


def board_games() -> list[str]:
    """The registered board games' names, sorted (their modules are imported to tell)."""
    return [name for name in ENV_REGISTRY.names() if _importable_board_game(name)]


def _importable_board_game(name: str) -> bool:
    try:
        return is_board_game(name)
    except ImportError:  # an env whose optional package is missing is no board game here
        return False


class GymnasiumEnv(gymnasium.Env):
    """A ``gymnasium.Env`` over the registered env ``name`` (see the module docstring).

    Args:
        name: the env's registry name (``'connect4'``, ``'cartpole_lightzero'``, ...).
        render_mode: None, or for board games ``'human'`` (a pygame window after every step;
            without a display, a one-time warning), ``'rgb_array'`` (the frame) or ``'ansi'``
            (the text).
        **config: the env's config.

    Raises:
        ValueError: a render mode the env does not have.
    """

    metadata: dict[str, Any] = {"render_modes": BOARD_RENDER_MODES, "render_fps": 4}

    def __init__(self, name: str, render_mode: str | None = None, **config: Any) -> None:
        board = is_board_game(name)
        modes = BOARD_RENDER_MODES if board else []
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"expected render_mode in {modes} or None, got {render_mode!r}")
        if board:
            config.setdefault("battle_mode", "play_with_bot_mode")
        self.env = ENV_REGISTRY.build(name, config)
        self.metadata = {"render_modes": list(modes), "render_fps": 4}
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space
        self.action_space = self.env.action_space
        self._seeded = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Resets the env; ``options`` are the keywords of its own ``reset`` (a board game's
        ``start_player_index`` and ``init_state``; a gym task takes none).

        Raises:
            ValueError: an option the env's ``reset`` does not take (nothing is reset then).
        """
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset: expected options to be a dict or None, got {options!r}")
        options = dict(options or {})
        if options:  # the signature is read only when there is something to check
            allowed = [
                name for name, p in inspect.signature(self.env.reset).parameters.items()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                and name != "replay_name_suffix" and not name.startswith("katago_")
            ]  # fmt: skip
            unknown = sorted(k for k in options if k not in allowed)
            if unknown:
                raise ValueError(
                    f"reset: expected options among {allowed} (the keywords of the env's own "
                    f"reset), got {unknown}"
                )
        # A reset its env refuses (a bad start_player_index, init_state) leaves the seeds as
        # they were: the env is seeded first, so its state and ours are put back.
        saved = (dict(self.env.__dict__), dict(self.__dict__)) if options else None
        try:
            return self._reset(seed, options)
        except Exception:
            if saved is not None:
                self.env.__dict__.update(saved[0])
                self.__dict__.update(saved[1])
            raise

    def _reset(self, seed: int | None, options: dict):
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            # The seed itself, as the pool seeds env i with s + i: make(id).reset(seed=s + i)
            # is env i of make_vec(id).reset(seed=s), as in gymnasium's vector envs.
            stream = int(seed) if seed is not None else int(self.np_random.integers(2**31 - 1))
            self.env.seed(stream, dynamic_seed=True)
            self._seeded = True
        obs = _present(self.env.reset(**options))
        if self.render_mode == "human":
            self.render()  # gymnasium's human mode shows every step by itself
        return obs, {}

    def step(self, action: Any):
        timestep = self.env.step(action)
        info = dict(timestep.info)
        truncated = bool(info.get("TimeLimit.truncated", info.get("truncated", False)))
        reward = float(np.asarray(timestep.reward).reshape(-1)[0])
        obs = _present(timestep.obs)
        if self.render_mode == "human":
            self.render()
        return obs, reward, bool(timestep.done) and not truncated, truncated, info

    def render(self):
        return render_board(self.env, self.render_mode)

    def close(self) -> None:
        self.env.close()


def render_board(env: Any, mode: str | None):
    """A board env's rendering in a gymnasium ``render_mode``: None, the frame
    (``'rgb_array'``), the text (``'ansi'``), or None after showing the window (``'human'``;
    without a display, a one-time warning)."""
    return None if mode is None else env.render(mode)


def _present(obs: dict) -> dict:
    # A continuous task's LightZero dict carries action_mask=None, which its Dict space leaves
    # out; gymnasium wants the observation inside the space.
    return {k: v for k, v in obs.items() if v is not None}


def gymnasium_ids() -> dict[str, str]:
    """Every registered env's gymnasium id: those of :data:`GYMNASIUM_IDS`, then
    ``lzero/<Class>-v0`` for an env whose entry point names its class ``<Class>Env``, and
    ``lzero/<name>-v0`` for any other registry name."""
    ids = dict(GYMNASIUM_IDS)
    named = set(ids.values())
    for name in ENV_REGISTRY.names():
        if name in named:
            continue
        cls = ENV_REGISTRY.declared_class_name(name) or ""
        stem = cls[: -len("Env")] if cls.endswith("Env") and len(cls) > 3 else name
        ids[f"lzero/{stem}-v0"] = name
    return ids


def register_gymnasium_envs() -> None:
    """Registers :func:`gymnasium_ids` with gymnasium (again is a no-op)."""
    for env_id, name in gymnasium_ids().items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="lzero.envs.gymnasium_api:GymnasiumEnv",
                vector_entry_point="lzero.envs.gymnasium_vector:PoolVectorEnv",
                kwargs={"name": name},
                disable_env_checker=True,  # check_env runs in our tests instead, on every id
            )
