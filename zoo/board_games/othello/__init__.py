"""The Othello game: rules kernel, env and bots."""
