"""Classic control tasks from gymnasium as LightZero envs."""
