"""The lunarlander task."""
