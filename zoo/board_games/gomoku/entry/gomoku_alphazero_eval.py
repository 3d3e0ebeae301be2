"""Evaluates a 6x6 Gomoku AlphaZero checkpoint against the env's bots: LightZero's eval script of
this name, here ``lzero eval``. Run: ``python -m
zoo.board_games.gomoku.entry.gomoku_alphazero_eval [--ckpt PATH] [lzero eval's options]``;
without ``--ckpt``, the ``ckpt_best.pth.tar`` that ``lzero train
zoo.board_games.gomoku.config.gomoku_alphazero_bot_mode_config`` writes.
"""

if __name__ == "__main__":
    from lzero_console import run

    run(
        "lzero.cli_train:run_eval_as_main",
        "zoo.board_games.gomoku.config.gomoku_alphazero_bot_mode_config",
    )
