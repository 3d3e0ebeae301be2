"""Othello rules kernel, env and bots (import the submodules directly)."""
