"""``lzero solve connect4``: scores, best move and outcome; one-line errors."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from cli_process import read_until

from lzero.cli import main
from zoo.board_games.solve_cli import outcome


def test_solve_prints_scores_best_move_and_outcome(capsys):
    assert main(["solve", "connect4", "2252576253462244111563365343671351441"]) == 0
    out = capsys.readouterr().out
    assert "column 1: full" in out and "column 6: -1  <- best" in out and "column 7: -2\n" in out
    assert "best move: column 6; the player to move loses" in out


def test_solve_rejects_bad_moves(capsys):
    assert main(["solve", "connect4", "44x"]) == 2
    assert "expected columns 1-7, got 'x' at move 3" in capsys.readouterr().err


def test_outcome_counts_stones_from_now():
    assert outcome(1, 0) == "the player to move wins with its 21st stone from now"
    assert outcome(-2, 4).endswith("the opponent wins with its 18th stone from now")
    assert outcome(0, 10) == "draw with perfect play"


NO_BOOK = """
import sys
import zoo.board_games.solve_cli as solve_cli
solve_cli.book_available = lambda: False  # the empty board then takes hours
from lzero.cli import main
sys.exit(main(["solve", "connect4"]))
"""


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_long_solve_stops_at_ctrl_c_and_kill(signum, code):
    """Found by QA: without the book, ``lzero solve connect4`` searched the empty board for
    hours and neither Ctrl-C nor ``kill`` stopped it (Python's handlers wait for the numba
    call to return). Both now end it within seconds, with one line and no traceback."""
    proc = subprocess.Popen(
        [sys.executable, "-c", NO_BOOK], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        read_until(proc, b"Ctrl-C stops it", timeout=120)
        time.sleep(1.0)  # inside the search
        sent = time.time()
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
        assert time.time() - sent < 10
    finally:
        proc.kill()
    assert proc.returncode == code, err
    assert b"Traceback" not in err and (signum != signal.SIGINT or b"interrupted" in err)


def test_bad_moves_are_refused_before_the_note_on_the_book(capsys, monkeypatch):
    import zoo.board_games.solve_cli as solve_cli

    monkeypatch.setattr(solve_cli, "book_available", lambda: False)
    assert main(["solve", "connect4", "0"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "expected columns 1-7, got '0' at move 1" in captured.err
