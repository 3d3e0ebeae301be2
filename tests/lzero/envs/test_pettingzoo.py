"""PettingZoo's own API, parallel, seed and render tests on every board game, and the games
themselves against the board env played move by move."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402

from lzero.envs import ENV_REGISTRY  # noqa: E402
from lzero.envs.pettingzoo import env, parallel_env  # noqa: E402

GAMES = [("tictactoe", {}), ("connect4", {}), ("gomoku", {"board_size": 6})]


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_pettingzoo_api_tests_pass(name, config):
    api_test(env(name, **config), num_cycles=200)
    parallel_api_test(parallel_env(name, **config), num_cycles=200)
    seed_test(functools.partial(env, name, **config), num_cycles=50)
    render_test(functools.partial(env, name, **config))


@pytest.mark.parametrize(("name", "config"), GAMES)
def test_aec_game_matches_the_board_env(name, config):
    # The same random legal moves in the AEC env and in the board env itself: same boards,
    # the mover of the last move gets the env's reward and the other its negation.
    rng = np.random.default_rng(1)
    aec = env(name, **config)
    aec.reset(seed=3)
    ref = ENV_REGISTRY.build(name, dict(config, battle_mode="self_play_mode"))
    ref.reset()
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        player = aec.possible_agents.index(agent) + 1
        assert player == ref.current_player
        board = ref.board
        np.testing.assert_array_equal(obs["observation"][..., 0], board == player)
        np.testing.assert_array_equal(obs["observation"][..., 1], board == 3 - player)
        np.testing.assert_array_equal(np.flatnonzero(obs["action_mask"]), ref.legal_actions)
        action = int(rng.choice(ref.legal_actions))
        timestep = ref.step(action)
        aec.step(action)
        if timestep.done:
            last_mover, result = agent, float(timestep.reward[0])
    other = [a for a in aec.possible_agents if a != last_mover][0]
    assert totals[last_mover] == result and totals[other] == -result
    assert not aec.agents


def test_parallel_env_plays_the_mover_and_ignores_the_other():
    par = parallel_env("tictactoe")
    obs, _ = par.reset(seed=0)
    assert obs["player_1"]["action_mask"].sum() == 0
    obs, rewards, term, trunc, _ = par.step({"player_0": 4, "player_1": 0})
    assert obs["player_0"]["observation"][1, 1, 0] == 1  # player_0's stone in the centre
    assert obs["player_1"]["observation"][0, 0].sum() == 0  # player_1's action was ignored
    with pytest.raises(ValueError, match=r"expected an action for 'player_1' \(to move\)"):
        par.step({"player_0": 0})


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="expected battle_mode 'self_play_mode'"):
        env("connect4", battle_mode="play_with_bot_mode")
    with pytest.raises(ValueError, match="expected render_mode in"):
        env("connect4", render_mode="gif")
