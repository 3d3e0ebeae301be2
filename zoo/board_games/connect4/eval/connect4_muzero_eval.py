"""Evaluates a Connect4 MuZero checkpoint against the env's bots: LightZero's eval script of this
name, here ``lzero eval``. Run: ``python -m zoo.board_games.connect4.eval.connect4_muzero_eval
[--ckpt PATH] [lzero eval's options]``; without ``--ckpt``, the ``ckpt_best.pth.tar`` that
``lzero train zoo.board_games.connect4.config.connect4_muzero_bot_mode_config`` writes.
"""

if __name__ == "__main__":
    from lzero_console import run

    run(
        "lzero.cli_train:run_eval_as_main",
        "zoo.board_games.connect4.config.connect4_muzero_bot_mode_config",
    )
