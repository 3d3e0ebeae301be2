"""Text boards, pygame frames, GIF replays and typed moves."""

from __future__ import annotations

import errno
import os
import re
import warnings

import imageio.v3 as iio
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lzero.errors import ConfigError, ReplayWriteWarning
from zoo.board_games import drawing, human_input, render
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.gomoku.envs.gomoku_env import GomokuEnv
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv


def test_text_board_has_labels_and_marks_last_move(capsys):
    env = Connect4Env({"render_mode": "state_realtime_mode"})
    env.reset()
    env.step(3)
    env.step(3)
    lines = capsys.readouterr().out.strip().splitlines()[-8:]
    assert lines[0].split() == ["1", "2", "3", "4", "5", "6", "7"] == lines[-1].split()
    assert lines[5].split() == ["2", ".", ".", ".", "[O]", ".", ".", ".", "2"]
    assert lines[6].split() == ["1", ".", ".", ".", "X", ".", ".", ".", "1"]
    text = GomokuEnv({"board_size": 9}).render("state_realtime_mode")
    assert text.splitlines()[0].split() == list("abcdefghi")


def test_frames_show_stones_and_last_move():
    board = np.zeros((6, 7), np.int8)
    board[5, 0], board[5, 1] = 1, 2
    style = drawing.BoardStyle(True, False, list("654321"), list("1234567"), 4, screen_scaling=4)
    frame = drawing.draw_board(board, 5 * 7 + 1, style)
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    at = drawing.layout((6, 7), style)
    size = drawing.cell_pixels(6, 7, 4)
    assert frame.shape[:2] == (at.height, at.width) and at.size == size

    def colour(r, c, dy=0, dx=0):
        return tuple(frame[at.top + r * size + size // 2 + dy, at.left + c * size + size // 2 + dx])

    assert colour(5, 0) == drawing.PIECES[1] and colour(5, 1) == drawing.PIECES[2]
    assert colour(0, 0) not in (drawing.PIECES[1], drawing.PIECES[2])
    ring = int(size * 0.47) - 1  # on the marker's ring, at the disc's edge
    assert colour(5, 1, dx=ring) == drawing.LAST and colour(5, 0, dx=ring) != drawing.LAST
    plain = drawing.draw_board(board, -1, style)
    assert not (plain == np.array(drawing.LAST, np.uint8)).all(axis=-1).any()


def test_gif_per_game_unique_names_frames_freed(tmp_path):
    paths = set()
    for _ in range(2):  # two envs, two episodes each
        env = TicTacToeEnv(
            {
                "render_mode": "image_savefile_mode",
                "replay_path": str(tmp_path),
                "screen_scaling": 2,
            }
        )
        env.seed(0)
        for episode in range(2):
            env.reset(replay_name_suffix=f"run{episode}")
            moves = 0
            while not env.step(env.random_action()).done:
                moves += 1
            assert env.last_replay_file not in paths and env._recorder.frames == []
            paths.add(env.last_replay_file)
            assert os.path.basename(env.last_replay_file).startswith("tictactoe_")
            assert env.last_replay_file.endswith(f"_ep{episode + 1}_run{episode}.gif")
            frames = iio.imread(env.last_replay_file, index=None)
            assert frames.shape[0] == moves + 2  # the empty board and every move
    assert sorted(os.listdir(tmp_path)) == sorted(os.path.basename(p) for p in paths)


def test_unwritable_replay_path_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = Connect4Env({"render_mode": "image_savefile_mode", "replay_path": str(blocker / "gifs")})
    with pytest.raises(ConfigError, match="replay_path: expected a writable directory, got"):
        env.reset()
    assert os.listdir(tmp_path) == ["file"]


def test_failed_gif_write_leaves_nothing(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(iio, "imopen", broken)
    frame = np.zeros((4, 4, 3), np.uint8)
    with pytest.raises(OSError, match="disk full"):
        render.write_gif([frame, frame + 1], tmp_path / "x.gif")
    assert os.listdir(tmp_path) == []


def test_realtime_mode_without_display_warns_once():
    env = TicTacToeEnv({"render_mode": "image_realtime_mode"})
    with pytest.warns(UserWarning, match="image_realtime_mode: no display found"):
        env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env.step(4)  # no second warning; the game goes on
    assert env.board[1, 1] == 1


def test_render_rejects_unknown_mode_and_enable_save_replay(tmp_path):
    env = TicTacToeEnv()
    with pytest.raises(ConfigError, match="unknown mode 'video'"):
        env.render("video")
    # A mode of another type is named as it is, not quoted as a name ('3')
    with pytest.raises(
        ConfigError, match=r"expected a mode name among \['ansi'.*got 3 of type int$"
    ):
        env.render(3)
    env.enable_save_replay(str(tmp_path))
    env.reset()
    while not env.step(env.random_action()).done:
        pass
    assert os.path.dirname(env.last_replay_file) == str(tmp_path)


@given(st.sampled_from(human_input.MOVE_STYLES), st.integers(3, 19), st.integers(3, 19), st.data())
def test_typed_moves_round_trip(style, h, w, data):
    w = min(w, 19)
    size = w if style == "column" else h * w
    action = data.draw(st.integers(0, size - 1))
    text = human_input.move_to_string(action, style, h, w)
    assert human_input.parse_move(f"  {text.upper()} ", style, h, w) == action


@pytest.mark.parametrize(
    ("text", "style", "shape"),
    [
        ("0", "column", (6, 7)),
        ("8", "column", (6, 7)),
        ("", "cell", (3, 3)),
        ("10", "cell", (3, 3)),
        ("z1", "coordinate", (15, 15)),
        ("h16", "coordinate", (15, 15)),
        ("h", "coordinate", (15, 15)),
        ("8h", "coordinate", (15, 15)),
        ("-1", "cell", (3, 3)),
    ],
)
def test_bad_typed_moves(text, style, shape):
    with pytest.raises(ValueError, match=f"expected .*, got {text.strip()!r}"):
        human_input.parse_move(text, style, *shape)
    assert human_input.parse_move("h8", "coordinate", 15, 15) == 7 * 15 + 7


@pytest.mark.parametrize(
    ("style", "shape"), [("cell", (3, 3)), ("column", (6, 7)), ("coordinate", (19, 19))]
)
def test_move_prompt_fits_an_80_column_terminal(style, shape, monkeypatch, capsys):
    prompts = []
    answers = iter(["nonsense", human_input.move_to_string(0, style, *shape)])

    def fake_input(prompt):
        prompts.append(prompt)
        return next(answers)

    monkeypatch.setattr("builtins.input", fake_input)
    mask = np.ones(shape[0] * shape[1], np.int8)
    assert human_input.ask_move(mask, 1, "X", style, *shape) == 0
    assert all(len(p) < 80 for p in prompts), prompts
    # The full description of what to type still comes with the rejection.
    assert (
        f"expected {human_input.move_hint(style, *shape)}, got 'nonsense'"
        in capsys.readouterr().out
    )


@pytest.mark.parametrize(
    ("text", "style"),
    [("\u00b2", "cell"), ("h\u00b2", "coordinate"), ("\u0663", "cell"), ("h\u0668", "coordinate")],
)
def test_superscript_and_other_scripts_digits_are_rejected_with_the_expected_message(text, style):
    # str.isdigit() accepts a superscript two, which int() then refuses with its own message;
    # int() takes an Arabic-Indic three (str.isdecimal() too), which no board label shows.
    with pytest.raises(ValueError, match=f"expected .*, got {text!r}"):
        human_input.parse_move(text, style, 15, 15)


def test_gif_holds_the_final_position(tmp_path):
    # A looping GIF that shows the final position as briefly as any move jumps back to the
    # empty board before a viewer can see how the game ended.
    env = TicTacToeEnv({"render_mode": "image_savefile_mode", "replay_path": str(tmp_path)})
    env.reset()
    for action in (0, 3, 1, 4, 2):
        env.step(action)
    path = env.last_replay_file
    assert iio.imread(path, index=None).shape[0] == 6
    durations = [iio.immeta(path, index=i)["duration"] for i in range(6)]
    assert durations[:5] == [500] * 5 and durations[5] >= 2000


def _disk_full(frames, path):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("mode", ["self_play_mode", "play_with_bot_mode"])
def test_a_gif_that_cannot_be_written_does_not_lose_the_final_step(tmp_path, monkeypatch, mode):
    # The move is played before the GIF is written: raising out of step() would leave the
    # caller without the final timestep and its result.
    env = TicTacToeEnv(
        {"battle_mode": mode, "render_mode": "image_savefile_mode", "replay_path": str(tmp_path)}
    )
    env.seed(0)
    env.reset()
    monkeypatch.setattr(render, "write_gif", _disk_full)
    expected = (
        rf"image_savefile_mode: the replay {re.escape(str(tmp_path))}/tictactoe_\S+_ep1\.gif "
        rf"was not written: \[Errno {errno.ENOSPC}\] {os.strerror(errno.ENOSPC)}$"
    )
    with pytest.warns(ReplayWriteWarning, match=expected) as caught:
        timestep = env.step(env.random_action())
        while not timestep.done:
            timestep = env.step(env.random_action())
    assert len(caught) == 1 and caught[0].filename == __file__  # the caller of step()
    assert timestep.info["eval_episode_return"] in (-1, 0, 1)
    assert env.last_replay_file is None and env.last_replay_error.errno == errno.ENOSPC
    assert os.listdir(tmp_path) == [] and env._recorder.frames == []
    monkeypatch.undo()  # the next game is recorded, and the error forgotten
    env.reset()
    while not env.step(env.random_action()).done:
        pass
    assert os.path.exists(env.last_replay_file) and env.last_replay_error is None


def test_a_replay_folder_gone_during_the_game_is_a_warning_too(tmp_path):
    folder = tmp_path / "gifs"
    env = TicTacToeEnv({"render_mode": "image_savefile_mode", "replay_path": str(folder)})
    env.reset()
    for action in (0, 3, 1, 4):
        env.step(action)
    folder.rmdir()
    folder.write_text("a file now")
    with pytest.warns(ReplayWriteWarning, match="was not written: replay_path: expected a writ"):
        timestep = env.step(2)
    assert timestep.done and timestep.info["eval_episode_return"] == 1
    assert env.last_replay_file is None and isinstance(env.last_replay_error, ConfigError)
    assert os.listdir(tmp_path) == ["gifs"]


def test_a_recording_started_on_the_last_move_saves_a_one_frame_gif(tmp_path):
    """Pillow takes one frame's duration as a number, not a list: the write had raised a
    TypeError out of ``step``."""
    env = TicTacToeEnv({"battle_mode": "self_play_mode"})
    env.reset()
    for a in (0, 3, 1, 4):
        env.step(a)
    env.enable_save_replay(str(tmp_path))
    assert env.step(2).done
    frames = iio.imread(env.last_replay_file, index=None)
    assert frames.shape[0] == 1 and frames[0].shape == env.render("rgb_array").shape
    assert render.write_gif([frames[0]], tmp_path / "one.gif") == str(tmp_path / "one.gif")


def test_a_one_off_image_savefile_render_records_nothing(tmp_path, monkeypatch):
    """``render('image_savefile_mode')`` on an env that does not record returns the frame; it
    had started a recording that wrote a GIF to ./replays when the game ended."""
    monkeypatch.chdir(tmp_path)
    env = TicTacToeEnv({"battle_mode": "self_play_mode"})
    env.reset()
    frame = env.render("image_savefile_mode")
    assert np.array_equal(frame, env.render("rgb_array"))
    for a in (0, 3, 1, 4, 2):
        env.step(a)
    assert env.last_replay_file is None and not (tmp_path / "replays").exists()
