"""The pendulum env."""
