"""The default config of every board env (``BoardGameEnv.config``), keys as in LightZero.

A game extends it with its own defaults (``dict(BoardGameEnv.config, env_id=...)``); the
env deep-merges the user's config into it and rejects unknown keys.
"""

from __future__ import annotations

BOARD_GAME_CONFIG = dict(
    # (str) The game's name, as in LightZero configs (informational).
    env_id="",
    # (str) 'self_play_mode', 'play_with_bot_mode' or 'eval_mode' (see board_game_env.py).
    battle_mode="self_play_mode",
    # (str) Mode of the simulated env inside AlphaZero's MCTS; kept for LightZero configs.
    battle_mode_in_simulation_env="self_play_mode",
    # (str) Opponent in the bot modes: 'rule' (numba rule bot), 'random', 'mcts' (MCTSBot of
    # zoo/board_games/mcts_bot.py: UCT with random rollouts; Gomoku PUCT with a line-window
    # evaluator and priors, common/line_eval.py); TicTacToe also 'alpha_beta'.
    bot_action_type="rule",
    # (float) Probability that the bot plays a uniformly random move instead.
    prob_random_action_in_bot=0.0,
    # (float) self_play_mode: probability that the agent's move is replaced by a random one.
    prob_random_agent=0.0,
    # (float) self_play_mode: probability that the agent's move is replaced by the bot's.
    prob_expert_agent=0.0,
    # (bool) eval_mode: a human at the terminal replies instead of the bot.
    agent_vs_human=False,
    # (str | None) Render automatically after every move: a recording.RENDER_MODES, or None.
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
)
