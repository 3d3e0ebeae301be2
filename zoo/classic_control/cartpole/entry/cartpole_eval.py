"""Evaluates a CartPole MuZero checkpoint (its mean return over greedy episodes): LightZero's eval
script of this name, here ``lzero eval``. Run: ``python -m
zoo.classic_control.cartpole.entry.cartpole_eval [--ckpt PATH] [lzero eval's options]``; without
``--ckpt``, the ``ckpt_best.pth.tar`` that ``lzero train
zoo.classic_control.cartpole.config.cartpole_muzero_config`` writes.
"""

if __name__ == "__main__":
    from lzero_console import run

    run(
        "lzero.cli_train:run_eval_as_main",
        "zoo.classic_control.cartpole.config.cartpole_muzero_config",
    )
