"""The connect4 game: rules kernel, env and bots."""
