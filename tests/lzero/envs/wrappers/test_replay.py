"""enable_save_replay writes one GIF per episode: the first frame plus one per step."""

import importlib.util
import os
import re
import subprocess
import sys

import gymnasium
import imageio.v3 as iio
import numpy as np
import pytest

from lzero.envs.wrappers import DingEnvWrapper
from lzero.errors import ConfigError, GameOverError, ReplayWriteWarning


def test_gif_has_the_first_frame_plus_one_per_step(tmp_path, counter_env_cls):
    env = DingEnvWrapper(counter_env_cls(goal=3, limit=10))
    env.seed(4, dynamic_seed=False)
    env.enable_save_replay(str(tmp_path))
    for episode, actions in enumerate([[1, 0, 1, 1], [0, 0, 1, 1, 0, 1]]):
        env.reset()
        for a in actions:
            ts = env.step(a)
        assert ts.done
        path = ts.info["replay_path"]
        assert os.path.dirname(path) == str(tmp_path)
        assert re.fullmatch(
            rf"CounterEnv_seed4_pid\d+_rec\d+_episode{episode:04d}\.gif", os.path.basename(path)
        )
        frames = iio.imread(path, index=None)
        assert frames.shape == (len(actions) + 1, 8, 8, 3)
        # Frame t lights pixel t: the frames are the env's renders, in order.
        lit = [int(np.argmax(f.reshape(-1) > 127)) for f in frames]
        assert lit == list(range(len(actions) + 1))


def test_env_built_from_env_id_is_rebuilt_to_render(tmp_path):
    env = DingEnvWrapper(cfg={"env_id": "CartPole-v1"})
    env.seed(0)
    env.reset()  # built without render_mode
    env.enable_save_replay(str(tmp_path / "replays"))
    env.reset()
    for _ in range(500):
        ts = env.step(env.random_action())
        if ts.done:
            break
    # Files are named by the episode's own seed (here a dynamic one) and the episode count.
    files = list((tmp_path / "replays").glob("CartPole-v1_seed*_episode0000.gif"))
    assert [str(f) for f in files] == [ts.info["replay_path"]]
    assert iio.imread(files[0], index=None).shape[-1] == 3
    env.close()


def test_enable_save_replay_without_a_path_records_to_di_engines_video_folder(
    tmp_path, monkeypatch, counter_env_cls
):
    monkeypatch.chdir(tmp_path)
    env = DingEnvWrapper(counter_env_cls(render_mode="rgb_array"))
    env.enable_save_replay()  # DI-engine's default; it was a TypeError
    env.seed(0, dynamic_seed=False)
    env.reset()
    ts = env.step(env.random_action())
    while not ts.done:
        ts = env.step(env.random_action())
    assert os.path.dirname(os.path.abspath(ts.info["replay_path"])) == str(tmp_path / "video")
    env.enable_save_replay(None)  # ours: stops recording
    env.reset()
    ts = env.step(env.random_action())
    while not ts.done:
        ts = env.step(env.random_action())
    assert "replay_path" not in ts.info and len(list((tmp_path / "video").iterdir())) == 1


def test_a_reset_whose_first_frame_fails_starts_no_episode(tmp_path, counter_env_cls):
    """The old episode's running state stayed: a step then played the reset env on."""

    class NoFrames(counter_env_cls):
        def render(self):
            raise OSError("renderer gone")

    env = DingEnvWrapper(NoFrames())
    env.reset()
    env.step(1)
    env.enable_save_replay(str(tmp_path))
    with pytest.raises(OSError, match="renderer gone"):
        env.reset()
    with pytest.raises(GameOverError):
        env.step(1)


def _refused_then_unchanged(env, tmp_path):
    """``enable_save_replay`` refuses the env, then the env plays on and records nothing.
    It had kept the path: every later ``reset`` raised, or each ``step`` moved the env and
    then raised."""
    with pytest.raises(
        ConfigError, match=r"expected an env with render_mode='rgb_array', got None"
    ):
        env.enable_save_replay(str(tmp_path / "replays"))
    env.reset()
    ts = env.step(env.random_action())
    assert ts.obs is not None and "replay_path" not in ts.info
    assert not (tmp_path / "replays").exists()  # the mode is checked before the folder is made


def test_given_env_must_render_rgb_array(tmp_path, counter_env_cls):
    _refused_then_unchanged(DingEnvWrapper(counter_env_cls(render_mode=None)), tmp_path)
    _refused_then_unchanged(DingEnvWrapper(gymnasium.make("CartPole-v1")), tmp_path)


def test_a_factory_env_that_does_not_render_is_refused_up_front(tmp_path):
    _refused_then_unchanged(DingEnvWrapper(lambda: gymnasium.make("CartPole-v1")), tmp_path)


