"""The cartpole env."""
