"""MuZero configs for lunarlander."""
