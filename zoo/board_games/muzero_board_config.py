"""The shape every zoo MuZero board-game config shares; each ``<game>_muzero_*_config.py``
(LightZero's file names) calls :func:`muzero_board_config` with its game's numbers."""

from __future__ import annotations

from easydict import EasyDict


def muzero_board_config(
    game: str,
    *,
    board_shape: tuple[int, int],
    action_space_size: int,
    agent_moves: int,
    num_simulations: int,
    exp_name: str,
    battle_mode: str = "play_with_bot_mode",
    collector_env_num: int = 8,
    eval_freq: int = 200,
    replay_ratio: float = 0.5,
    env: dict | None = None,
    policy: dict | None = None,
) -> tuple[EasyDict, EasyDict]:
    """``(main_config, create_config)`` of MuZero on ``game``, sized for 2 CPU cores.

    Args:
        game: registry name and module folder (``'tictactoe'``, ``'connect4'``, ``'gomoku'``).
        board_shape: ``(H, W)``.
        action_space_size: ``A``.
        agent_moves: the most moves one player makes in a game. A game segment and the
            n-step value target's horizon span the agent's moves of a game (both players' in
            self-play), so the value target is the game's outcome.
        num_simulations: search simulations per move.
        exp_name: output directory.
        battle_mode: ``'play_with_bot_mode'`` or ``'self_play_mode'``.
        collector_env_num: games collected at once (one batched search).
        eval_freq: train iterations between evaluations.
        replay_ratio: gradient steps per collected env step.
        env: further env keys (the board size of Gomoku, the collector bot's noise, ...).
        policy: further policy keys (symmetry augmentation, the root's rules, ...).
    """
    h, w = board_shape
    horizon = agent_moves * (2 if battle_mode == "self_play_mode" else 1)
    main = dict(
        exp_name=exp_name,
        env=dict(
            battle_mode=battle_mode,
            bot_action_type="rule",
            channel_last=False,
            scale=True,
            collector_env_num=collector_env_num,
            evaluator_env_num=5,
            n_evaluator_episode=10,
            stop_value=1,
            **(env or {}),
        ),
        policy=dict(
            model=dict(
                model_type="conv",
                observation_shape=(3, h, w),
                action_space_size=action_space_size,
                image_channel=3,
                num_res_blocks=1,
                num_channels=32,
                fc_reward_layers=[32],
                fc_value_layers=[32],
                fc_policy_layers=[32],
                support_scale=10,
                reward_support_size=21,
                value_support_size=21,
            ),
            env_type="board_games",
            num_simulations=num_simulations,
            game_segment_length=horizon,
            td_steps=horizon,
            num_unroll_steps=3,
            discount_factor=1,
            batch_size=128,
            replay_ratio=replay_ratio,
            learning_rate=3e-3,
            grad_clip_value=0.5,
            # An update's convolutions gain from the second core (Connect4, batch 128: 140 ->
            # 100 ms); the search's small batches do not, so it keeps one thread.
            learn_torch_num_threads=2,
            fixed_temperature_value=1.0,
            n_episode=collector_env_num,
            eval_freq=eval_freq,
            replay_buffer_size=int(1e5),
            **(policy or {}),
        ),
    )
    create = dict(
        env=dict(type=game, import_names=[f"zoo.board_games.{game}.envs.{game}_env"]),
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
    return EasyDict(main), EasyDict(create)
