"""The mountain_car env."""