def test_mp4_needs_a_writer_backend(monkeypatch, counter_env_cls):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name in ("imageio_ffmpeg", "av") else real(name, *a),
    )
    with pytest.raises(ConfigError, match=r"replay_format 'mp4': expected imageio-ffmpeg or av"):
        DingEnvWrapper(counter_env_cls(), cfg={"replay_format": "mp4"})


def test_enabling_replays_mid_episode_ends_that_episode(tmp_path):
    env = DingEnvWrapper(cfg={"env_id": "CartPole-v1"})
    env.reset()
    env.step(0)
    env.enable_save_replay(str(tmp_path))  # the env is rebuilt to render rgb_array frames
    with pytest.raises(GameOverError, match="call reset first"):
        env.step(0)
    env.reset()
    assert env.env.render_mode == "rgb_array"


def test_unwritable_replay_path_is_a_clear_error_at_once(tmp_path, counter_env_cls):
    # It used to surface as a bare OSError from the last step() of the first episode.
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = DingEnvWrapper(counter_env_cls(goal=3, limit=10))
    with pytest.raises(ConfigError, match=r"replay_path: expected a writable directory, got"):
        env.enable_save_replay(str(blocker / "replays"))
    assert os.listdir(tmp_path) == ["file"]


def test_failed_replay_write_leaves_no_file_and_the_episode_ends_normally(
    tmp_path, counter_env_cls, monkeypatch
):
    """The last step still returns its timestep (the episode is over whatever happens to the
    file), with a warning and the error in ``info``; the next episode records afresh."""

    def broken(path, *args, **kwargs):
        with open(path, "wb") as f:
            f.write(b"GIF89a")  # a partial file, as a crash mid-write leaves
        raise OSError("disk full")

    env = DingEnvWrapper(counter_env_cls(goal=3, limit=10))
    env.enable_save_replay(str(tmp_path))
    env.reset()
    write = iio.imwrite
    monkeypatch.setattr(iio, "imwrite", broken)
    with pytest.warns(
        ReplayWriteWarning, match="replay of this episode was not written: disk full"
    ):
        timesteps = [env.step(a) for a in (1, 1, 1)]
    assert timesteps[-1].done and timesteps[-1].info["replay_error"] == "disk full"
    assert "replay_path" not in timesteps[-1].info and str(env.last_replay_error) == "disk full"
    assert os.listdir(tmp_path) == []
    monkeypatch.setattr(iio, "imwrite", write)
    env.reset()
    for a in (1, 1, 1):
        timestep = env.step(a)
    assert env.last_replay_error is None
    assert len(iio.imread(timestep.info["replay_path"], index=None)) == 4  # this episode only


def test_replay_file_mode_follows_the_umask(tmp_path, counter_env_cls):
    old = os.umask(0o022)
    try:
        env = DingEnvWrapper(counter_env_cls(goal=2, limit=10))
        env.enable_save_replay(str(tmp_path))
        env.reset()
        for a in (1, 1):
            ts = env.step(a)
    finally:
        os.umask(old)
    assert os.stat(ts.info["replay_path"]).st_mode & 0o777 == 0o644


def test_envs_sharing_a_folder_and_a_seed_never_overwrite_each_other(tmp_path, counter_env_cls):
    # Names held only the id, the seed and a per-recorder count, so two envs seeded alike
    # (or a recorder rebuilt by a second enable_save_replay) wrote the same file.
    paths = []
    for _ in range(2):
        env = DingEnvWrapper(counter_env_cls(goal=2, limit=10))
        env.seed(4, dynamic_seed=False)
        for _ in range(2):
            env.enable_save_replay(str(tmp_path))
            env.reset()
            for a in (1, 1):
                ts = env.step(a)
            paths.append(ts.info["replay_path"])
    assert len(set(paths)) == 4 and len(os.listdir(tmp_path)) == 4


def test_recording_on_a_headless_machine_prints_nothing(tmp_path):
    """gymnasium renders with pygame; without a screen SDL used to print display and ALSA errors."""
    code = (
        "from lzero.envs import DingEnvWrapper\n"
        "env = DingEnvWrapper(cfg={'env_id': 'CartPole-v1'})\n"
        f"env.enable_save_replay({str(tmp_path)!r})\n"
        "env.seed(0)\n"
        "env.reset()\n"
        "while not env.step(env.random_action()).done:\n"
        "    pass\n"
    )
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SDL_", "PYGAME_")) and k not in ("DISPLAY", "WAYLAND_DISPLAY")
    }
    proc = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and proc.stdout == ""
    assert len(list(tmp_path.glob("*.gif"))) == 1
