"""The lunarlander env."""
