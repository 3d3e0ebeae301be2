"""``lzero solve connect4``: scores, best move and outcome; one-line errors."""

from __future__ import annotations

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
