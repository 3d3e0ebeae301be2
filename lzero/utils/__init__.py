"""Small shared utilities of the library."""
