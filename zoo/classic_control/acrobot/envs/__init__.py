"""The acrobot env."""
