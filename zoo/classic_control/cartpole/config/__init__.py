"""MuZero configs for cartpole."""
