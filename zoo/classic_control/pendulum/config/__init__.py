"""MuZero configs for pendulum."""
