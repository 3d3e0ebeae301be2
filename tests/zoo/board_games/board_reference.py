"""Plain-Python reference rules for TicTacToe, Connect4 and Gomoku, written apart from the kernels.

Deliberately a different algorithm: the winner is found by rescanning every row, column and
diagonal of the whole board as a string, and boards are lists of lists.
"""

from __future__ import annotations

ONGOING, DRAW = 0, 3


class RefGame:
    """A board game position: ``height x width`` board, ``k`` in a row wins, optional gravity."""

    def __init__(self, height: int, width: int, k: int, gravity: bool):
        self.h, self.w, self.k, self.gravity = height, width, k, gravity
        self.board = [[0] * width for _ in range(height)]
        self.moves = 0

    def legal(self) -> list[int]:
        if self.gravity:
            return [c for c in range(self.w) if self.board[0][c] == 0]
        return [
            r * self.w + c for r in range(self.h) for c in range(self.w) if self.board[r][c] == 0
        ]

    def play(self, action: int, player: int) -> int:
        """Plays ``action`` for ``player``; returns the flat cell it landed on."""
        if self.gravity:
            col = action
            row = max(r for r in range(self.h) if self.board[r][col] == 0)
        else:
            row, col = divmod(action, self.w)
            assert self.board[row][col] == 0
        self.board[row][col] = player
        self.moves += 1
        return row * self.w + col

    def lines(self) -> list[str]:
        b, h, w = self.board, self.h, self.w
        out = ["".join(map(str, row)) for row in b]
        out += ["".join(str(b[r][c]) for r in range(h)) for c in range(w)]
        for d in range(-(h - 1), w):  # diagonals c - r = d and anti-diagonals c + r = d + h - 1
            out.append("".join(str(b[r][r + d]) for r in range(h) if 0 <= r + d < w))
            s = d + h - 1
            out.append("".join(str(b[r][s - r]) for r in range(h) if 0 <= s - r < w))
        return out

    def winners(self) -> set[int]:
        lines = self.lines()
        return {p for p in (1, 2) if any(str(p) * self.k in line for line in lines)}

    def result(self) -> int:
        """Full-rescan result: the unique winner, ``DRAW`` on a full board, else ``ONGOING``."""
        won = self.winners()
        assert len(won) <= 1, "both players have a line: not a reachable position"
        if won:
            return won.pop()
        if all(v != 0 for row in self.board for v in row):
            return DRAW
        return ONGOING


def tictactoe() -> RefGame:
    return RefGame(3, 3, 3, False)


def connect4() -> RefGame:
    return RefGame(6, 7, 4, True)


def gomoku(size: int = 15) -> RefGame:
    return RefGame(size, size, 5, False)


def longest_run(board, row: int, col: int, player: int) -> int:
    """The longest line of ``player``'s stones through ``(row, col)`` of ``board`` (rows of
    cells, lists or an array), walked stone by stone: the kernels' own way, for the cases a
    whole-board rescan cannot tell apart."""
    h, w = len(board), len(board[0])
    best = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < h and 0 <= c < w and board[r][c] == player:
                n, r, c = n + 1, r + sign * dr, c + sign * dc
        best = max(best, n)
    return best
