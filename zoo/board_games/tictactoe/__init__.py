"""The tictactoe game: rules kernel, env and bots."""
