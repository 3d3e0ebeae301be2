"""PettingZoo's AEC and parallel APIs over our board games (``pip install -e ".[pettingzoo]"``).

``env(name, **config)`` is an ``AECEnv`` and ``parallel_env(name, **config)`` a
``ParallelEnv`` over the registered board game ``name`` (``'tictactoe'``, ``'connect4'``,
``'gomoku'``) in ``self_play_mode``; ``config`` is the board env's own config. As in
PettingZoo's ``connect_four_v3`` (it has no Gomoku): agents ``player_0`` (moves first) and
``player_1`` (``tictactoe_v3`` names them ``player_1`` and ``player_2``); each agent
observes ``{"observation": [H, W, 2] int8 (its stones, the opponent's), "action_mask": [A]
int8}``, the mask empty when it is not the agent's turn; the winner gets +1, the loser -1 and
a draw 0, at the move that ends the game. The parallel env is turn-based: every live agent
sends an action, and only the player to move's is played (the other's is ignored).

Illegal moves raise the board env's ``IllegalActionError`` (PettingZoo's classic games end
the game with a penalty instead), and so do actions that are not integers (``3.7``, ``'3'``,
``True``, ``None`` for an agent still playing); nothing is replaced. ``reset(seed=s)`` seeds
the episodes that follow as gymnasium's ``reset`` does: later ``reset()`` calls go on from it.
A step once the game is over, or ``last()`` once every agent has left, raises
``GameOverError``. The AEC env is not ``is_parallelizable`` (an agent's mask changes in the
middle of a cycle): PettingZoo's ``turn_based_aec_to_parallel`` converts it, and
``parallel_env`` is that conversion built in.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from lzero.envs.gymnasium_api import board_games, is_board_game, render_board
from lzero.envs.registry import ENV_REGISTRY
from lzero.errors import GameOverError

__all__ = ["env", "parallel_env"]

AGENTS = ("player_0", "player_1")
INDEX = {agent: i for i, agent in enumerate(AGENTS)}
OTHER = {AGENTS[0]: AGENTS[1], AGENTS[1]: AGENTS[0]}
RENDER_MODES = ("human", "rgb_array", "ansi")


class _Game:
    """One board env in ``self_play_mode`` and the per-agent view of it.

    Each agent's ``[H, W, 2]`` planes are kept up to date one stone at a time (the env's
    ``last_cell`` after each move), so observing is a copy, not a pass over the board.
    """

    def __init__(self, name: str, config: dict, render_mode: str | None) -> None:
        if name not in ENV_REGISTRY or not is_board_game(name):
            raise ValueError(
                f"expected a board game among {board_games()} (PettingZoo's envs are "
                f"for two players), got {name!r}"
            )
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"expected render_mode in {list(RENDER_MODES)} or None, got {render_mode!r}"
            )
        if "battle_mode" in config and config["battle_mode"] != "self_play_mode":
            raise ValueError(
                f"expected battle_mode 'self_play_mode' (both players are agents), got "
                f"{config['battle_mode']!r}"
            )
        self.env = ENV_REGISTRY.build(name, dict(config, battle_mode="self_play_mode"))
        self.name, self.render_mode = name, render_mode
        h, w = self.env.board.shape
        self.n_actions = int(self.env.action_space.n)
        # planes[i]: agent i's view, its stones in channel 0 and the opponent's in channel 1,
        # written one cell at a time through its flat `[H * W * 2]` view (made at each move,
        # so that a copied or unpickled env writes into its own planes).
        self._planes = np.zeros((2, h, w, 2), np.int8)
        rules = self.env.rules
        # A move adds one stone (placement and gravity games), or may turn others (Othello):
        # then the views are rewritten from the board after each move.
        self._one_stone = bool(rules.placement or rules.gravity)
        self._no_moves = np.zeros(self.n_actions, np.int8)
        self.reset(None)
        self.obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (h, w, 2), np.int8),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), np.int8),
            }
        )
        self.act_space = spaces.Discrete(self.n_actions)

    def reset(self, seed: int | None, options: dict | None = None) -> None:
        """Starts a game; ``options`` may hold the board env's ``start_player_index`` (0:
        ``player_0`` moves first, 1: ``player_1`` does). Other options are ignored with a
        warning: PettingZoo's envs take any (its ``api_test`` passes ``{'options': 1}``).

        Raises:
            ValueError: a bad index (nothing is reset then).
        """
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset: expected options to be a dict or None, got {options!r}")
        options = dict(options or {})
        unknown = sorted(k for k in options if k != "start_player_index")
        if unknown:
            warnings.warn(
                f"reset: options {unknown} ignored (the only one taken is 'start_player_index')",
                stacklevel=3,
            )
        start = options.get("start_player_index", 0)
        if type(start) is not int or start not in (0, 1):
            raise ValueError(f"reset: expected start_player_index 0 or 1, got {start!r}")
        if seed is not None:  # the env checks it: a non-negative int
            self.env.seed(seed, dynamic_seed=True)
        obs = self.env.reset(start_player_index=start)
        self._sync_planes()
        self._mask, self._done = obs["action_mask"], False
        self._mover = int(obs["current_player_index"])

    def _sync_planes(self) -> None:
        """Writes both agents' views from the whole board."""
        board = self.env.board
        for i in range(2):
            self._planes[i, ..., 0] = board == i + 1
            self._planes[i, ..., 1] = board == 2 - i

    def to_move(self) -> str:
        return AGENTS[self._mover]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        i = INDEX[agent]
        mask = self._mask if i == self._mover and not self._done else self._no_moves
        return {"observation": self._planes[i].copy(), "action_mask": mask.copy()}

    def play(self, action: Any) -> tuple[bool, dict[str, float]]:
        """Plays the mover's ``action``; returns ``(done, rewards)``."""
        mover = self._mover
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            action = int(action)  # a Python int takes the env's fast path
        timestep = self.env.step(action)  # anything else: the env refuses it or plays it
        if self._one_stone:
            cell2 = 2 * self.env.last_cell
            flat = self._planes.reshape(2, -1)
            flat[mover, cell2] = 1  # the mover's own stone
            flat[1 - mover, cell2 + 1] = 1  # the opponent's, in the other agent's view
        else:
            self._sync_planes()
        obs = timestep.obs
        self._mask, self._mover = obs["action_mask"], obs["current_player_index"]
        if not timestep.done:
            return False, {"player_0": 0.0, "player_1": 0.0}
        self._done = True
        r = float(timestep.reward[0])  # +1 the mover won, 0 a draw, -1 it lost (a count)
        return True, {AGENTS[mover]: r, AGENTS[1 - mover]: 0.0 - r}  # a draw: 0.0, not -0.0

    def render(self):
        if self.render_mode is None:
            warnings.warn(
                "render: called without a render_mode; make the env with render_mode= one of "
                f"{list(RENDER_MODES)}",
                UserWarning,
                stacklevel=3,
            )
            return None
        return render_board(self.env, self.render_mode)


