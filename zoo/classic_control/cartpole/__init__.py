"""The cartpole task."""
