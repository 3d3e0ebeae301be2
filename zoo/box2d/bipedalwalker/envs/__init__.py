"""The bipedalwalker env."""
