"""The pendulum task."""
