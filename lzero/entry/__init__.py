"""Training and evaluation entry points."""

from lzero.entry.eval_muzero_with_gym_env import eval_muzero, eval_muzero_with_gym_env
from lzero.entry.train_alphazero import eval_alphazero, train_alphazero
from lzero.entry.train_muzero_with_gym_env import train_muzero_with_gym_env

#: LightZero's name of the entry its board-game configs call; the same entry here.
train_muzero = train_muzero_with_gym_env

__all__ = [
    "eval_alphazero",
    "eval_muzero",
    "eval_muzero_with_gym_env",
    "train_alphazero",
    "train_muzero",
    "train_muzero_with_gym_env",
]
