"""``eval_muzero_with_gym_env``: load a MuZero checkpoint, play greedy episodes (on a board
game: games against the env's bots, win/draw/loss per bot), record a GIF."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from easydict import EasyDict

from lzero.entry import muzero_setup
from lzero.entry.config import check_board_eval_env, compile_config, episode_replay_dir
from lzero.errors import ConfigError
from lzero.policy import MuZeroPolicy
from lzero.utils.replay_io import check_replay_dir
from lzero.worker import MuZeroEvaluator
from lzero.worker.alphazero_evaluator import (
    check_mcts_bot_simulations,
    lightzero_eval_bot,
    record_game_gif,
)
from lzero.worker.muzero_board_evaluator import MuZeroBoardEvaluator


def eval_muzero_with_gym_env(
    input_cfg: Sequence[Mapping],
    seed: int = 0,
    model_path: str | None = None,
    num_episodes: int = 1,
    *,
    save_replay_gif: bool = False,
    replay_path: str | None = None,
    num_simulations: int | None = None,
    opening_moves: int = 0,
    mcts_bot_simulations: int | None = None,
) -> tuple[float, list[float]]:
    """Plays ``num_episodes`` greedy episodes with a checkpoint's model.

    Args:
        input_cfg: ``[main_config, create_config]`` as for training.
        seed: seed of the evaluation envs.
        model_path: checkpoint from ``train_muzero_with_gym_env`` (``ckpt_best.pth.tar``);
            None: the config's ``policy.model_path`` (LightZero's key), and if that is None
            too, an untrained model.
        num_episodes: episodes to play.
        save_replay_gif: also record one extra episode as a GIF.
        replay_path: directory of the GIF (default ``<exp_name>/replay/``).
        num_simulations: search simulations per move (default: the config's); 0 on a board
            game plays the raw network (the most probable legal move, no search).
        opening_moves: on a board game, random moves opening each game, the same for both
            colours of a pair (as AlphaZero's ``eval_alphazero``); 0 on a gym task.
        mcts_bot_simulations: on a board game, the MCTS bot's rollouts a move (ours; default:
            the config's ``env.mcts_bot_num_simulations``); needs ``mcts`` among the bots.

    Returns:
        The mean return and the list of returns (on a board game, the results against the
        first of ``policy.eval_bots``: +1 win, 0 draw, -1 loss).

    Raises:
        ConfigError: bad config, ``num_episodes < 1``, a missing checkpoint, or
            ``opening_moves`` negative or given for a gym task.
    """
    if not isinstance(num_episodes, int) or num_episodes < 1:
        raise ConfigError(f"expected num_episodes to be a positive int, got {num_episodes!r}")
    if isinstance(opening_moves, bool) or not isinstance(opening_moves, int) or opening_moves < 0:
        raise ConfigError(f"expected opening_moves to be an int >= 0, got {opening_moves!r}")
    muzero_setup.check_seed(seed)
    cfg = compile_config(input_cfg)
    if mcts_bot_simulations is not None:
        if not muzero_setup.is_board(cfg):
            raise ConfigError(
                "mcts_bot_simulations (lzero eval --mcts-simulations): expected a board game, "
                f"got the gym task {muzero_setup.env_name(cfg)} (the MCTS bot is a board game's "
                "opponent)"
            )
        check_mcts_bot_simulations(mcts_bot_simulations, None)  # before it goes to the env
        cfg.env.mcts_bot_num_simulations = mcts_bot_simulations
    return _evaluate(
        cfg, seed, model_path, num_episodes,
        save_replay_gif=save_replay_gif, replay_path=replay_path,
        num_simulations=num_simulations, opening_moves=opening_moves,
        mcts_bot_simulations=mcts_bot_simulations,
    )  # fmt: skip


def _evaluate(
    cfg: EasyDict,
    seed: int,
    model_path: str | None,
    num_episodes: int,
    *,
    save_replay_gif: bool = False,
    replay_path: str | None = None,
    num_simulations: int | None = None,
    opening_moves: int = 0,
    config_bot: bool = False,
    mcts_bot_simulations: int | None = None,
) -> tuple[float, list[float]]:
    """:func:`eval_muzero_with_gym_env` on its compiled config ``cfg`` (changed in place), its
    arguments checked but for the checkpoint, ``num_simulations`` and whether the bots take
    ``mcts_bot_simulations`` (already in ``cfg.env``); ``config_bot``: a board game is played
    against the env's ``bot_action_type`` only, the agent first (LightZero's ``eval_muzero``)."""
    if model_path is None:
        model_path = cfg.policy.model_path  # LightZero's config key; None: untrained
    if model_path is not None and not Path(model_path).is_file():
        raise ConfigError(
            f"expected model_path to be a checkpoint file, got {model_path!r} (not found)"
        )
    if num_simulations is not None:
        if (
            isinstance(num_simulations, bool)
            or not isinstance(num_simulations, int)
            or num_simulations < 0
        ):
            raise ConfigError(
                f"expected num_simulations to be an int >= 0 (0: the raw network, board games), "
                f"got {num_simulations!r}"
            )
        if num_simulations:
            cfg.policy.num_simulations = num_simulations
    muzero_setup.check_env_config(cfg)  # an unknown bot is named first
    check_mcts_bot_simulations(mcts_bot_simulations, cfg.policy.eval_bots or None)
    every_game = (
        check_board_eval_env(cfg.env, "eval_muzero") if muzero_setup.is_board(cfg) else None
    )
    if num_simulations == 0 and not muzero_setup.is_board(cfg):
        raise ConfigError(
            "num_simulations (lzero eval --simulations): expected at least 1 for a gym task "
            f"({muzero_setup.env_name(cfg)}), got 0 (the raw network plays board games only)"
        )
    if opening_moves and not muzero_setup.is_board(cfg):
        raise ConfigError(
            f"opening_moves (lzero eval --openings): expected 0 for a gym task "
            f"({muzero_setup.env_name(cfg)}), got {opening_moves} (random openings are for board games)"
        )
    replay_dir = Path(replay_path or Path(cfg.exp_name) / "replay")
    if save_replay_gif:
        check_replay_dir(replay_dir, "replay_path")
    replay = None if muzero_setup.is_board(cfg) else episode_replay_dir(cfg)
    every_episode = replay[1] if replay else None  # every evaluation episode, LightZero's keys
    if replay:
        check_replay_dir(every_episode, f"main_config.env.{replay[0]}")
    muzero_setup.seed_everything(seed)
    policy = muzero_setup.make_policy(cfg)
    if model_path is not None:
        muzero_setup.load_checkpoint(policy, model_path, cfg)
    if muzero_setup.is_board(cfg):
        gif_dir = replay_dir if save_replay_gif else None
        raw = num_simulations == 0
        return _eval_board(
            cfg, policy, seed, num_episodes, gif_dir, opening_moves, raw, every_game, config_bot
        )
    manager = muzero_setup.make_env_manager(
        cfg, min(cfg.env.evaluator_env_num, num_episodes), is_train=False
    )
    manager.seed(seed, dynamic_seed=True)
    manager.launch()
    try:
        if every_episode:
            manager.enable_save_replay(str(every_episode))
        returns = MuZeroEvaluator(manager, policy).eval(num_episodes)
    finally:
        manager.close()
    # the results first: a replay that fails to record (an env that cannot) must not lose them
    print(
        f"eval over {num_episodes} episodes: mean return {returns.mean():.2f} "
        f"(std {returns.std():.2f}, min {returns.min():.2f}, max {returns.max():.2f})"
    )
    if every_episode:
        print(f"replays of the {num_episodes} episodes: {every_episode}")
    if save_replay_gif:
        gif = record_gif(cfg, policy, seed, replay_dir)
        print(f"replay GIF: {gif}")
    return float(returns.mean()), [float(r) for r in returns]


def _eval_board(
    cfg, policy, seed: int, num_games: int, replay_dir: Path | None, opening_moves: int,
    raw_network: bool, every_game: Mapping | None, config_bot: bool = False,
):  # fmt: skip
    """The board-game evaluation; ``every_game``: the env settings that save every game
    (``check_board_eval_env``), or None; ``replay_dir``: where one more game is saved;
    ``config_bot``: against the env's ``bot_action_type`` only, with its
    ``prob_random_action_in_bot``, the agent first, as LightZero's eval_mode envs play (else
    ``policy.eval_bots``, without random moves)."""
    bots, agent_first_only, bot_random = cfg.policy.eval_bots, None, 0.0
    if config_bot:  # the bot as the config has it, random share included (LightZero's)
        bot, bot_random = lightzero_eval_bot(cfg.create_env, cfg.env)
        bots, agent_first_only = [bot], True
    evaluator = MuZeroBoardEvaluator(
        policy, cfg.create_env, cfg.env, bots=bots, seed=seed, opening_moves=opening_moves,
        raw_network=raw_network, replay=every_game, agent_first_only=agent_first_only,
        bot_random=bot_random,
    )  # fmt: skip
    returns = evaluator.eval(num_games)
    colours = "the agent first" if evaluator.agent_first_only else "both colours"
    opening = f", {opening_moves}-move random openings" if opening_moves else ""
    print(f"eval over {num_games} games per bot, {colours}{opening}:")
    if "mcts" in evaluator.results:
        print(f"  (the mcts bot: {evaluator.mcts_bot_simulations} rollouts a move)")
    for bot, r in evaluator.results.items():
        print(f"  vs {bot:>10}: win {r['win']:.2f}  draw {r['draw']:.2f}  loss {r['loss']:.2f}")
    if replay_dir is not None:
        bot = evaluator.bots[0]
        gif = record_game_gif(evaluator.act, cfg.create_env, cfg.env, bot, seed, replay_dir)
        print(f"replay GIF: {gif}")
    return float(returns.mean()), [float(r) for r in returns]


def record_gif(cfg, policy: MuZeroPolicy, seed: int, replay_dir: Path) -> Path:
    """Plays one greedy episode in a single env that saves its replay; returns the GIF path."""
    env = muzero_setup.env_factory(cfg, is_train=False)()
    replay_dir.mkdir(parents=True, exist_ok=True)
    before = set(replay_dir.glob("*.gif"))
    env.seed(seed, dynamic_seed=False)
    env.enable_save_replay(str(replay_dir))
    try:
        obs, done = env.reset(), False
        while not done:
            o = np.asarray(obs["observation"], np.float32).reshape(1, -1)
            m = np.asarray(obs["action_mask"]).reshape(1, -1)
            action, _, _ = policy.search(o, m, rng=None, explore=False)
            ts = env.step(int(action[0]))
            obs, done = ts.obs, ts.done
    finally:
        env.close()
    new = sorted(set(replay_dir.glob("*.gif")) - before)
    if not new:
        raise ConfigError(
            f"expected the env {muzero_setup.env_name(cfg)!r} to write a GIF to {replay_dir}, got none"
        )
    return new[-1]


def eval_muzero(
    input_cfg: Sequence[Mapping],
    seed: int = 0,
    model: None = None,
    model_path: str | None = None,
    num_episodes_each_seed: int = 1,
    print_seed_details: bool = False,
) -> tuple[float, list[float]]:
    """LightZero's ``eval_muzero``, with its signature: ``num_episodes_each_seed`` rounds of
    ``env.n_evaluator_episode`` episodes (games, on a board game) with the checkpoint at
    ``model_path``, through :func:`eval_muzero_with_gym_env`.

    Args:
        model: must be None: a prebuilt model is not taken here (LightZero's users pass None
            and a ``model_path``).
        print_seed_details: also print the returns (and on a board game the win, draw and loss
            rates), as LightZero's does.

    Returns:
        The mean return and the returns, as LightZero's (a list here, not an array).

    Raises:
        ConfigError: ``model`` given, ``num_episodes_each_seed < 1``, or what
            :func:`eval_muzero_with_gym_env` raises.
    """
    if model is not None:
        raise ConfigError(
            "model: expected None (this eval_muzero builds the configured model and loads "
            f"model_path into it), got a {type(model).__name__}"
        )
    rounds = num_episodes_each_seed
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ConfigError(f"expected num_episodes_each_seed to be a positive int, got {rounds!r}")
    muzero_setup.check_seed(seed)
    cfg = compile_config(input_cfg)  # once: its warnings (cuda=True, ...) are printed once
    board = muzero_setup.is_board(cfg)
    mean, returns = _evaluate(
        cfg, seed, model_path, rounds * cfg.env.n_evaluator_episode, config_bot=True
    )
    if print_seed_details:
        r = np.asarray(returns)
        print(f"In seed {seed}, returns: {returns}")
        if board:
            print(
                f"win rate: {np.mean(r == 1):.2f}, draw rate: {np.mean(r == 0):.2f}, "
                f"lose rate: {np.mean(r == -1):.2f}"
            )
    return mean, returns
