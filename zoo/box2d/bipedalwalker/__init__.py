"""The bipedalwalker task."""
