"""Our envs through gymnasium.make: gymnasium's own env checker, seeding, steps and render
modes."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import lzero  # registers the ids
from lzero.envs import ENV_REGISTRY
from lzero.envs.gymnasium_api import gymnasium_ids

# What gymnasium's checker says of the wrapped gymnasium tasks themselves (CartPole's infinite
# velocity bounds, Pendulum's [-2, 2] torque): nothing of ours.
TASK_WARNINGS = ("observation space maximum value is infinity",
                 "observation space minimum value is -infinity",
                 "recommend using a symmetric and normalized space")  # fmt: skip


def make(env_id, **config):
    if "Gomoku" in env_id:
        config.setdefault("board_size", 6)
    return gymnasium.make(env_id, **config)


class LegalMoves(gymnasium.spaces.Discrete):
    """A board game's ``Discrete`` action space whose ``sample()`` draws a move that is legal
    right after a reset (the checker samples before it resets), for gymnasium's checker,
    which steps random actions: our envs refuse an illegal one (Othello's start has 4 legal
    moves of 65), never replace it."""

    def __init__(self, env):
        super().__init__(env.action_space.n)
        rules = env.env.rules
        mask = np.zeros(rules.action_size, np.int8)
        rules.legal_mask(rules.start_board(), 1, mask)
        self._legal = np.flatnonzero(mask)

    def sample(self, mask=None, probability=None):
        return int(self._legal[self.np_random.integers(len(self._legal))])


#: What our board envs say once when gymnasium's checker asks for render_mode 'human' on a
#: machine without a display (as here): a notice, not an API fault.
NO_DISPLAY = "human: no display found"


def test_every_registered_env_has_a_gymnasium_id():
    assert sorted(gymnasium_ids().values()) == ENV_REGISTRY.names()
    assert set(gymnasium_ids()) <= set(gymnasium.registry)


@pytest.mark.parametrize("env_id", sorted(gymnasium_ids()))
def test_gymnasium_env_checker_passes(env_id):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = make(env_id)
        if getattr(env.unwrapped.env, "rules", None) is not None:
            env.unwrapped.action_space = LegalMoves(env.unwrapped)
        check_env(env.unwrapped)  # also makes one env per render mode and renders it
    messages = [str(w.message) for w in caught]
    board = getattr(env.unwrapped.env, "rules", None) is not None  # a board game
    assert sum(NO_DISPLAY in m for m in messages) == (1 if board else 0)
    ours = [
        m
        for m in messages
        if not any(t in m for t in TASK_WARNINGS) and "Swig" not in m and "swig" not in m
        and NO_DISPLAY not in m
    ]  # fmt: skip
    assert ours == []


def play(env, seed, n_episodes=2):
    """Random legal moves from the env's own seeded action space; the episodes' observations."""
    out = []
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    for _ in range(n_episodes):
        trace, done = [obs["board"].copy()], False
        while not done:
            action = env.action_space.sample(mask=obs["action_mask"].astype(np.int8))
            obs, reward, terminated, truncated, _ = env.step(action)
            assert isinstance(reward, float) and isinstance(terminated, bool)
            trace.append(obs["board"].copy())
            done = terminated or truncated
        out.append(np.stack(trace))
        obs, _ = env.reset()
    return out


def test_same_seed_same_episodes_and_reset_goes_on():
    a = play(make("lzero/Connect4-v0"), seed=5)
    b = play(make("lzero/Connect4-v0"), seed=5)
    c = play(make("lzero/Connect4-v0"), seed=6)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert any(x.shape != y.shape or (x != y).any() for x, y in zip(a, c))


def test_board_games_default_to_one_agent_against_the_bot():
    env = make("lzero/TicTacToe-v0")
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(4)
    assert (obs["board"] != 0).sum() == 2  # our move and the bot's reply
    assert make("lzero/TicTacToe-v0", battle_mode="self_play_mode").unwrapped.env.battle_mode == (
        "self_play_mode"
    )


def test_render_modes():
    env = make("lzero/Connect4-v0", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    env = make("lzero/Connect4-v0", render_mode="ansi")
    env.reset(seed=0)
    env.step(3)
    assert "X" in env.render()
    env = make("lzero/Connect4-v0", render_mode="human")  # no display here: one notice
    with pytest.warns(UserWarning, match=NO_DISPLAY) as caught:
        env.reset(seed=0)
        env.step(3)
        assert env.render() is None
    assert len(caught) == 1
    with pytest.raises(
        ValueError, match=r"expected render_mode in \['human', 'rgb_array', 'ansi'\]"
    ):
        make("lzero/Connect4-v0", render_mode="gif")
    with pytest.raises(ValueError, match=r"expected render_mode in \[\] or None, got 'ansi'"):
        make("lzero/CartPoleLightZero-v0", render_mode="ansi")


def test_module_prefix_makes_without_an_import_of_ours():
    code = "import gymnasium; print(gymnasium.make('lzero:lzero/TicTacToe-v0').reset(seed=0)[0]['board'].sum())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"


def test_the_package_has_its_installed_version():
    from importlib.metadata import version

    assert lzero.__version__ == version("lzero-suite")


def test_reset_options_are_the_envs_reset_keywords_or_refused():
    """``reset(options=...)`` passes a board env's ``start_player_index`` and ``init_state``
    on; an option the env's reset does not take is refused (it was ignored without a word)."""
    env = gymnasium.make("lzero/TicTacToe-v0", bot_action_type="rule")
    obs, _ = env.reset(seed=0, options={"start_player_index": 1})
    assert np.count_nonzero(obs["board"]) == 1  # the bot opened
    start = np.array([[1, 2, 0], [0, 0, 0], [0, 0, 0]])
    obs, _ = env.reset(options={"init_state": start})
    assert np.array_equal(obs["board"], start)
    with pytest.raises(ValueError, match=r"options among \['start_player_index', 'init_state'\]"):
        env.reset(options={"bogus": 1})
    with pytest.raises(ValueError, match=r"options among \[\]"):
        gymnasium.make("lzero/CartPoleLightZero-v0").reset(options={"bogus": 1})
    with pytest.raises(ValueError, match="expected options to be a dict or None, got 1"):
        env.reset(options=1)


def test_a_refused_reset_leaves_the_seeds_as_they_were():
    """The env was seeded before it refused a bad start_player_index: the next unseeded game
    was then the refused seed's."""

    def games(refuse):
        env = gymnasium.make("lzero/Connect4-v0", bot_action_type="random")
        env.reset(seed=0)
        if refuse:
            with pytest.raises(ValueError, match="start_player_index"):
                env.reset(seed=99, options={"start_player_index": 7})
        boards = []
        for _ in range(3):
            obs, _ = env.reset()
            for _ in range(3):
                obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            boards.append(obs["board"].copy())
        return np.stack(boards)

    assert np.array_equal(games(refuse=True), games(refuse=False))
