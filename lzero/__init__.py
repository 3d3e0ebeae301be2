"""LightZero-style board games, gym adapters, one batched search, MuZero and AlphaZero.

Importing ``lzero`` registers our envs with gymnasium (``gymnasium.make("lzero/Connect4-v0")``);
nothing is built or compiled until an env is made.
"""

import os
from importlib.metadata import PackageNotFoundError, version

from lzero.utils.numba_cache import stamp_kernels

# Before any kernel is defined: a cached kernel is rebuilt when any file of lzero changes, not
# only its own (numba's rule), as kernels inline other files' kernels.
stamp_kernels(os.path.dirname(os.path.abspath(__file__)))

from lzero.envs.gymnasium_api import register_gymnasium_envs  # noqa: E402

try:
    __version__ = version("lzero-suite")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

register_gymnasium_envs()
