"""The gomoku game: rules kernel, env and bots."""
