"""MuZero configs for acrobot."""
