import os
import subprocess
import sys
import time

import pytest

from lzero.cli import build_parser, main


def test_help_lists_subcommands():
    out = subprocess.run(
        [sys.executable, "-m", "lzero.cli", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "envs" in out and "demo" in out


def test_unknown_command_prints_usage_and_fails():
    proc = subprocess.run(
        [sys.executable, "-m", "lzero.cli", "fly"], capture_output=True, text=True
    )
    assert (
        proc.returncode == 2
        and "usage: lzero" in proc.stderr
        and "invalid choice: 'fly'" in proc.stderr
    )


def test_bad_argument_fails():
    proc = subprocess.run(
        [sys.executable, "-m", "lzero.cli", "demo", "connect4", "--seed", "x"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "invalid int value: 'x'" in proc.stderr


def test_unknown_env_is_an_error_with_the_closest_name(capsys, tmp_path):
    assert main(["demo", "conect4"]) == 2
    assert "close matches: ['connect4']" in capsys.readouterr().err
    # The folder --gif made before the env was looked up is not left behind.
    assert main(["demo", "conect4", "--gif", str(tmp_path / "new" / "x.gif")]) == 2
    assert "close matches: ['connect4']" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []


def test_envs_lists_registered(capsys):
    assert main(["envs"]) == 0
    assert "connect4" in capsys.readouterr().out.split()
    assert build_parser().prog == "lzero"


def test_unknown_env_message_is_not_quoted_like_a_key_error(capsys):
    assert main(["demo", "connect5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lzero demo: error: unknown env 'connect5'")


def test_the_command_line_starts_without_importing_torch():
    code = "import sys; from lzero.cli import build_parser; build_parser(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_ctrl_c_while_starting_exits_without_traceback(monkeypatch, capsys):
    import lzero.cli as cli

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert main(["play", "connect4"]) == 0
    assert main(["arena", "connect4"]) == 130  # a series cut short, not a game left
    assert main(["train", "x"]) == 130
    assert "Traceback" not in capsys.readouterr().err


def test_ctrl_c_caught_and_wrapped_by_a_library_still_exits_cleanly(monkeypatch, capsys):
    # numba's compiler and C callbacks can turn a KeyboardInterrupt into their own error,
    # with the interrupt as its context: that is still Ctrl-C, not a crash.
    import lzero.cli as cli

    def wrapped(kind):
        def build():
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt as interrupt:
                if kind == "cause":
                    raise RuntimeError("compilation failed") from interrupt
                raise SystemError("returned a result with an exception set")  # noqa: B904

        return build

    for kind in ("cause", "context"):
        monkeypatch.setattr(cli, "build_parser", wrapped(kind))
        assert main(["play", "connect4"]) == 0
        assert main(["arena", "connect4"]) == 130
        assert main(["train", "x"]) == 130
        assert "Traceback" not in capsys.readouterr().err

    def broken():
        raise RuntimeError("a real bug")

    monkeypatch.setattr(cli, "build_parser", broken)
    with pytest.raises(RuntimeError, match="a real bug"):
        main(["train", "x"])


@pytest.mark.parametrize("unbuffered", ["", "1"])
@pytest.mark.parametrize("args, codes", [(["envs"], {1}), (["--help"], {0, 1})])
def test_output_piped_into_head_exits_quietly(args, codes, unbuffered):
    # ``lzero envs | head -1``: the reader goes away; no BrokenPipeError traceback, and no
    # "Exception ignored" from the interpreter's final flush either. (argparse ignores write
    # errors itself: unbuffered, ``--help`` exits 0.)
    read_end, write_end = os.pipe()
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    proc = subprocess.Popen(
        [sys.executable, "-m", "lzero.cli", *args],
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(write_end)
    os.close(read_end)
    _, err = proc.communicate(timeout=60)
    assert err == b"" and proc.returncode in codes


@pytest.mark.parametrize(
    ("signame", "raised"), [("SIGINT", KeyboardInterrupt), ("SIGTERM", SystemExit)]
)
def test_a_signal_while_numba_compiles_is_raised_when_the_compilation_is_done(signame, raised):
    """A Ctrl-C or ``kill`` inside the compilation can come within LLVM's callbacks into
    Python, where it was printed as ignored (the program went on), or aborted the process
    ("double free"). It is raised after."""
    import signal

    signum = getattr(signal, signame)
    # A Ray test earlier in this worker leaves Ray's SIGTERM handler installed (ray.init sets
    # it in the driver); the commands replace only the default one, so start from it.
    previous = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        _signal_during_compilation(signum, raised)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _signal_during_compilation(signum, raised):
    import signal

    import numba
    import numba.core.event as numba_event

    from lzero.utils.signals import exiting_on_termination, interrupts_outside_compilation

    @numba.njit  # not cached: it compiles here
    def add_one(x):
        return x + 1

    class Signal(numba_event.Listener):  # the signal comes as the compilation starts
        def on_start(self, event):
            signal.raise_signal(signum)

        def on_end(self, event):
            pass

    with exiting_on_termination(), interrupts_outside_compilation():
        with numba_event.install_listener("numba:compiler_lock", Signal()):
            with pytest.raises(raised):
                add_one(1)
        assert len(add_one.signatures) == 1  # compiled in full before the signal's exception
        with pytest.raises(raised):  # outside a compilation: at once
            signal.raise_signal(signum)
            time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
