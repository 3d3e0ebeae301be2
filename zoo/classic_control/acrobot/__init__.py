"""The acrobot task."""
