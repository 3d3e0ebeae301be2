"""Installs the ``lzero`` library, the ``zoo`` of games and tasks, and the ``lzero`` command."""

from setuptools import find_packages, setup

# A board game is one line here, ``name: "module:Class"``; everything else (the CLI, the
# gymnasium id ``lzero/<Class without Env>-v0``, PettingZoo, the pool, the configs) finds it
# through the registry.
BOARD_GAMES = {
    "tictactoe": "zoo.board_games.tictactoe.envs.tictactoe_env:TicTacToeEnv",
    "connect4": "zoo.board_games.connect4.envs.connect4_env:Connect4Env",
    "gomoku": "zoo.board_games.gomoku.envs.gomoku_env:GomokuEnv",
    "othello": "zoo.board_games.othello.envs.othello_env:OthelloEnv",
}

GYM_TASKS = {
    "cartpole_lightzero": "zoo.classic_control.cartpole.envs.cartpole_lightzero_env",
    "pendulum_lightzero": "zoo.classic_control.pendulum.envs.pendulum_lightzero_env",
    "mountain_car_lightzero": "zoo.classic_control.mountain_car.envs.mtcar_lightzero_env",
    "acrobot_lightzero": "zoo.classic_control.acrobot.envs.acrobot_lightzero_env",
    "lunarlander_lightzero": "zoo.box2d.lunarlander.envs.lunarlander_lightzero_env",
    "bipedalwalker_lightzero": "zoo.box2d.bipedalwalker.envs.bipedalwalker_lightzero_env",
    # LightZero's own module and type names of the Box2D tasks.
    "lunarlander": "zoo.box2d.lunarlander.envs.lunarlander_env",
    "lunarlander_cont_disc": "zoo.box2d.lunarlander.envs.lunarlander_cont_disc_env",
    "bipedalwalker": "zoo.box2d.bipedalwalker.envs.bipedalwalker_env",
    "bipedalwalker_cont_disc": "zoo.box2d.bipedalwalker.envs.bipedalwalker_cont_disc_env",
}

setup(
    name="lzero-suite",
    version="0.1.0",
    description="Board-game and gym environments with numba rules, bots and MCTS, and MuZero.",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.10",
    packages=find_packages(include=["lzero", "lzero.*", "zoo", "zoo.*"]),
    # The lzero command, importing the package under its Ctrl-C, and what it and lzero.cli
    # know of interrupts before the package is imported.
    py_modules=["lzero_console", "lzero_interrupts"],
    # PEP 561: lzero's annotations are for type checkers too. The shipped agents
    # (lzero.pretrained): a checkpoint and its recipe in each game folder.
    package_data={
        "lzero": ["py.typed"],
        "zoo.board_games": ["*/pretrained/agent.pth.tar", "*/pretrained/recipe.json"],
        "zoo.board_games.serve": ["static/*"],
    },
    install_requires=[
        "numpy>=1.24",
        "gymnasium>=1.0",
        "easydict>=1.10",
        "numba>=0.59",
        "pygame>=2.5",
        "imageio>=2.31",
        # Env factories reach 'spawn' workers as DI-engine's CloudpickleWrapper sends them
        # (lambdas too); gymnasium depends on it already.
        "cloudpickle>=1.2",
    ],
    extras_require={
        # The CPU wheel of torch 2.13.0 is what we test on; an unpinned torch would pull
        # several GB of CUDA packages.
        # tensorboardX writes TensorBoard event files without TensorFlow or tensorboard; the
        # Box2D wheel (LunarLander, BipedalWalker) installs without swig.
        "train": ["torch==2.13.0", "tensorboardX>=2.6", "matplotlib>=3.7", "Box2D>=2.3.10"],
        "box2d": ["Box2D>=2.3.10"],
        # The tests also cover the perfect Connect4 bot, so they install its opening book.
        "test": [
            "pytest>=7.4",
            # The README's test command runs the suite on every core up to 8 (-n auto
            # --maxprocesses 8), one test file per worker at a time (--dist loadfile), so that
            # module fixtures run once.
            "pytest-xdist>=3.5",
            "hypothesis>=6.80",
            "ruff>=0.4",
            "Box2D>=2.3.10",
            "bitbully-databases>=0.0.2",
            "pettingzoo>=1.24",
            "ray>=2.10",
            # make_dm's tests (envpool's dm_env API) run in CI rather than skip.
            "dm-env>=1.6",
            # lzero serve's page is tested in the system's Chromium (Playwright drives it; its
            # own browser download is not used).
            "playwright>=1.40",
        ],
        # RayEnvManager and distributed self-play (manager type 'ray'); tested with ray 2.60
        # on Python 3.11, the CPU wheel.
        "ray": ["ray>=2.10"],
        # PettingZoo's AEC and parallel APIs over the board games (lzero.envs.pettingzoo).
        "pettingzoo": ["pettingzoo>=1.24"],
        # dm_env's API for the pool (lzero.envs.make_dm), as envpool.make_dm.
        "dm": ["dm-env>=1.6"],
        # The perfect Connect4 bot's opening book (MIT): positions of 12 stones, solved.
        "perfect": ["bitbully-databases>=0.0.2"],
        "bench": [
            "open_spiel",
            "pettingzoo>=1.24",
            "envpool>=1.2",
            "pgx>=2.6",
            "bitbully>=0.0.79",
            "flax",  # gymnasium's phys2d JAX vector envs (bench_pool.py) need it
            # mctx's gumbel_muzero_policy: the Gumbel search's reference test (it brings JAX)
            "mctx>=0.0.5",
        ],
    },
    entry_points={
        "console_scripts": ["lzero=lzero_console:main"],
        "lzero.envs": [
            f"{name} = {module}" for name, module in {**BOARD_GAMES, **GYM_TASKS}.items()
        ],
        "lzero.commands": ["board_games = zoo.board_games.cli:add_play_subcommands"],
    },
)
