"""Gomoku evaluation helpers: forced-win positions to grade a player by."""
