"""Othello configs (LightZero's file names)."""