class BoardGameAEC(AECEnv):
    """PettingZoo AEC env over one of our board games (see the module docstring)."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "lzero_board_v0",
        "is_parallelizable": False,  # as connect_four_v3: masks change within a cycle
    }

    def __init__(self, name: str, render_mode: str | None = None, **config: Any) -> None:
        super().__init__()
        self._game = _Game(name, config, render_mode)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"lzero_{name}_v0")
        self.possible_agents = list(AGENTS)
        self._reset_state()

    def _reset_state(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = self._game.to_move()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._game.obs_space  # one object for every agent and call, as PettingZoo asks

    def action_space(self, agent: str) -> spaces.Space:
        return self._game.act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._game.reset(seed, options)
        self._reset_state()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._game.observe(agent)

    def last(self, observe: bool = True):
        if not self.agents:
            raise GameOverError("last: the game is over and every agent has left; call reset()")
        return super().last(observe)

    def step(self, action: Any) -> None:
        if not self.agents:
            raise GameOverError("step: the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        done, self.rewards = self._game.play(action)
        if done:
            self.terminations = dict.fromkeys(AGENTS, True)
            # PettingZoo's _accumulate_rewards, after the mover's own reset to 0.
            self._cumulative_rewards[agent] = 0.0
            for a, r in self.rewards.items():
                self._cumulative_rewards[a] += r
        self.agent_selection = OTHER[agent]
        if self.render_mode == "human":
            self.render()

    def render(self):
        return self._game.render()

    def close(self) -> None:
        self._game.env.close()


class BoardGameParallel(ParallelEnv):
    """PettingZoo parallel env over one of our board games, turn-based (see the module
    docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "lzero_board_v0"}

    def __init__(self, name: str, render_mode: str | None = None, **config: Any) -> None:
        self._game = _Game(name, config, render_mode)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"lzero_{name}_v0")
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._game.obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._game.act_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._game.reset(seed, options)
        self.agents = list(AGENTS)
        return {a: self._game.observe(a) for a in AGENTS}, {a: {} for a in AGENTS}

    def step(self, actions: dict[str, Any]):
        if not self.agents:
            raise GameOverError("step: the game is over; call reset() first")
        mover = self._game.to_move()
        if mover not in actions:
            raise ValueError(f"expected an action for {mover!r} (to move), got {sorted(actions)}")
        done, rewards = self._game.play(actions[mover])
        live = list(self.agents)
        obs = {a: self._game.observe(a) for a in live}
        terminations = dict.fromkeys(live, done)
        truncations = dict.fromkeys(live, False)
        infos = {a: {} for a in live}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, {a: rewards[a] for a in live}, terminations, truncations, infos

    def render(self):
        return self._game.render()

    def close(self) -> None:
        self._game.env.close()


def env(name: str, render_mode: str | None = None, **config: Any) -> BoardGameAEC:
    """The AEC env of board game ``name`` (its config as keywords)."""
    return BoardGameAEC(name, render_mode=render_mode, **config)


def parallel_env(name: str, render_mode: str | None = None, **config: Any) -> BoardGameParallel:
    """The parallel (turn-based) env of board game ``name`` (its config as keywords)."""
    return BoardGameParallel(name, render_mode=render_mode, **config)
