"""Torch networks of the MuZero family."""

from lzero.model.muzero_model_mlp import MuZeroModelMLP, MuZeroOutput

__all__ = ["MuZeroModelMLP", "MuZeroOutput"]
