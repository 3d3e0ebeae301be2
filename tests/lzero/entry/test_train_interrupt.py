"""`lzero train` as a user runs it: Ctrl-C (or SIGTERM) leaves a loadable last checkpoint and
exit code 130 (143), and without a terminal the output ends with why training stopped."""

from __future__ import annotations

import copy
import os
import signal
import subprocess
import sys
import time

import pytest

torch = pytest.importorskip("torch")
from lzero.entry import train_muzero_with_gym_env  # noqa: E402
from lzero.policy import MuZeroPolicy  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from test_train_muzero_with_gym_env import TINY_CREATE, TINY_MAIN  # noqa: E402


def write_config(tmp_path):
    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / "run")
    path = tmp_path / "tiny_config.py"
    path.write_text(f"main_config = {main!r}\ncreate_config = {TINY_CREATE!r}\n")
    return path, main


@pytest.mark.parametrize(
    ("signum", "code"),
    # Ctrl-C; kill, timeout, a scheduler; the terminal closed
    [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)],
)
def test_an_interrupt_writes_a_loadable_last_checkpoint_and_exits_128_plus_signal(
    tmp_path, signum, code
):
    path, main = write_config(tmp_path)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", "from lzero.cli import main; raise SystemExit(main())", "train",
         str(path), "--max-env-step", "1000000"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL),  # if under nohup
    )  # fmt: skip
    lines = []
    try:
        deadline = time.time() + 240
        while time.time() < deadline:  # wait for the second evaluation: training is under way
            line = proc.stdout.readline()
            lines.append(line)
            if sum(x.startswith("eval at iter") for x in lines) == 2 or not line:
                break
        proc.send_signal(signum)
        out, _ = proc.communicate(timeout=120)
    finally:  # a run that did not stop must not outlive the test
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code, "".join(lines) + out
    assert "stopped (interrupted)" in out
    state = torch.load(tmp_path / "run" / "ckpt" / "ckpt_last.pth.tar", weights_only=True)
    policy = MuZeroPolicy(main["policy"])
    policy.load_state_dict(state)
    assert state["env_step"] > 0 and policy.train_iter == state["train_iter"]


def test_last_line_says_why_training_stopped(tmp_path, capsys):
    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / "run")
    train_muzero_with_gym_env([main, copy.deepcopy(TINY_CREATE)], seed=0, max_env_step=30)
    out = capsys.readouterr().out.strip().splitlines()
    assert (
        out[0]
        == f"evaluating the untrained network first: {main['env']['n_evaluator_episode']} episodes"
    )
    assert out[-1].startswith("stopped (max_env_step spent) after ")
    assert "best eval return" in out[-1] and "ckpt_best.pth.tar" in out[-1]
    main["env"]["stop_value"] = 1.0  # reached by the first evaluation
    main["exp_name"] = str(tmp_path / "run2")
    train_muzero_with_gym_env([main, copy.deepcopy(TINY_CREATE)], seed=0, max_env_step=30)
    assert (
        capsys.readouterr()
        .out.strip()
        .splitlines()[-1]
        .startswith("stopped (stop value 1.0 reached at env step 0)")
    )
    # A wall-clock budget already spent stops before the first collect, however many env steps
    # are left (the first run above collected 30 with the same config).
    main["env"]["stop_value"] = 1e9
    main["exp_name"] = str(tmp_path / "run3")
    train_muzero_with_gym_env(
        [main, copy.deepcopy(TINY_CREATE)], seed=0, max_env_step=30, max_time_s=0
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("stopped (max_time_s 0 spent) after 0 iterations, 0 env steps")


def test_a_failure_is_named_in_the_last_line_and_still_raised(tmp_path, capsys, monkeypatch):
    """An error inside the loop propagates; the stop line names it instead of a budget."""
    from lzero.worker import MuZeroCollector

    def broken(self, n_episode, **kwargs):
        raise RuntimeError("collector broke")

    monkeypatch.setattr(MuZeroCollector, "collect", broken)
    main = copy.deepcopy(TINY_MAIN)
    main["exp_name"] = str(tmp_path / "run")
    with pytest.raises(RuntimeError, match="collector broke"):
        train_muzero_with_gym_env([main, copy.deepcopy(TINY_CREATE)], seed=0, max_env_step=30)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("stopped (failed: RuntimeError) after 0 iterations, 0 env steps")
    assert (tmp_path / "run" / "ckpt" / "ckpt_last.pth.tar").is_file()
