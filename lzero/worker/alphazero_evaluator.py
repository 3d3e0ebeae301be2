"""Games of an agent against the env's bots, both colours, all games of a bot at once.

The agent's moves of every unfinished game are searched in one batched search; the bot's
come from the env (``env.bot_action()``: rule, MCTS or perfect bots, as the env offers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lzero.envs.config import check_opening_moves, check_positive_int
from lzero.envs.registry import create_env
from lzero.errors import ConfigError

#: ``(boards [B, H, W] int8, to_play [B], legal [B, A] bool) -> actions [B]``.
ActFn = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def default_bots(env: Any) -> list[str]:
    """The bots evaluated by default, strongest last: rule, mcts and, where the game has it,
    alpha_beta (TicTacToe); not random, and not the solver bot ``perfect`` (Connect4,
    TicTacToe)."""
    return [b for b in ("rule", "mcts", "alpha_beta") if b in env.bot_types]


def eval_bots(env: Any, bots: Sequence[str] | None, name: str) -> list[str]:
    """``bots`` (None or empty: :func:`default_bots`) after checking each is one of ``env``'s.

    Raises:
        ConfigError: a bot ``env``'s game has not; the message names the setting ``name`` and
            the game's bots.
    """
    unknown = [b for b in bots or () if b not in env.bot_types]
    if unknown:
        raise ConfigError(
            f"{name}: expected bots of {env.rules.name} among {list(env.bot_types)}, got {unknown}"
        )
    return list(bots or default_bots(env))


def check_mcts_bot_simulations(
    simulations: int | None,
    bots: Sequence[str] | None,
    name: str = "mcts_bot_simulations (lzero eval --mcts-simulations)",
) -> None:
    """Refuses the MCTS bot's simulations when they are not a positive int, or when no bot of
    ``bots`` (checked names; None: not known yet) is ``mcts`` (they would be ignored). The one
    check of ``lzero eval``, ``lzero play`` and ``lzero arena``; ``name`` names the setting.

    Raises:
        ConfigError: naming ``name``.
    """
    if simulations is None:
        return
    check_positive_int(simulations, name)
    if bots is not None and "mcts" not in bots:
        raise ConfigError(
            f"{name}: expected an mcts bot among the bots (the option sets its strength), got "
            f"{', '.join(bots)}"
        )


def play_opening(env: Any, moves: int, rng: np.random.Generator) -> list[int]:
    """Plays ``moves`` uniformly random legal moves on ``env`` (both players, from its reset
    position) and returns them. An opening that ends the game is drawn again (``env`` reset,
    ``rng`` drawing on), so the openings are uniform among those that leave it unfinished.

    Raises:
        ConfigError: ``moves`` fills the board or more (no opening leaves the game open), or
            1,000 draws in a row ended the game.
    """
    check_opening_moves(moves, int(np.asarray(env.board).size))
    for _ in range(_OPENING_DRAWS):
        played = []
        for _ in range(moves):
            action = int(rng.choice(env.legal_actions))
            played.append(action)
            if env.step(action).done:
                env.reset()
                break
        else:
            return played
    raise ConfigError(
        f"opening_moves: {_OPENING_DRAWS} random openings of {moves} moves in a row ended the "
        "game; ask for fewer"
    )


#: Random openings drawn before :func:`play_opening` gives up.
_OPENING_DRAWS = 1000


def play_against_bot(
    act: ActFn,
    create_cfg: Mapping,
    env_cfg: Mapping,
    bot: str,
    num_games: int,
    seed: int,
    opening_moves: int = 0,
) -> dict[str, float]:
    """Plays ``num_games`` games of ``act`` against ``bot``, the agent first in even games.

    With ``opening_moves``, games ``2k`` and ``2k + 1`` start from the same random opening of
    that many moves, once with each colour: deterministic players then meet varied positions,
    and an opening that favours one side counts for both.

    Returns:
        ``win``, ``draw``, ``loss`` (fractions of the games, the agent's view) and ``score``
        (``win - loss``).

    Raises:
        ConfigError: the env does not have ``bot``.
    """
    outcome = play_games(act, create_cfg, env_cfg, bot, num_games, seed, opening_moves)
    return summarize(outcome)


def summarize(outcome: np.ndarray) -> dict[str, float]:
    """``win``, ``draw``, ``loss`` fractions and ``score`` of game results `[G]` (+1, 0, -1)."""
    win, loss = float((outcome > 0).mean()), float((outcome < 0).mean())
    draw = float((outcome == 0).mean())
    return {"win": win, "draw": draw, "loss": loss, "score": win - loss}


def lightzero_eval_bot(create_cfg: Mapping, env_cfg: Mapping) -> tuple[str, float]:
    """``(bot, random share)`` of a config's env, as LightZero's eval_mode env plays them (its
    eval calls): the ``bot_action_type`` the env resolves (LightZero's names taken) and its
    ``prob_random_action_in_bot``."""
    env = create_env(create_cfg, dict(env_cfg))
    try:
        return env.bot_action_type, float(dict(env_cfg).get("prob_random_action_in_bot", 0.0))
    finally:
        env.close()


def bot_env_config(env_cfg: Mapping, bot: str, battle_mode: str) -> dict:
    """``env_cfg`` for games against ``bot`` in ``battle_mode``: the bot as it is (a training
    config may make it err on purpose, a curriculum: ``prob_random_action_in_bot`` is 0 here)
    and no human player."""
    cfg = dict(env_cfg, battle_mode=battle_mode, bot_action_type=bot)
    cfg["prob_random_action_in_bot"] = 0.0
    cfg.pop("agent_vs_human", None)
    return cfg


def play_games(
    act: ActFn,
    create_cfg: Mapping,
    env_cfg: Mapping,
    bot: str,
    num_games: int,
    seed: int,
    opening_moves: int = 0,
    *,
    agent_first_only: bool = False,
    replay: Mapping | None = None,
    bot_random: float = 0.0,
) -> np.ndarray:
    """The games of :func:`play_against_bot`: `[num_games]` results for the agent (+1 win,
    0 draw, -1 loss). With ``agent_first_only`` the agent is player 1 in every game (an agent
    trained against the bot as player 1, as LightZero evaluates it). The bot never plays
    ``prob_random_action_in_bot`` random moves here, whatever ``env_cfg`` says, but for
    ``bot_random`` (LightZero's eval calls, which play the config's bot as it is). ``replay``:
    env settings that save every game as a GIF (``render_mode``, ``replay_path``;
    ``lzero.entry.config.check_board_eval_env``), the caption naming who played which
    colour; None: nothing is rendered."""
    cfg = bot_env_config(env_cfg, bot, "self_play_mode")
    cfg["prob_random_action_in_bot"] = float(bot_random)
    cfg.update(replay or {"render_mode": None})
    agent = np.array([1 if i % 2 == 0 or agent_first_only else 2 for i in range(num_games)])
    envs = []
    for i in range(num_games):
        env = create_env(create_cfg, cfg)
        env.seed(seed + i, dynamic_seed=False)
        if replay:
            env.replay_players = ("agent", bot) if agent[i] == 1 else (bot, "agent")
        env.reset()
        pair = i if agent_first_only else i // 2
        play_opening(env, opening_moves, np.random.default_rng([seed, pair]))
        envs.append(env)
    outcome = np.zeros(num_games)
    done = np.zeros(num_games, bool)
    while not done.all():
        mine = [i for i in np.flatnonzero(~done) if envs[i].current_player == agent[i]]
        actions = {}
        if mine:
            boards = np.stack([envs[i].board for i in mine])
            legal = np.zeros((len(mine), envs[0].action_space.n), bool)
            for row, i in enumerate(mine):
                legal[row, envs[i].legal_actions] = True
            chosen = act(boards, agent[mine], legal)
            actions = {i: int(a) for i, a in zip(mine, chosen)}
        for i in np.flatnonzero(~done):
            env = envs[i]
            mover = env.current_player
            action = actions[i] if i in actions else env.bot_action()
            timestep = env.step(action)
            if timestep.done:
                done[i] = True
                # The mover's reward: +1 it won, 0 a draw, -1 it lost (Othello's count).
                r = float(timestep.reward[0])
                outcome[i] = r if mover == agent[i] else -r
    for env in envs:
        env.close()
    return outcome


def evaluate_against_bots(
    act: ActFn,
    create_cfg: Mapping,
    env_cfg: Mapping,
    bots: Sequence[str],
    num_games: int,
    seed: int,
    opening_moves: int = 0,
) -> dict[str, dict[str, float]]:
    """:func:`play_against_bot` for each of ``bots``: ``{bot: {win, draw, loss, score}}``."""
    return {
        bot: play_against_bot(act, create_cfg, env_cfg, bot, num_games, seed, opening_moves)
        for bot in bots
    }


def record_game_gif(
    act: ActFn, create_cfg: Mapping, env_cfg: Mapping, bot: str, seed: int, replay_dir: str | Path
) -> Path:
    """Plays one game of the agent ``act`` (first, as player 1) against ``bot`` in an env that
    saves its replay in ``replay_dir`` (the GIF's caption names both players); returns the
    GIF's path. The bot plays as in :func:`play_games`, without random moves.

    Raises:
        ConfigError: the GIF was not written (the env's error says why).
    """
    env = create_env(create_cfg, bot_env_config(env_cfg, bot, "play_with_bot_mode"))
    Path(replay_dir).mkdir(parents=True, exist_ok=True)
    env.seed(seed, dynamic_seed=False)
    env.enable_save_replay(str(replay_dir))
    env.replay_players = ("agent", bot)  # X's, then O's
    try:
        obs, done = env.reset(), False
        while not done:
            board = np.asarray(obs["board"])[None]
            legal = np.asarray(obs["action_mask"]).astype(bool)[None]
            timestep = env.step(int(act(board, np.array([1]), legal)[0]))
            obs, done = timestep.obs, timestep.done
    finally:
        env.close()
    if env.last_replay_file is None:
        raise ConfigError(f"expected a GIF in {replay_dir}, got none ({env.last_replay_error})")
    return Path(env.last_replay_file)
