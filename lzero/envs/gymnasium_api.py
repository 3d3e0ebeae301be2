"""Our registered envs as ``gymnasium.Env``: ``gymnasium.make("lzero/Connect4-v0", **config)``.

Importing ``lzero`` registers the ids below with gymnasium (gymnasium 1.x dropped its plugin
entry points, so an import comes first; ``gymnasium.make("lzero:lzero/Connect4-v0")`` does the
import itself). ``config`` is the env's own config. Board games default to
``play_with_bot_mode``, one agent against the env's bot, as a single-agent env must be; their
observation is the env's dict (``observation``, ``action_mask``, ``board``,
``current_player_index``, ``to_play``) in a ``Dict`` space; a continuous task's
``action_mask`` (None) is left out.

``reset(seed=...)`` reseeds the env's episode stream from gymnasium's ``np_random``, so the
same seed gives the same episodes, and ``reset()`` goes on from it. ``step`` returns
``(obs, reward: float, terminated, truncated, info)``; a time limit's cut is a truncation.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from lzero.envs.registry import ENV_REGISTRY

__all__ = ["GYMNASIUM_IDS", "GymnasiumEnv", "register_gymnasium_envs", "render_board"]

#: Our registry's names under their gymnasium ids.
GYMNASIUM_IDS = {
    "lzero/TicTacToe-v0": "tictactoe",
    "lzero/Connect4-v0": "connect4",
    "lzero/Gomoku-v0": "gomoku",
    "lzero/CartPoleLightZero-v0": "cartpole_lightzero",
    "lzero/PendulumLightZero-v0": "pendulum_lightzero",
    "lzero/MountainCarLightZero-v0": "mountain_car_lightzero",
    "lzero/AcrobotLightZero-v0": "acrobot_lightzero",
    "lzero/LunarLanderLightZero-v0": "lunarlander_lightzero",
    "lzero/BipedalWalkerLightZero-v0": "bipedalwalker_lightzero",
}
BOARD_GAMES = ("tictactoe", "connect4", "gomoku")
BOARD_RENDER_MODES = ["human", "rgb_array", "ansi"]


class GymnasiumEnv(gymnasium.Env):
    """A ``gymnasium.Env`` over the registered env ``name`` (see the module docstring).

    Args:
        name: the env's registry name (``'connect4'``, ``'cartpole_lightzero'``, ...).
        render_mode: None, or for board games ``'human'`` (prints the board), ``'rgb_array'``
            (the frame) or ``'ansi'`` (the text).
        **config: the env's config.

    Raises:
        ValueError: a render mode the env does not have.
    """

    metadata: dict[str, Any] = {"render_modes": BOARD_RENDER_MODES, "render_fps": 4}

    def __init__(self, name: str, render_mode: str | None = None, **config: Any) -> None:
        board = name in BOARD_GAMES
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
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            self.env.seed(int(self.np_random.integers(2**31 - 1)), dynamic_seed=True)
            self._seeded = True
        return _present(self.env.reset()), {}

    def step(self, action: Any):
        timestep = self.env.step(action)
        info = dict(timestep.info)
        truncated = bool(info.get("TimeLimit.truncated", info.get("truncated", False)))
        reward = float(np.asarray(timestep.reward).reshape(-1)[0])
        obs = _present(timestep.obs)
        return obs, reward, bool(timestep.done) and not truncated, truncated, info

    def render(self):
        return render_board(self.env, self.render_mode)

    def close(self) -> None:
        self.env.close()


def render_board(env: Any, mode: str | None):
    """A board env's rendering in a gymnasium ``render_mode``: None, the frame
    (``'rgb_array'``), the text (``'ansi'``), or the text printed (``'human'``)."""
    if mode is None:
        return None
    if mode == "human":
        print(env.render("ansi"), flush=True)
        return None
    return env.render(mode)


def _present(obs: dict) -> dict:
    # A continuous task's LightZero dict carries action_mask=None, which its Dict space leaves
    # out; gymnasium wants the observation inside the space.
    return {k: v for k, v in obs.items() if v is not None}


def register_gymnasium_envs() -> None:
    """Registers :data:`GYMNASIUM_IDS` with gymnasium (again is a no-op)."""
    for env_id, name in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="lzero.envs.gymnasium_api:GymnasiumEnv",
                vector_entry_point="lzero.envs.gymnasium_vector:PoolVectorEnv",
                kwargs={"name": name},
                disable_env_checker=True,  # check_env runs in our tests instead, on every id
            )
