"""AlphaZero self-play: ``N`` games at once on the numba board pool, one batched search a move.

In ``self_play_mode`` every move of a game is searched and stored, and a position's outcome is
the game's result for the player who moved there. In ``play_with_bot_mode`` the pool plays the
bot's replies (the agent is player 1) and the agent's positions are stored with the game's
result for the agent. Games run on across collect phases, as LightZero's collector's do.

With the policy's ``bot_opponent_share`` (ours, self-play only), that share of the games has
the env's rule bot play one side, drawn per game: the search's move is replaced by the bot's
on the bot's turns, and only the agent's positions are stored, with the game's result for
the agent. Self-play never shows the agent that bot; the aim was to teach it to beat a bot
that attacks (9x9 Gomoku draws most games the rule bot opens), which 25-minute runs did not
show (README).

With the policy's ``collect_opening_moves`` k (ours), each game opens with 0 to k uniformly
random legal moves (how many is drawn per game, uniformly, so that games from the empty board
stay), neither searched nor stored; a game that such an opening ends is not counted and starts
again (the evaluation's openings are drawn again likewise).

With the policy's ``fast_search_prob`` p (ours; playout cap randomisation, Wu 2019), each step
is, with probability p and for all games at once, a fast search (``fast_search_simulations``,
no root noise) whose positions are not stored; the other steps search fully, with noise, and
are stored. A game's moves still count as env steps either way.

With a Gumbel policy (type ``gumbel_alphazero``) each move is its search's Sequential Halving
winner under the search's Gumbel noise (no temperature), and the policy target is the
improved policy (Danihelka et al. 2022).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from lzero.envs.pool import make
from lzero.envs.registry import ENV_REGISTRY
from lzero.mcts.batched_search import (
    completed_q_policy,
    prune_forced_playouts,
    sample_actions,
    visit_policy,
)
from lzero.utils.nbrng import make_rng_state


class AlphaZeroCollector:
    """Plays self-play games with the policy's search on ``num_envs`` pool envs.

    Args:
        policy: the ``AlphaZeroPolicy``.
        env_type: the board env's registry name.
        env_cfg: the env's config (``battle_mode`` 'self_play_mode' or 'play_with_bot_mode').
        num_envs: games played at once.
        seed: env ``i`` is seeded ``seed + i``; the move sampler is seeded ``seed``, the
            bot games' draws and the rule bot's tie-breaks ``seed + 1``.
    """

    def __init__(self, policy, env_type: str, env_cfg: Mapping, num_envs: int, seed: int) -> None:
        cfg = dict(env_cfg)
        self.self_play = cfg.get("battle_mode", "self_play_mode") == "self_play_mode"
        if self.self_play:  # the pool's bot never moves in self-play: any bot setting is moot
            cfg["bot_action_type"] = "rule"
        self.policy, self.n = policy, num_envs
        self.pool = make(env_type, num_envs=num_envs, seed=seed, **cfg)
        self.rng = np.random.default_rng(seed)
        self.obs = self.pool.reset()
        self.moves = np.zeros(num_envs, np.int64)
        self.games: list[list] = [[] for _ in range(num_envs)]  # (planes, pi, player) per move
        share = float(policy.cfg.bot_opponent_share) if self.self_play else 0.0
        self.bot_share = share
        self.bot_player = np.zeros(num_envs, np.int64)  # 1 or 2: the bot plays it; 0: none
        self.opening_moves = int(policy.cfg.collect_opening_moves)
        self.opening = np.zeros(num_envs, np.int64)  # each game's random opening moves
        if self.opening_moves:
            self.opening_rng = np.random.default_rng(seed + 2)
            self._draw_openings(np.arange(num_envs))
        self.fast_prob = float(policy.cfg.fast_search_prob)
        if self.fast_prob > 0:  # drawn from its own stream: other draws stay as without it
            self.fast_rng = np.random.default_rng(seed + 3)
        if share > 0:  # nothing drawn without bot games: pure self-play runs stay as they were
            self.rule_bot = ENV_REGISTRY.get(env_type).rule_bot
            self.bot_rng = np.random.default_rng(seed + 1)
            self.bot_state = make_rng_state(seed + 1)
            self._draw_bot_players(np.arange(num_envs))

    def _draw_bot_players(self, ids: np.ndarray) -> None:
        """Draws, for the games starting in envs ``ids``, whether the bot plays and which side."""
        if self.bot_share == 0:
            return
        vs_bot = self.bot_rng.random(len(ids)) < self.bot_share
        side = self.bot_rng.integers(1, 3, len(ids))
        self.bot_player[ids] = np.where(vs_bot, side, 0)

    def _draw_openings(self, ids: np.ndarray) -> None:
        """Draws how many random moves open the games starting in envs ``ids``."""
        if self.opening_moves:
            self.opening[ids] = self.opening_rng.integers(0, self.opening_moves + 1, len(ids))

    def collect(self, n_episode: int) -> dict:
        """Plays until ``n_episode`` games have finished.

        Returns:
            ``planes`` `[n, 3, H, W]`, ``policy`` `[n, A]`, ``value`` `[n]` of the finished
            games' positions (the game's outcome for the mover, discounted by the policy's
            ``discount_factor`` per ply before the game's last move and mixed with the
            search's root value by its ``root_value_target_weight``), ``draw`` `[n]` (1.0 where
            the position's game ended drawn, else 0.0); ``env_steps`` (pool steps
            taken), ``episodes``, and the finished games' ``returns`` (player 1's view).
        """
        game, policy = self.policy.game, self.policy
        out_planes, out_pi, out_z, out_draw, returns = [], [], [], [], []
        w = float(policy.cfg.root_value_target_weight)  # the searched root value's share
        gamma = float(policy.cfg.discount_factor)
        completed_q = policy.cfg.policy_target == "completed_q"
        search = policy.search
        target = {"c_visit": search.maxvisit_init, "c_scale": search.value_scale}
        fpu = policy.cfg.collect_fpu_reduction
        forced = float(policy.cfg.collect_forced_playouts)
        reuse = bool(policy.cfg.collect_reuse_tree)
        steps = 0
        while len(returns) < n_episode:
            boards = self.obs["board"]
            # 'to_play' is -1 outside self-play (LightZero's convention): the index is not.
            to_play = self.obs["current_player_index"].astype(np.int64) + 1
            bot_turn = self.bot_player == to_play  # the bot's moves: not searched or stored
            opening = self.moves < self.opening  # random moves: not searched or stored
            skip = bot_turn | opening
            active = ~skip if self.bot_share > 0 or self.opening_moves else None
            fast = self.fast_prob > 0 and self.fast_rng.random() < self.fast_prob
            with policy.pinned():
                result = policy.search.search(
                    boards, to_play, policy.evaluate, add_noise=not fast, active=active,
                    num_simulations=policy.cfg.fast_search_simulations if fast else None,
                    fpu_reduction=fpu, root_fpu_reduction=None if fpu is None else 0.0,
                    forced_playouts=0.0 if fast else forced, reuse_tree=reuse,
                )  # fmt: skip
            visits = result.visits  # what the move and a visit-count target follow
            if forced > 0 and not fast:
                visits = prune_forced_playouts(result, forced, policy.search.c1, policy.search.c2)
            temperature = np.full(self.n, policy.temperature())
            limit = policy.cfg.num_sampling_moves
            if limit is not None:
                temperature[self.moves >= limit] = 0.0
            greedy = visits.argmax(axis=1)
            t = float(temperature.max())  # every game past num_sampling_moves: no draw at all
            if policy.gumbel:  # the halving winner: the Gumbel noise is its exploration
                actions = result.action.copy()
            elif t > 0:
                actions = np.where(temperature > 0, sample_actions(visits, t, self.rng), greedy)
            else:
                actions = greedy
            stored = np.flatnonzero(~skip) if not fast else ()  # a fast step stores nothing
            if len(stored):
                pi = (
                    completed_q_policy(result, **target)
                    if completed_q
                    else visit_policy(visits, 1.0)
                )
                pi = pi.astype(np.float32)
                planes = game.planes(boards, to_play)
            for i in np.flatnonzero(bot_turn):  # copies: the bot gets no view of the pool
                actions[i] = self.rule_bot(boards[i].copy(), int(to_play[i]), self.bot_state)
            for i in np.flatnonzero(opening):
                legal = np.flatnonzero(self.obs["action_mask"][i])
                actions[i] = legal[self.opening_rng.integers(legal.size)]
            for i in stored:
                self.games[i].append(
                    (planes[i], pi[i], int(to_play[i]), float(result.value[i]), int(self.moves[i]))
                )
            self.obs, reward, done, _ = self.pool.step(actions)
            self.moves += 1
            steps += self.n
            for i in np.flatnonzero(done):
                moves = self.games[i]
                if self.moves[i] <= self.opening[i]:  # ended by its random opening
                    self.moves[i] = 0
                    continue
                r = float(reward[i])
                if self.self_play:  # reward: +1 for the mover of the last move if it won
                    last = int(to_play[i])  # the last move's player (stored or the bot's)
                    z = [r if m[2] == last else -r for m in moves]
                    returns.append(r if last == 1 else -r)
                else:  # reward: the agent's (player 1's) result
                    z = [r] * len(moves)
                    returns.append(r)
                if gamma != 1.0:  # m[4]: the pool step of the position, the last is moves[i] - 1
                    steps_left = [self.moves[i] - 1 - m[4] for m in moves]
                    # a self-play step is one ply; against the bot, the agent's move and the
                    # bot's answer, and a lost game ended on the bot's move
                    plies = steps_left if self.self_play else [2 * k + (r < 0) for k in steps_left]
                    z = [zi * gamma**k for zi, k in zip(z, plies)]
                out_planes.extend(m[0] for m in moves)
                out_pi.extend(m[1] for m in moves)
                out_z.extend((1.0 - w) * zi + w * m[3] for zi, m in zip(z, moves))
                out_draw.extend([float(r == 0)] * len(moves))
                self.games[i], self.moves[i] = [], 0
            if done.any():  # envpool semantics: the next step would reset them; do it now
                ids = np.flatnonzero(done)
                self._draw_bot_players(ids)
                self._draw_openings(ids)
                fresh = self.pool.reset(ids)
                self.obs = {k: v.copy() for k, v in self.obs.items()}
                for k in self.obs:
                    self.obs[k][ids] = fresh[k]
        m = policy.cfg.model
        return {  # no position stored (fast searches only): empty arrays of the same shapes
            "planes": np.stack(out_planes)
            if out_planes
            else np.zeros((0, *m.observation_shape), np.float32),
            "policy": np.stack(out_pi)
            if out_pi
            else np.zeros((0, m.action_space_size), np.float32),
            "value": np.asarray(out_z, np.float32),
            "draw": np.asarray(out_draw, np.float32),
            "env_steps": steps,
            "episodes": len(returns),
            "returns": returns,
        }

    #: The generators a collector may own (the last three only with their settings on).
    _GENERATORS = ("rng", "opening_rng", "fast_rng", "bot_rng")

    def state_dict(self) -> dict:
        """The games in flight (positions, moves so far, stored positions, bot sides and
        openings), the pool's envs and every random stream of the collector, between two
        :meth:`collect` calls; for a training run's checkpoint (NumPy arrays and plain
        values)."""
        state = {
            "pool": self.pool.state_dict(),
            "obs": {k: v.copy() for k, v in self.obs.items()},
            "moves": self.moves.copy(),
            "games": [list(game) for game in self.games],
            "bot_player": self.bot_player.copy(),
            "opening": self.opening.copy(),
            "generators": {
                name: getattr(self, name).bit_generator.state
                for name in self._GENERATORS
                if hasattr(self, name)
            },
        }
        if hasattr(self, "bot_state"):
            state["bot_state"] = self.bot_state.copy()
        return state

    def load_state_dict(self, state: dict) -> None:
        """Puts back what :meth:`state_dict` returned, from a collector of the same settings.

        Raises:
            ValueError: the state is of a collector with another number of envs or other
                random streams (another ``collect_opening_moves``, ``fast_search_prob`` or
                ``bot_opponent_share`` being on or off).
        """
        ours = {name for name in self._GENERATORS if hasattr(self, name)}
        if len(state["moves"]) != self.n or set(state["generators"]) != ours:
            raise ValueError(
                f"expected the state of a collector of {self.n} envs with the streams "
                f"{sorted(ours)}, got one of {len(state['moves'])} envs with "
                f"{sorted(state['generators'])}"
            )
        self.pool.load_state_dict(state["pool"])
        self.obs = {k: v.copy() for k, v in state["obs"].items()}
        self.moves[:], self.bot_player[:], self.opening[:] = (
            state["moves"],
            state["bot_player"],
            state["opening"],
        )
        self.games = [[tuple(move) for move in game] for game in state["games"]]
        for name, rng_state in state["generators"].items():
            getattr(self, name).bit_generator.state = rng_state
        if "bot_state" in state:
            self.bot_state[:] = state["bot_state"]

    def close(self) -> None:
        self.pool.close()


def make_alphazero_collector(policy, cfg: Mapping, seed: int):
    """The collector the compiled AlphaZero config asks for: Ray self-play actors when the
    manager type is 'ray' (:mod:`lzero.worker.ray_alphazero_collector`), else in-process."""
    from lzero.envs.env_manager import manager_type

    if manager_type(cfg.trainer.manager, cfg.create.env_manager, "main_config.env") == "ray":
        from lzero.worker.ray_alphazero_collector import RayAlphaZeroCollector

        return RayAlphaZeroCollector(policy, cfg, seed, collector_cls=AlphaZeroCollector)
    trainer = cfg.trainer
    return AlphaZeroCollector(policy, cfg.create.env.type, cfg.env, trainer.collector_env_num, seed)
