"""Box2D tasks from gymnasium as LightZero envs (needs the ``Box2D`` wheel)."""
