"""Frames people can read: the terminal's labels and piece colours, TicTacToe's letters, the
winning line highlighted and the result in the caption, checked on the pixels of real GIFs."""

from __future__ import annotations

import string

import imageio.v3 as iio
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo.board_games import drawing, render
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv


def near(pixels: np.ndarray, colour, tol: int = 12) -> np.ndarray:
    """Where ``pixels`` `[..., 3]` are within ``tol`` of ``colour`` on every channel (GIF
    palettes may move a colour slightly)."""
    return (np.abs(pixels.astype(int) - np.array(colour)) <= tol).all(axis=-1)


def cell_box(frame, at: drawing.Layout, cell: int, width: int) -> np.ndarray:
    r, c = divmod(cell, width)
    y, x = at.top + r * at.size, at.left + c * at.size
    return frame[y : y + at.size, x : x + at.size]


def finished_gif(env, moves, tmp_path, players=None):
    """Plays ``moves`` in self-play with GIF recording; the GIF's frames and the env."""
    env.enable_save_replay(str(tmp_path))
    env.reset()
    env.replay_players = players
    for move in moves:
        timestep = env.step(move)
    assert timestep.done
    return iio.imread(env.last_replay_file, index=None), env


GAMES = [
    # (env, moves of a game X wins, the winning cells)
    (lambda: TicTacToeEnv(), [0, 4, 1, 5, 2], {0, 1, 2}),
    (lambda: Connect4Env(), [3, 4, 3, 4, 3, 4, 3], {17, 24, 31, 38}),
    (lambda: GomokuEnv({"board_size": 7}), [0, 7, 1, 8, 2, 9, 3, 10, 4], {0, 1, 2, 3, 4}),
]


@pytest.mark.parametrize(("make", "moves", "won"), GAMES)
def test_last_frame_highlights_the_winning_line_and_states_the_result(make, moves, won, tmp_path):
    frames, env = finished_gif(make(), moves, tmp_path, players=("rule", "random"))
    last = frames[-1]
    assert len(frames) == len(moves) + 1
    h, w = env.board.shape
    assert env.caption() == ("X wins", "X: rule, O: random")
    at = drawing.layout((h, w), env._recorder.style)
    assert last.shape[:2] == (at.height, at.width)
    mask = near(last, drawing.HIGHLIGHT)
    for cell in range(h * w):
        lit = near(cell_box(last, at, cell, w), drawing.HIGHLIGHT).mean()
        assert (lit > 0.2) if cell in won else lit == 0, cell
    board_rows = slice(at.top, at.top + h * at.size)
    board_cols = slice(at.left, at.left + w * at.size)
    assert mask.sum() == mask[board_rows, board_cols].sum()  # nowhere outside the board
    assert not near(frames[-2], drawing.HIGHLIGHT).any()  # not before the game is won
    # The caption band is the one drawn for "X wins", not for the running game or a draw.
    below = slice(at.top + h * at.size + at.band, at.height)
    band = last[below].astype(int)

    def caption_band(caption):
        return drawing.draw_board(env.board, env.last_cell, env._recorder.style, caption)[below]

    assert np.abs(band - caption_band(env.caption())).mean() < 2
    for other in (("X to move", "X: rule, O: random"), ("draw", "X: rule, O: random")):
        assert (
            np.abs(band - caption_band(other)).mean()
            > 3 * np.abs(band - caption_band(env.caption())).mean() + 1
        )


def test_a_draw_says_draw_and_lights_nothing(tmp_path):
    frames, env = finished_gif(TicTacToeEnv(), [0, 1, 2, 4, 3, 5, 7, 6, 8], tmp_path)
    assert env.caption() == ("draw",)
    assert not near(frames[-1], drawing.HIGHLIGHT).any()


