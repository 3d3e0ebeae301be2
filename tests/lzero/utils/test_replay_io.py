import os

import imageio.v3 as iio
import numpy as np
import pytest

from lzero.errors import ConfigError
from lzero.utils.replay_io import check_gif_target, check_replay_dir, write_frames_atomic


def test_writes_every_frame_and_leaves_no_temporary(tmp_path):
    frames = [np.full((8, 8, 3), 40 * i, np.uint8) for i in range(4)]
    path = write_frames_atomic(frames, tmp_path / "a.gif", duration=100, loop=0)
    assert os.listdir(tmp_path) == ["a.gif"] and path == str(tmp_path / "a.gif")
    assert iio.imread(path, index=None).shape[0] == 4


def test_a_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(OSError):  # imageio has no writer for the extension
        write_frames_atomic([np.zeros((8, 8, 3), np.uint8)], tmp_path / "a.unknownext")
    assert os.listdir(tmp_path) == []


def test_unwritable_directory_is_a_config_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match="replay_path: expected a writable directory"):
        check_replay_dir(blocker / "sub")
    with pytest.raises(ConfigError, match="replay_path: expected a writable directory"):
        write_frames_atomic([np.zeros((2, 2, 3), np.uint8)], blocker / "a.gif")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_directory_that_refuses_new_files_is_a_config_error_even_for_root():
    # os.access says /proc is writable to root; creating a file there fails all the same.
    with pytest.raises(
        ConfigError, match="replay_path: expected a writable directory, got '/proc'"
    ):
        check_replay_dir("/proc")


def test_the_write_check_leaves_nothing_behind(tmp_path):
    assert check_replay_dir(tmp_path) == str(tmp_path) and os.listdir(tmp_path) == []


@pytest.mark.parametrize("gif", ["a/b/game.gif", "a/b"])
def test_only_the_folders_a_gif_made_and_left_empty_are_removed(tmp_path, gif):
    from lzero.utils.replay_io import removing_unused_folders

    target = tmp_path / gif
    with removing_unused_folders(str(target)):
        check_gif_target(str(target))
        assert (tmp_path / "a" / "b").is_dir()
    assert os.listdir(tmp_path) == []  # "a" too, which the check made above "b"
    (tmp_path / "a").mkdir()
    with removing_unused_folders(str(target)):  # "a" was there before: it stays
        check_gif_target(str(target))
    assert os.listdir(tmp_path) == ["a"] and os.listdir(tmp_path / "a") == []
    with removing_unused_folders(str(target)), pytest.raises(RuntimeError):
        check_gif_target(str(target))
        (tmp_path / "a" / "b" / "saved.gif").write_bytes(b"GIF89a")
        raise RuntimeError  # an error after a game was saved: the folder and the game stay
    assert os.listdir(tmp_path / "a" / "b") == ["saved.gif"]
