"""Torch networks of the MuZero family."""

from lzero.model.muzero_model import MuZeroModel
from lzero.model.muzero_model_mlp import MuZeroModelMLP, MuZeroOutput

__all__ = ["MuZeroModel", "MuZeroModelMLP", "MuZeroOutput"]
