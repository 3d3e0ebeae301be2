"""The default config of every board env (``BoardGameEnv.config``), keys as in LightZero.

A game extends it with its own defaults (``dict(BoardGameEnv.config, env_id=...)``); the
env deep-merges the user's config into it and rejects unknown keys. Keys that LightZero's own
configs use are accepted: :func:`apply_lightzero_keys` maps those with a meaning here onto our
settings and refuses values we cannot honour.
"""

from __future__ import annotations

from lzero.errors import ConfigError

BOARD_GAME_CONFIG = dict(
    # (str) The game's name, as in LightZero configs (informational).
    env_id="",
    # (str) 'self_play_mode', 'play_with_bot_mode' or 'eval_mode' (see board_game_env.py).
    battle_mode="self_play_mode",
    # (str) Mode of the simulated env inside AlphaZero's MCTS; kept for LightZero configs.
    battle_mode_in_simulation_env="self_play_mode",
    # (str) Opponent in the bot modes: 'rule' (numba rule bot), 'random', 'mcts' (MCTSBot of
    # zoo/board_games/mcts_bot.py: UCT with random rollouts; Gomoku PUCT with a line-window
    # evaluator and priors, common/line_eval.py); TicTacToe also 'alpha_beta'; Connect4 and
    # TicTacToe also 'perfect' (the solver bot).
    bot_action_type="rule",
    # (float) Probability that the bot plays a uniformly random move instead.
    prob_random_action_in_bot=0.0,
    # (float) self_play_mode: probability that the agent's move is replaced by a random one.
    prob_random_agent=0.0,
    # (float) self_play_mode: probability that the agent's move is replaced by the bot's.
    prob_expert_agent=0.0,
    # (bool) eval_mode: a human at the terminal replies instead of the bot.
    agent_vs_human=False,
    # (str | None) None, or a recording.RENDER_MODES: LightZero's 'state_realtime_mode'
    # (print), 'image_realtime_mode' (window) and 'image_savefile_mode' (GIF), or gymnasium's
    # 'human' (window), which render after every move; 'rgb_array' and 'ansi' on render().
    render_mode=None,
    # (str | None) Folder for the GIFs of image_savefile_mode (default './replays').
    replay_path=None,
    # (float) Image size: boards are drawn about 60 * screen_scaling pixels wide.
    screen_scaling=9,
    # (bool) Observation planes last, [H, W, 3], instead of [3, H, W].
    channel_last=False,
    # (bool) Divide the observation planes by 2, as LightZero's ``scale``.
    scale=True,
    # (float) Return at which training stops (read by the trainer, not by the env).
    stop_value=1,
    # (bool) LightZero's switch for its C++ AlphaZero tree; our MCTS does not need it.
    alphazero_mcts_ctree=False,
    # (int) Simulations per move of the 'mcts' bot.
    mcts_bot_num_simulations=50,
    # ---- LightZero's keys, under its names (see apply_lightzero_keys)
    # (bool) LightZero's: record each game as a GIF; here image_savefile_mode.
    save_replay_gif=False,
    # (str | None) LightZero's folder of those GIFs; here replay_path (when that is not set).
    replay_path_gif=None,
    # (bool) LightZero's agents set it to record replays; here as save_replay_gif.
    save_replay=False,
    # (str) LightZero's older name of env_id (informational); no effect here.
    env_name="",
    # (str | None) LightZero's name of the env its AlphaZero MCTS simulates (a policy key that
    # its sampled AlphaZero configs also put here); our search runs the game's kernels, so no
    # effect here.
    simulation_env_id=None,
    # (bool) LightZero's marker of a non-zero-sum game; these games are zero-sum, so only False.
    non_zero_sum=False,
    # (bool) LightZero's KataGo opponent (Go); not available here, so only False.
    use_katago_bot=False,
    # (bool) LightZero's Gomoku rule-bot v0 option; our rule bots always look for a win and a
    # block first; no effect here.
    check_action_to_connect4_in_bot_v0=False,
)


def apply_lightzero_keys(cfg, game: str) -> None:
    """Maps LightZero's replay keys onto ours in ``cfg`` (in place) and refuses LightZero
    values that cannot be honoured here.

    ``save_replay_gif`` (or ``save_replay``) turns on ``render_mode='image_savefile_mode'``,
    and ``replay_path_gif`` becomes ``replay_path`` when that is not set. In ``eval_mode`` a
    ``replay_path`` without a ``render_mode`` turns it on too, as LightZero's eval_mode
    records every game where ``replay_path`` points.

    Raises:
        ConfigError: ``use_katago_bot`` or ``non_zero_sum`` is true, or the replay keys
            contradict ``render_mode`` or ``replay_path``.
    """
    for key in ("save_replay_gif", "save_replay", "non_zero_sum", "use_katago_bot"):
        if not isinstance(cfg[key], bool):
            raise ConfigError(f"{key}: expected a bool, got {cfg[key]!r}")
    if cfg.use_katago_bot:
        raise ConfigError(
            f"use_katago_bot: expected False (no KataGo bot for {game}; choose an opponent with "
            "bot_action_type), got True"
        )
    if cfg.non_zero_sum:
        raise ConfigError(f"non_zero_sum: expected False ({game} is zero-sum), got True")
    if cfg.battle_mode == "eval_mode" and cfg.replay_path is not None and cfg.render_mode is None:
        # LightZero's eval_mode records every game when replay_path is set (its eval scripts
        # set it); here as GIFs.
        cfg.render_mode = "image_savefile_mode"
    if not (cfg.save_replay_gif or cfg.save_replay):
        return
    if cfg.render_mode not in (None, "image_savefile_mode"):
        raise ConfigError(
            "save_replay_gif: expected render_mode None or 'image_savefile_mode' with it (GIFs "
            f"are written in image_savefile_mode), got render_mode {cfg.render_mode!r}"
        )
    cfg.render_mode = "image_savefile_mode"
    gif_dir = cfg.replay_path_gif
    if gif_dir is not None:
        if cfg.replay_path is not None and cfg.replay_path != gif_dir:
            raise ConfigError(
                "replay_path_gif: expected the same folder as replay_path or one of them None, "
                f"got {gif_dir!r} and {cfg.replay_path!r}"
            )
        cfg.replay_path = gif_dir
