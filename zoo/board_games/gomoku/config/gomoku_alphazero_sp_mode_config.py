"""AlphaZero on 6x6 Gomoku (LightZero's board) in self-play mode, sized for 2 CPU cores.

Five in a row wins. Evaluated against the threat-based rule bot and the MCTS bot (line-window
priors and values). ``for_board`` gives the same config on another board size (the 9x9
config uses it). Run: ``lzero train zoo.board_games.gomoku.config.gomoku_alphazero_sp_mode_config``.
"""

from easydict import EasyDict


def for_board(board_size: int, *, num_simulations: int, exp_name: str) -> tuple[EasyDict, EasyDict]:
    """``(main_config, create_config)`` of self-play AlphaZero on ``board_size`` Gomoku."""
    main_config = EasyDict(
        dict(
            exp_name=exp_name,
            env=dict(
                board_size=board_size,
                battle_mode="self_play_mode",
                bot_action_type="rule",
                collector_env_num=64,
                n_evaluator_episode=20,
                scale=True,
                stop_value=2,  # never reached: training runs to max_env_step
            ),
            policy=dict(
                model=dict(
                    observation_shape=(3, board_size, board_size),
                    action_space_size=board_size * board_size,
                    num_res_blocks=2,
                    num_channels=32,
                ),
                update_per_collect=40,
                batch_size=256,
                optim_type="Adam",
                learning_rate=2e-3,
                weight_decay=1e-4,
                grad_clip_value=1.0,
                n_episode=64,
                eval_freq=400,
                num_sampling_moves=board_size,
                eval_bots=["rule", "mcts"],
                eval_num_simulations=200,
                eval_opening_moves=2,
                # Ours (see AlphaZero's config): only cells within 2 of a stone are searched,
                # decisive moves are played in the tree (a five is taken and a four blocked
                # without the network having to learn it first), and the root looks for
                # forced wins by up to 4 continuous fours, its own and the opponent's.
                mcts=dict(
                    num_simulations=num_simulations,
                    root_dirichlet_alpha=0.3,
                    radius=2,
                    tactics=True,
                    threat_depth=4,
                ),
                other=dict(replay_buffer=dict(replay_buffer_size=int(2e5))),
            ),
        )
    )
    create_config = EasyDict(
        dict(
            env=dict(type="gomoku", import_names=["zoo.board_games.gomoku.envs.gomoku_env"]),
            env_manager=dict(type="base"),
            policy=dict(type="alphazero", import_names=["lzero.policy.alphazero"]),
        )
    )
    return main_config, create_config


max_env_step = int(1e6)
main_config, create_config = for_board(
    6, num_simulations=50, exp_name="data_alphazero/gomoku_alphazero_sp_mode_seed0"
)

if __name__ == "__main__":
    from lzero.cli_train import run_as_main

    run_as_main(__spec__.name if __spec__ else __file__)
