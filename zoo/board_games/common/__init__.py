"""Logic shared by every board game: k-in-a-row lines, gravity drops, the rules record."""
