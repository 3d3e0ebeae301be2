"""MuZero configs for bipedalwalker."""
