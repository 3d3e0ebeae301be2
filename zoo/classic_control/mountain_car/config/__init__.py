"""MuZero configs for mountain_car."""
