"""MuZero's board-game evaluation: who plays which colour, what the tree is told, and results
against a bot whose games are known."""

from __future__ import annotations

import numpy as np
import pytest

from lzero.worker.muzero_board_evaluator import MuZeroBoardEvaluator

CREATE = dict(
    env=dict(type="tictactoe", import_names=["zoo.board_games.tictactoe.envs.tictactoe_env"])
)


class FirstLegal:
    """Plays the lowest legal cell and records what the search was asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[np.ndarray, np.ndarray]] = []

    def search(self, obs, mask, rng=None, explore=True, to_play=None):
        self.calls.append((np.array(obs), np.array(to_play)))
        actions = np.asarray(mask).argmax(axis=1)
        return actions, np.zeros(np.shape(mask), np.float32), np.zeros(len(obs))


@pytest.mark.parametrize(
    ("battle_mode", "colours", "tree_players"),
    [("self_play_mode", {1, 2}, {1, 2}), ("play_with_bot_mode", {1}, {-1})],
)
def test_colours_and_tree_follow_the_training_mode(battle_mode, colours, tree_players):
    policy = FirstLegal()
    ev = MuZeroBoardEvaluator(policy, CREATE, dict(battle_mode=battle_mode), bots=["rule"])
    results = ev.eval(4)
    assert results.shape == (4,) and set(results.tolist()) <= {-1.0, 0.0, 1.0}
    seen_tree = set()
    seen_colour = set()
    for obs, to_play in policy.calls:
        seen_tree |= set(to_play.tolist())
        # The third plane holds the mover's id (halved: scale=True), so it names the colour.
        seen_colour |= set((obs.reshape(len(obs), 3, 3, 3)[:, 2, 0, 0] * 2).astype(int).tolist())
    assert seen_tree == tree_players
    assert seen_colour == colours
    assert (
        set(ev.results) == {"rule"}
        and sum(ev.results["rule"][k] for k in ("win", "draw", "loss")) == 1
    )


def test_lowest_cell_player_loses_to_the_rule_bot_every_game():
    # Always the lowest empty cell, as player 1: the rule bot blocks every line that plain
    # filling order threatens, so the agent never wins; the same seed replays the same games.
    ev = MuZeroBoardEvaluator(FirstLegal(), CREATE, dict(battle_mode="play_with_bot_mode"),
                              bots=["rule"], seed=3)  # fmt: skip
    first = ev.eval(6)
    again = MuZeroBoardEvaluator(FirstLegal(), CREATE, dict(battle_mode="play_with_bot_mode"),
                                 bots=["rule"], seed=3).eval(6)  # fmt: skip
    assert (first <= 0).all()
    np.testing.assert_array_equal(first, again)


def test_evaluation_plays_the_bot_without_its_training_noise():
    # A training config may make the bot err (prob_random_action_in_bot); evaluation must not.
    cfg = dict(battle_mode="play_with_bot_mode", prob_random_action_in_bot=1.0)
    noisy = MuZeroBoardEvaluator(FirstLegal(), CREATE, cfg, bots=["rule"], seed=5).eval(6)
    plain = MuZeroBoardEvaluator(
        FirstLegal(), CREATE, dict(battle_mode="play_with_bot_mode"), bots=["rule"], seed=5
    ).eval(6)
    np.testing.assert_array_equal(noisy, plain)
