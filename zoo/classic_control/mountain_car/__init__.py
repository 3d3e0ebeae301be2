"""The mountain_car task."""
