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
from lzero.errors import ConfigError  # noqa: E402

GAMES = [("tictactoe", {}), ("connect4", {}), ("gomoku", {"board_size": 6}), ("othello", {})]


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
    with pytest.raises(
        ValueError, match=r"expected a board game among .* got 'cartpole_lightzero'"
    ):
        env("cartpole_lightzero")


@pytest.mark.parametrize("copy_fn", ["deepcopy", "pickle"])
def test_a_copied_env_keeps_its_own_observations_up_to_date(copy_fn):
    import copy
    import pickle

    original = env("connect4")
    original.reset(seed=0)
    original.step(3)
    twin = (
        copy.deepcopy(original) if copy_fn == "deepcopy" else pickle.loads(pickle.dumps(original))
    )
    for move in (3, 4):
        twin.step(move)
    ref = ENV_REGISTRY.build("connect4", {"battle_mode": "self_play_mode"})
    ref.reset()
    for move in (3, 3, 4):
        ref.step(move)
    view = twin.observe("player_1")["observation"]  # player_1's stones first
    np.testing.assert_array_equal(view[..., 0], ref.board == 2)
    np.testing.assert_array_equal(view[..., 1], ref.board == 1)
    assert original.observe("player_1")["observation"].sum() == 1  # the original: one stone


@pytest.mark.parametrize("action", [3.7, 2.0, "3", True, None, [3, 4]])
def test_actions_that_are_not_integers_are_refused_and_change_nothing(action):
    from lzero.errors import IllegalActionError

    game = env("connect4")
    game.reset(seed=0)
    with pytest.raises(IllegalActionError, match="expected an action as int"):
        game.step(action)
    assert game.agent_selection == "player_0"
    assert game.observe("player_0")["observation"].sum() == 0
    game.step(np.int64(3))  # NumPy integers are integers
    assert game.observe("player_0")["observation"][5, 3, 0] == 1
    with pytest.raises(ConfigError, match="seed: expected a non-negative int, got 3.9"):
        game.reset(seed=3.9)


def test_a_finished_game_says_so_and_is_not_parallelizable_by_the_generic_converter():
    from lzero.errors import GameOverError

    game = env("tictactoe")
    game.reset(seed=0)
    assert game.metadata["is_parallelizable"] is False
    for move in (0, 3, 1, 4, 2):  # player_0 wins
        game.step(move)
    assert game.rewards == {"player_0": 1.0, "player_1": -1.0}
    for _agent in game.agent_iter():
        game.step(None)  # the dead agents leave
    for call in (lambda: game.step(None), game.last):
        with pytest.raises(GameOverError, match="every agent has left; call reset"):
            call()
    par = parallel_env("tictactoe")
    par.reset(seed=0)
    for move in (0, 3, 1, 4, 2):
        par.step({"player_0": move, "player_1": move})
    with pytest.raises(GameOverError, match="the game is over; call reset"):
        par.step({})


def test_a_draw_is_zero_for_both_and_reset_without_a_seed_goes_on_from_the_last_seed():
    game = env("tictactoe")
    game.reset(seed=0)
    for move in (0, 1, 2, 4, 3, 5, 7, 6, 8):
        game.step(move)
    assert [str(r) for r in game.rewards.values()] == ["0.0", "0.0"]  # not -0.0

    def episode_openings(**config):
        # With random agent moves, each reset() after reset(seed=7) plays a new game, and
        # the sequence replays from the seed.
        g = env("connect4", prob_random_agent=1.0, **config)
        g.reset(seed=7)
        boards = []
        for _ in range(3):
            g.step(0)
            boards.append(g.observe("player_1")["observation"].copy())
            g.reset()
        return boards

    first, again = episode_openings(), episode_openings()
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not all(np.array_equal(first[0], b) for b in first[1:])


@pytest.mark.parametrize("make", [env, parallel_env])
def test_reset_options_are_the_start_player_or_refused(make):
    """``options={'start_player_index': 1}`` lets ``player_1`` open, as the board env's reset
    does; a bad index is refused, and another option ignored with a warning (PettingZoo's
    envs take any; it was ignored without a word)."""
    game = make("tictactoe")
    game.reset(seed=0, options={"start_player_index": 1})
    if hasattr(game, "agent_selection"):
        assert game.agent_selection == "player_1"
        game.step(4)
        planes = game.observe("player_0")["observation"]
    else:
        obs, *_ = game.step({"player_0": 0, "player_1": 4})
        planes = obs["player_0"]["observation"]
    assert planes[1, 1].tolist() == [0, 1]  # player_1's stone, seen by player_0
    with pytest.raises(ValueError, match="start_player_index 0 or 1, got 2"):
        game.reset(options={"start_player_index": 2})
    with pytest.raises(ValueError, match="expected options to be a dict or None, got 1"):
        game.reset(options=1)
    with pytest.warns(UserWarning, match=r"options \['bogus'\] ignored"):
        game.reset(options={"bogus": 1})


def test_human_rendering_without_a_display_names_a_mode_this_env_takes(monkeypatch):
    # The warning had named 'state_realtime_mode', which this env refuses.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    aec = env("tictactoe", render_mode="human")
    aec.reset(seed=0)
    with pytest.warns(UserWarning, match=r"the board is not shown") as record:
        aec.step(4)
    message = str(record[0].message)
    named = [mode for mode in ("ansi", "state_realtime_mode") if f"'{mode}'" in message]
    assert named == ["ansi"]
    env("tictactoe", render_mode=named[0]).reset(seed=0)
