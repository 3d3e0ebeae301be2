"""LightZero-style board games, gym adapters, one batched search, MuZero and AlphaZero.

Importing ``lzero`` registers our envs with gymnasium (``gymnasium.make("lzero/Connect4-v0")``);
nothing is built or compiled until an env is made.
"""

from lzero.envs.gymnasium_api import register_gymnasium_envs

register_gymnasium_envs()
