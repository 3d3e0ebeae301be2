"""LightZero-style board games, gym adapters, one batched search, MuZero and AlphaZero.

Importing ``lzero`` registers our envs with gymnasium (``gymnasium.make("lzero/Connect4-v0")``);
nothing is built or compiled until an env is made.
"""

from importlib.metadata import PackageNotFoundError, version

from lzero.envs.gymnasium_api import register_gymnasium_envs

try:
    __version__ = version("lzero-suite")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

register_gymnasium_envs()
