"""Replay of game segments for MuZero."""

from lzero.mcts.buffer.game_buffer_muzero import MuZeroGameBuffer
from lzero.mcts.buffer.game_segment import EpisodeRecorder, GameSegment

__all__ = ["EpisodeRecorder", "GameSegment", "MuZeroGameBuffer"]
