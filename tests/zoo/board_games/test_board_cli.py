"""``play`` and ``arena`` run as real processes fed on standard input."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import time
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from cli_process import read_until

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
MODULE = [sys.executable, "-m", "zoo.board_games.cli"]


def run(
    args: list[str], stdin: str = "", cmd: list[str] = MODULE, **popen
) -> subprocess.CompletedProcess:
    popen.setdefault("env", ENV)
    return subprocess.run(
        cmd + args, input=stdin, capture_output=True, text=True, timeout=120, **popen
    )


def run_into_closed_pipe(cmd: list[str], stdin: str = "", env=ENV) -> tuple[int, str]:
    """Runs ``cmd`` with a stdout nobody reads any more, as ``cmd | head -1`` once ``head`` has
    its line; returns the exit code and stderr."""
    read_end, write_end = os.pipe()
    proc = subprocess.Popen(
        cmd, stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE, env=env
    )
    os.close(write_end)
    os.close(read_end)
    _, err = proc.communicate(stdin.encode(), timeout=120)
    return proc.returncode, err.decode()


def test_play_tictactoe_reprompts_and_announces_result():
    moves = "\n".join(["hello", "0", "5", "5"] + [str(c) for c in range(1, 10)]) + "\n"
    proc = run(["play", "tictactoe", "--bot", "rule", "--seed", "1"], moves)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    assert "Invalid move: expected a cell 1-9 (left to right, top to bottom), got 'hello'" in out
    assert "got '0'" in out and "Invalid move: '5' is not legal now" in out
    assert "Bot plays" in out and "[X]" in out and "[O]" in out
    assert re.search(r"^(You win!|The bot wins\.|Draw\.)$", out, re.M)


def test_play_connect4_saves_gif(tmp_path):
    gif = tmp_path / "game.gif"
    moves = "\n".join(str(1 + i % 7) for i in range(80)) + "\n"
    proc = run(["play", "connect4", "--seed", "2", "--gif", str(gif)], moves)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^(You win!|The bot wins\.|Draw\.)$", proc.stdout, re.M)
    assert f"Game saved as {gif}" in proc.stdout and gif.stat().st_size > 0
    assert os.listdir(tmp_path) == ["game.gif"]


def test_play_gomoku_bot_first_on_small_board():
    proc = run(["play", "gomoku", "--board-size", "9", "--first", "bot"], "e5\nz1\n")
    assert proc.returncode == 0
    out = proc.stdout
    assert out.index("Bot plays e5") < out.index("Player 2 (O), enter a coordinate a1-i9")
    assert "got 'z1'" in out and "Game abandoned." in out and "Traceback" not in out + proc.stderr


def test_end_of_input_exits_cleanly():
    proc = run(["play", "connect4"], "")
    assert proc.returncode == 0 and "Game abandoned." in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_a_closed_stdin_is_the_end_of_input():
    # Started with stdin closed (``<&-``), input() raised "lost sys.stdin" as a traceback.
    proc = subprocess.run(
        MODULE + ["play", "tictactoe"], stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0),
        capture_output=True, text=True, env=ENV, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0 and "Game abandoned." in proc.stdout, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_an_abandoned_game_says_no_gif_was_saved(tmp_path):
    gif = tmp_path / "game.gif"
    proc = run(["play", "connect4", "--gif", str(gif)], "4\n")
    assert proc.returncode == 0 and "Game abandoned: no GIF saved" in proc.stdout
    assert not gif.exists()
    # Folders made for the GIF are removed with it (only those: tmp_path stays).
    for gif in (tmp_path / "new" / "sub" / "game.gif", tmp_path / "new" / "sub"):
        proc = run(["play", "connect4", "--gif", str(gif)], "4\n")
        assert proc.returncode == 0 and "Game abandoned: no GIF saved" in proc.stdout
        assert os.listdir(tmp_path) == [], proc.stdout
        proc = run(["play", "connect4", "--bot", "alpha_beta", "--gif", str(gif)])  # tictactoe's
        assert proc.returncode == 2 and "alpha_beta" in proc.stderr
        assert os.listdir(tmp_path) == []


def _start_at_prompt(
    args: list[str], until: bytes = b"enter a cell", **popen
) -> tuple[subprocess.Popen, bytes]:
    """Starts ``args`` and returns the process, and its output so far, once it has printed
    ``until`` (by default: it waits at the move prompt)."""
    proc = subprocess.Popen(
        MODULE + args,
        stdin=popen.pop("stdin", subprocess.PIPE),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        **popen,
    )
    return proc, read_until(proc, until)


def test_ctrl_c_exits_cleanly():
    proc, out = _start_at_prompt(["play", "tictactoe"])
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert b"Game abandoned." in out + rest and b"Traceback" not in err


def test_bad_options_are_clear_errors():
    proc = run(["play", "connect4", "--board-size", "9"])
    assert proc.returncode == 2
    assert (
        "--board-size: expected only with a game of several sizes (gomoku), got it with connect4"
        in proc.stderr
    )
    proc = run(["play", "connect4", "--bot", "alpha_beta"])
    assert proc.returncode == 2 and "--bot: expected one of" in proc.stderr
    proc = run(["arena", "connect4", "--bot1", "mcts", "--mcts-simulations", "0"])
    assert proc.returncode == 2 and "--mcts-simulations: expected a positive int" in proc.stderr
    proc = run(["arena", "connect4", "--bot1", "rule", "--mcts-simulations", "500"])
    assert proc.returncode == 2 and "Playing" not in proc.stdout
    expected = "--mcts-simulations: expected an mcts bot among the bots (the option sets its strength), got"
    assert f"{expected} rule, random" in proc.stderr
    proc = run(["arena", "gomoku", "--bot1", "alpha_beta"])
    assert proc.returncode == 2 and "--bot1: expected one of" in proc.stderr
    proc = run(["arena", "tictactoe", "--games", "0"])
    assert proc.returncode == 2 and "--games: expected a positive number" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_arena_counts_add_up_and_saves_first_game(tmp_path):
    gif = tmp_path / "first.gif"
    proc = run(
        [
            "arena",
            "connect4",
            "--bot1",
            "rule",
            "--bot2",
            "random",
            "--games",
            "6",
            "--gif",
            str(gif),
        ]
    )
    assert proc.returncode == 0, proc.stderr
    rows = re.findall(r"bot(\d)\s+(\w+): wins (\d+)  draws (\d+)  losses (\d+)", proc.stdout)
    assert [r[:2] for r in rows] == [("1", "rule"), ("2", "random")]
    (w1, d1, l1), (w2, d2, l2) = [tuple(map(int, r[2:])) for r in rows]
    assert w1 + d1 + l1 == 6 and (w1, d1, l1) == (l2, d2, w2) and w1 >= 5
    assert gif.exists() and os.listdir(tmp_path) == ["first.gif"]


def test_lzero_console_script():
    script = Path(sys.executable).parent / "lzero"
    declared = {ep.name for ep in entry_points(group="lzero.commands")}
    if not script.exists() or "board_games" not in declared:
        pytest.skip("the lzero console script with the board_games entry point is not installed")
    proc = run(["play", "tictactoe", "--first", "bot"], "", cmd=[str(script)])
    assert proc.returncode == 0 and "Bot plays" in proc.stdout and "Game abandoned." in proc.stdout
    proc = run(
        ["arena", "tictactoe", "--bot1", "rule", "--bot2", "rule", "--games", "2"],
        cmd=[str(script)],
    )
    assert proc.returncode == 0 and "draws 2" in proc.stdout


def test_ctrl_c_in_arena_prints_the_games_so_far():
    args = ["arena", "gomoku", "--bot1", "rule", "--bot2", "rule", "--games", "100000"]
    proc, out = _start_at_prompt(args, b"Playing 100000 games", stdin=subprocess.DEVNULL)
    time.sleep(1.0)  # some games in
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=30)
    out += rest
    assert proc.returncode == 130, err  # a series cut short: a script must be able to tell
    assert b"Traceback" not in err and b"Interrupted after" in out
    assert re.search(rb"bot1 +rule: wins \d+  draws \d+  losses \d+", out)


def test_gif_file_has_the_usual_permissions(tmp_path):
    # A temporary file is created 0600; the saved GIF must be readable like any other file.
    old = os.umask(0o022)
    try:
        gif = tmp_path / "first.GIF"  # the suffix is matched case-insensitively
        proc = run(["arena", "tictactoe", "--games", "1", "--gif", str(gif)])
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    assert os.listdir(tmp_path) == ["first.GIF"]
    assert gif.stat().st_mode & 0o777 == 0o644


def test_gif_naming_a_directory_is_refused_before_the_game(tmp_path):
    folder = tmp_path / "d.gif"
    folder.mkdir()
    for args in (["play", "tictactoe", "--bot", "random"], ["arena", "tictactoe", "--games", "1"]):
        proc = run(args + ["--gif", str(folder)], "5\n")
        assert proc.returncode == 2 and proc.stdout == ""  # no game was played
        assert proc.stderr == (
            f"error: --gif: expected a .gif file to write, got '{folder}', a directory\n"
        )
    assert os.listdir(tmp_path) == ["d.gif"] and os.listdir(folder) == []


def test_a_gif_that_cannot_be_written_still_shows_the_result(tmp_path):
    resource = pytest.importorskip("resource")

    def limit_file_size():  # ``ulimit -f 4``: the GIF is larger
        resource.setrlimit(
            resource.RLIMIT_FSIZE, (4096, resource.getrlimit(resource.RLIMIT_FSIZE)[1])
        )

    play = ["play", "tictactoe", "--bot", "random", "--seed", "1"]
    moves = "".join(f"{cell}\n" for cell in range(1, 10))
    arena = ["arena", "tictactoe", "--games", "2"]
    for args, stdin in ((play, moves), (arena, "")):  # numba caches its kernels first, unlimited
        assert run(args, stdin).returncode == 0
    gif = tmp_path / "big.gif"
    proc = run(play + ["--gif", str(gif)], moves, preexec_fn=limit_file_size)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert re.search(r"^(You win!|The bot wins\.|Draw\.)$", proc.stdout, re.M)
    assert (
        proc.stderr
        == f"error: --gif: the game was not saved as {gif}: {os.strerror(errno.EFBIG)}\n"
    )
    proc = run(arena + ["--gif", str(gif)], preexec_fn=limit_file_size)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert re.search(r"bot2 +random: wins \d+  draws \d+  losses \d+$", proc.stdout)
    assert (
        proc.stderr
        == f"error: --gif: the game was not saved as {gif}: {os.strerror(errno.EFBIG)}\n"
    )
    assert os.listdir(tmp_path) == []
    proc = run(arena + ["--gif", str(gif), "--gif-all"], preexec_fn=limit_file_size)
    assert proc.returncode == 1 and proc.stderr == (
        f"error: --gif: the game was not saved as {tmp_path / 'big-1.gif'}: "
        f"{os.strerror(errno.EFBIG)} (and 1 more of the games were not saved)\n"
    )


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_output_piped_into_head_exits_quietly(unbuffered):
    env = {**ENV, "PYTHONUNBUFFERED": unbuffered}  # "1": every print reaches the pipe at once
    moves = "".join(f"{cell}\n" for cell in range(1, 10))
    for args, stdin in (
        (["arena", "gomoku", "--games", "3"], ""),
        (["play", "tictactoe", "--bot", "random"], moves),
    ):
        assert run_into_closed_pipe(MODULE + args, stdin, env) == (1, "")
    script = Path(sys.executable).parent / "lzero"
    if script.exists() and "board_games" in {
        ep.name for ep in entry_points(group="lzero.commands")
    }:
        assert run_into_closed_pipe([str(script), "arena", "tictactoe"], "", env) == (1, "")


def test_mcts_bot_is_strong_by_default():
    # The env config keeps LightZero's 50 simulations: then MCTS only splits the games.
    arena = ["arena", "gomoku", "--bot1", "mcts", "--bot2", "rule", "--games", "4"]
    for extra, record in (
        ([], "wins 4  draws 0  losses 0"),
        (["--mcts-simulations", "50"], "wins 2  draws 0  losses 2"),
    ):
        proc = run(arena + extra)
        assert proc.returncode == 0, proc.stderr
        assert re.search(rf"bot1 +mcts: {record}", proc.stdout)


def test_quit_and_help_at_the_prompt():
    proc = run(["play", "tictactoe", "--bot", "random"], "help\n5\nquit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Type help for how to move, quit to leave." in out
    assert "enter a cell 1-9 (left to right, top to bottom), or quit: " in out
    assert "Type a cell 1-9 (left to right, top to bottom) and press Enter." in out
    assert "Type quit, or press Ctrl-D or Ctrl-C, to leave the game." in out
    assert out.count("Bot plays") == 1 and "Game abandoned." in out
    assert "Traceback" not in proc.stderr and "Invalid move" not in out


def test_piped_control_characters_are_echoed_escaped():
    proc = run(["play", "connect4"], "\x1b[A\x07\n")
    assert proc.returncode == 0, proc.stderr
    assert "\x1b" not in proc.stdout and "\x07" not in proc.stdout
    assert "\\x1b[A\\x07" in proc.stdout  # the echo, then the error's repr


def test_a_long_bad_input_is_echoed_cut_short():
    junk = "x" * 5000
    proc = run(["play", "connect4"], junk + "\n")
    assert proc.returncode == 0, proc.stderr
    assert f"got {'x' * 24!r}... (5000 characters)" in proc.stdout
    assert max(len(line) for line in proc.stdout.splitlines()) < 200


def test_gif_with_another_suffix_is_an_error_not_a_folder(tmp_path):
    target = tmp_path / "x.png"
    proc = run(["play", "tictactoe", "--gif", str(target)], "5\n")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "--gif: expected a file ending in .gif or a folder, got" in proc.stderr
    assert os.listdir(tmp_path) == []


def test_help_shows_the_defaults():
    for command, defaults in (
        ("play", ["(default: rule)", "(default: human)", "(default: 2000)"]),
        ("arena", ["(default: 10)", "(default: random)", "(default: 0)"]),
    ):
        proc = run([command, "--help"])
        assert proc.returncode == 0
        text = " ".join(proc.stdout.split())  # argparse wraps lines
        for default in defaults:
            assert default in text, (command, default)


def test_arena_gif_all_keeps_every_game(tmp_path):
    gif = tmp_path / "series.gif"
    proc = run(
        ["arena", "tictactoe", "--bot2", "rule", "--games", "3", "--gif", str(gif), "--gif-all"]
    )
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path)) == [f"series-{g}.gif" for g in (1, 2, 3)]
    for g in (1, 2, 3):
        assert f"Game saved as {tmp_path / f'series-{g}.gif'}" in proc.stdout


def test_arena_gif_all_without_gif_is_refused_before_any_game():
    proc = run(["arena", "tictactoe", "--games", "2", "--gif-all"])
    assert proc.returncode != 0
    assert "--gif-all: expected --gif" in proc.stderr and "Playing" not in proc.stdout


def test_arena_names_which_bot_played_which_colour(monkeypatch):
    from zoo.board_games import cli

    seen = []
    args = cli.argparse.Namespace(
        game="tictactoe", board_size=None, gif=None, mcts_simulations=10, seed=0,
        bot1="rule", bot2="random", games=2, gif_all=False, agent_simulations=None,
    )  # fmt: skip
    env = cli.make_env(args)
    original = env.reset

    def reset(*a, **k):
        seen.append(env.replay_players)
        return original(*a, **k)

    monkeypatch.setattr(env, "reset", reset)
    cli._play_series(env, args, {1: [0, 0, 0], 2: [0, 0, 0]}, [], {})
    assert seen == [("bot1 rule", "bot2 random"), ("bot2 random", "bot1 rule")]
    assert env.caption()[1] == "X: bot2 random, O: bot1 rule"


def test_lzero_version_and_demo_gif(tmp_path):
    lzero = [sys.executable, "-m", "lzero.cli"]
    proc = run(["--version"], cmd=lzero)
    assert proc.returncode == 0 and re.fullmatch(r"lzero \S+\n", proc.stdout)
    gif = tmp_path / "demo.gif"
    for name in ("tictactoe", "cartpole_lightzero"):
        proc = run(["demo", name, "--gif", str(gif)], cmd=lzero)
        assert proc.returncode == 0, proc.stderr
        assert f"Episode saved as {gif}" in proc.stdout and os.listdir(tmp_path) == ["demo.gif"]
        gif.unlink()
    proc = run(["demo", "tictactoe", "--gif", str(tmp_path / "demo.mp4")], cmd=lzero)
    assert proc.returncode == 2 and "expected a file ending in .gif or a folder" in proc.stderr
    assert os.listdir(tmp_path) == []


def test_an_unknown_env_name_lists_the_close_matches_only():
    lzero = [sys.executable, "-m", "lzero.cli"]
    proc = run(["demo", "CartPole-v1"], cmd=lzero)
    assert proc.returncode == 2 and proc.stdout == ""
    err = proc.stderr.strip()
    assert err == (
        "lzero demo: error: unknown env 'CartPole-v1'; close matches: ['cartpole_lightzero']. "
        "`lzero envs` (or ENV_REGISTRY.names()) lists them all."
    )
    assert "connect4" not in err and "Acrobot" not in err


def test_a_negative_agent_simulation_count_names_the_option():
    proc = run(["play", "tictactoe", "--agent-simulations", "-1"], "")
    assert proc.returncode == 2
    assert "argument --agent-simulations: expected a non-negative int, got '-1'" in proc.stderr


def test_agent_options_without_an_agent_bot_are_refused():
    """``--agent-*`` options set a checkpoint's player: with no ``agent:PATH`` bot they would be
    ignored, so they are refused before any game."""
    for args in (
        ["arena", "tictactoe", "--bot1", "rule", "--bot2", "rule", "--agent-fpu-reduction", "0.2"],
        ["play", "tictactoe", "--bot", "rule", "--agent-simulations", "4", "--agent-reuse-tree"],
    ):
        proc = run(args, "5\n")
        assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
        assert (
            "expected an agent:PATH or pretrained bot" in proc.stderr and "--agent-" in proc.stderr
        )


def test_an_unknown_dtype_is_refused_before_the_checkpoint_loads(tmp_path):
    """``--agent-dtype`` and ``lzero eval --dtype`` name the allowed dtypes at once: the
    checkpoint path here does not exist, so an error about it would mean it was read first."""
    missing = tmp_path / "missing.pth.tar"
    lzero = [sys.executable, "-m", "lzero.cli"]  # the console script: play and eval
    for args, option in (
        (
            ["play", "tictactoe", "--bot", f"agent:{missing}", "--agent-dtype", "float16"],
            "--agent-dtype",
        ),
        (["eval", "--ckpt", str(missing), "--dtype", "float16"], "--dtype"),
    ):
        proc = run(args, "5\n", cmd=lzero)
        assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
        assert f"argument {option}: invalid choice: 'float16' (choose from 'float32', " in (
            proc.stderr
        )
        assert "missing.pth.tar" not in proc.stderr


def test_a_gif_folder_that_cannot_be_written_is_refused_before_the_game(tmp_path):
    """``--gif`` in a folder where no file can be made (a file in the way of the folder, or
    /proc) is refused before any move, saying why."""
    blocker = tmp_path / "t.txt"
    blocker.write_text("x")
    for gif, why in (
        (blocker / "x.gif", "it or a folder above it is a file"),
        (Path("/proc/x.gif"), "creating a file in it failed"),
    ):
        for args in (["play", "tictactoe", "--bot", "random"], ["arena", "tictactoe"]):
            proc = run(args + ["--gif", str(gif)], "5\n")
            assert proc.returncode == 2 and proc.stdout == "", proc.stderr
            assert f"--gif's folder: expected a writable directory, got '{gif.parent}'" in (
                proc.stderr
            )
            assert why in proc.stderr and "Traceback" not in proc.stderr


def test_a_full_column_and_a_taken_cell_say_which(monkeypatch, capsys):
    """An illegal move's reason names what the game has: a taken cell, a full column."""
    import numpy as np

    from zoo.board_games.human_input import ask_move

    mask = np.ones(7, np.int8)
    mask[3] = 0  # column 4 full
    answers = iter(["4", "5"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert ask_move(mask, 1, "X", "column", 6, 7) == 4
    assert "'4' is not legal now (that column is full)" in capsys.readouterr().out
    proc = run(["play", "tictactoe", "--bot", "random", "--seed", "1"], "5\n5\nquit\n")
    assert "'5' is not legal now (that cell is taken)" in proc.stdout


def test_undecodable_bytes_and_huge_numbers_are_invalid_moves_not_errors(monkeypatch, capsys):
    """Under a strict UTF-8 locale (en_US.UTF-8; C.UTF-8 hides it) one byte such as 0xe9
    ended the game with a UnicodeDecodeError, and 4,301 digits re-prompted with Python's
    int-size message: both are invalid text, answered by what is allowed."""
    import io

    import numpy as np

    from zoo.board_games.human_input import ask_move

    lines = b"\xe9\n" + b"5" * 4301 + b"\n" + b"0" * 5000 + b"5\n0005\n"
    stdin = io.TextIOWrapper(io.BytesIO(lines), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    assert ask_move(np.ones(9, np.int8), 1, "X", "cell", 3, 3) == 4
    out = capsys.readouterr().out
    assert out.count("Invalid move: expected a cell 1-9") == 3, out
    assert "\\udce9" in out and "set_int_max_str_digits" not in out


def test_gif_paths_starting_with_a_tilde_are_the_home_folders(tmp_path):
    """The shell leaves --gif=~/x.gif as is, so the GIF went to a folder named '~' in the
    working directory while the message said the home folder (agent:~/... was expanded)."""
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    home.mkdir()
    cwd.mkdir()
    moves = "\n".join(str(c) for c in range(1, 10)) + "\n"
    proc = run(
        ["play", "tictactoe", "--bot", "random", "--seed", "0", "--gif=~/game.gif"],
        moves,
        cwd=cwd,
        env={**ENV, "HOME": str(home)},
    )
    assert proc.returncode == 0, proc.stderr
    assert (home / "game.gif").is_file() and not (cwd / "~").exists()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_kill_and_hangup_exit_and_remove_the_gif_folders(tmp_path, sig):
    """``kill`` or a closed terminal ends the game with 128 + the signal, and the folders
    ``--gif`` made for it are removed as on quit, EOF and Ctrl-C (they had stayed)."""
    proc, _ = _start_at_prompt(
        ["play", "tictactoe", "--gif", str(tmp_path / "a" / "g.gif")],
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL),  # if under nohup
    )
    assert (tmp_path / "a").is_dir()
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig and b"Traceback" not in err
    assert os.listdir(tmp_path) == []


def test_an_ignored_hangup_stays_ignored(tmp_path):
    """Under ``nohup`` (SIGHUP ignored) a hangup does not end the game."""
    proc, out = _start_at_prompt(
        ["play", "tictactoe"], preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN)
    )
    proc.send_signal(signal.SIGHUP)
    rest, _ = proc.communicate(b"quit\n", timeout=30)
    assert proc.returncode == 0 and b"Game abandoned." in out + rest