def test_pieces_have_the_terminals_colours_and_tictactoe_draws_letters():
    # The terminal prints X in ANSI red (31) and O in yellow (33); the frames' pieces are red
    # and yellow.
    assert render.ANSI_PIECES[1].endswith(";31m") and render.ANSI_PIECES[2].endswith(";33m")
    red, yellow = drawing.PIECES[1], drawing.PIECES[2]
    assert red[0] > 180 and red[1] < 80 and red[2] < 80
    assert yellow[0] > 180 and yellow[1] > 150 and yellow[2] < 80
    env = TicTacToeEnv({"battle_mode": "self_play_mode"})
    env.reset()
    env.step(0)  # X top left
    env.step(4)  # O centre
    frame = env.render("rgb_array")
    at = drawing.layout((3, 3), env._recorder.style)
    x, o = cell_box(frame, at, 0, 3), cell_box(frame, at, 4, 3)
    s, q = at.size, at.size // 4
    # X: red on both diagonals and at the crossing, not in the middle of the cell's edges.
    assert near(x[s // 2, s // 2], red) and near(x[q, q], red) and near(x[q, s - q], red)
    assert not near(x[q, s // 2], red) and not near(x[s // 2, q], red)
    # O: a yellow ring, hollow in the middle.
    ring = int(s * 0.28)  # inside the ring, drawn inwards from 0.33 s
    assert near(o[s // 2, s // 2 + ring], yellow) and near(o[s // 2 - ring, s // 2], yellow)
    assert not near(o[s // 2, s // 2], yellow)
    # Connect4 and Gomoku: discs and stones of the same colours.
    for env in (Connect4Env(), GomokuEnv({"board_size": 9})):
        env.reset()
        env.step(0)
        env.step(1)
        frame = env.render("rgb_array")
        assert near(frame, red).sum() > 50 and near(frame, yellow).sum() > 50


@pytest.mark.parametrize("make", [TicTacToeEnv, Connect4Env, lambda: GomokuEnv({"board_size": 9})])
def test_frames_carry_the_terminals_labels(make):
    env = make()
    env.reset()
    style = env._recorder.style
    text = env.render("ansi").splitlines()
    assert text[0].split() == list(style.col_labels)  # the same labels as the terminal's
    assert [line.split()[0] for line in text[1:-1]] == list(style.row_labels)
    frame = env.render("rgb_array")
    at = drawing.layout(env.board.shape, style)
    h, w = env.board.shape
    ink = ~near(frame, drawing._PAPER, tol=0)  # anything drawn on the margins
    crops = []
    for r in range(h):  # each row's label, left and right of its row
        rows = slice(at.top + r * at.size, at.top + (r + 1) * at.size)
        assert ink[rows, : at.left].any() and ink[rows, at.left + w * at.size :].any()
        crops.append(ink[rows, : at.left].tobytes())
    for c in range(w):  # each column's label, above and below it
        cols = slice(at.left + c * at.size, at.left + (c + 1) * at.size)
        assert ink[: at.top, cols].any()
        assert ink[at.top + h * at.size : at.top + h * at.size + at.band, cols].any()
    assert len(set(crops)) == h  # a different label on each row


def test_colour_terminal_colours_pieces_and_the_winning_line():
    env = TicTacToeEnv({"battle_mode": "self_play_mode"})
    env.reset()
    for move in (0, 4, 1, 5, 2):
        env.step(move)
    rec = env._recorder
    plain, coloured = rec.text(env.board, env.last_cell), rec.text(env.board, 2, colour=True)
    assert "\x1b" not in plain and "[X]" in plain
    assert coloured.count("\x1b[42m") == 3  # the three cells of the top row
    assert "\x1b[1;31mX" in coloured and "\x1b[1;33mO" in coloured
    assert render.use_colour(open(__file__)) is False  # a file is not a terminal


def reference_winning_cells(board: np.ndarray, k: int) -> set[int]:
    """Brute force: every window of ``k`` cells in a line, all one player's."""
    h, w = board.shape
    out = set()
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= y < h and 0 <= x < w for y, x in cells):
                    values = {int(board[y, x]) for y, x in cells}
                    if len(values) == 1 and values != {0}:
                        out.update(y * w + x for y, x in cells)
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(3, 7), st.integers(3, 7), st.integers(2, 5), st.data())
def test_winning_cells_match_a_brute_force_window_scan(h, w, k, data):
    flat = data.draw(st.lists(st.sampled_from([0, 1, 2]), min_size=h * w, max_size=h * w))
    board = np.array(flat, np.int8).reshape(h, w)
    assert drawing.winning_cells(board, k) == reference_winning_cells(board, k)


def test_frames_survive_pygame_quit_between_renders():
    """gymnasium's classic-control envs call pygame.quit() in close(); a font cached before it
    was a dangling handle that crashed the next caption (a segfault in CI). In a subprocess, so
    that a crash fails this test instead of killing the run."""
    import os
    import subprocess
    import sys

    code = (
        "import numpy as np, pygame\n"
        "from zoo.board_games import drawing\n"
        "style = drawing.BoardStyle(False, True, list('147'), list('123'), 3, 2)\n"
        "board = np.zeros((3, 3), np.int8); board[1, 1] = 1\n"
        "a = drawing.draw_board(board, 4, style, ('X wins',))\n"
        "pygame.quit()\n"
        "b = drawing.draw_board(board, 4, style, ('X wins',))\n"
        "assert (a == b).all(), 'the frame changed after pygame.quit()'\n"
        "print('ok')\n"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]


NAME = st.text(string.ascii_letters + string.digits + "/_-:~", min_size=1, max_size=80)


@given(x=NAME, o=NAME)
@settings(max_examples=60, deadline=None)
def test_a_players_caption_too_wide_keeps_both_names_ends(x, o):
    """Long ``agent:PATH`` names were cut at the end of the line, so O's name was lost: each
    name now loses characters from its middle, and keeps its start and its end."""
    font = drawing._font(20)
    width = font.size(drawing._WIDE_CAPTION)[0]
    line = f"X: bot1 {x}, O: bot2 {o}"
    fitted = drawing._fit(font, line, width)
    assert font.size(fitted)[0] <= width
    if font.size(line)[0] <= width:
        assert fitted == line
        return
    x_part, o_part = fitted.split(", O: ")  # both players still named, in order
    for part, name in ((x_part, f"X: bot1 {x}"), (o_part, f"bot2 {o}")):
        if "..." in part and part != name:
            head, tail = part.split("...", 1)
            assert name.startswith(head) and name.endswith(tail) and min(len(head), len(tail)) >= 2
        else:
            assert part == name


@pytest.mark.parametrize(("no_color", "term", "colour"), [
    (None, "xterm", True), ("", "xterm", True), ("1", "xterm", False), (None, "dumb", False),
])  # fmt: skip
def test_colour_follows_no_color_and_term(monkeypatch, no_color, term, colour):
    """no-color.org: a NO_COLOR that is set and not empty turns colour off (an empty one
    turned it off too)."""

    class Terminal:
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    monkeypatch.setenv("TERM", term)
    assert render.use_colour(Terminal()) is colour
