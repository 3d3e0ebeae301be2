"""Fixtures of the UCT tests: the small games of ``uct_test_games.py`` as ``GameKernels``."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from uct_test_games import (  # noqa: E402
    c4_apply_action,
    c4_legal_actions,
    c4_result_after,
    ttt_apply_action,
    ttt_legal_actions,
    ttt_result_after,
)

from lzero.mcts.game import GameKernels  # noqa: E402


@pytest.fixture
def ttt() -> GameKernels:
    return GameKernels(ttt_legal_actions, ttt_apply_action, ttt_result_after, 9, (3, 3), True)


@pytest.fixture
def c4() -> GameKernels:
    return GameKernels(c4_legal_actions, c4_apply_action, c4_result_after, 7, (6, 7), False)
