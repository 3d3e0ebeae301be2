"""The vectorised board pool against the single env class stepped alone with the same seeds."""

from __future__ import annotations

import sys
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.envs import ENV_REGISTRY, make, make_spec
from lzero.errors import ConfigError, IllegalActionError

GAMES = [("tictactoe", {}), ("connect4", {}), ("gomoku", {"board_size": 6}), ("othello", {})]


class Reference:
    """Env ``i`` of the class, seeded ``seed + i``, with envpool's auto-reset done by hand."""

    def __init__(self, name, n, seed, cfg):
        self.envs = [ENV_REGISTRY.build(name, dict(cfg)) for _ in range(n)]
        for i, env in enumerate(self.envs):
            env.seed(seed + i)
        self.done = [False] * n

    def reset(self, i):
        obs = self.envs[i].reset()
        self.done[i] = False
        return obs, 0.0, False

    def step(self, i, action):
        if self.done[i]:
            return self.reset(i)
        ts = self.envs[i].step(int(action))
        self.done[i] = ts.done
        return ts.obs, float(ts.reward[0]), ts.done


def _legal(rng, mask):
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


def _check_row(obs, k, expected):
    for key, value in expected.items():
        assert np.array_equal(obs[key][k], value), key


# Settings beyond the defaults: the env's random draws (bot noise, the agent's move replaced
# by a random or an expert one), a random bot, and the other observation layout.
VARIANTS = [
    ("connect4", dict(battle_mode="play_with_bot_mode", prob_random_action_in_bot=0.3)),
    ("connect4", dict(prob_random_agent=0.3, channel_last=True, scale=False)),
    ("tictactoe", dict(prob_expert_agent=0.5, bot_action_type="random")),
]


@pytest.mark.parametrize(
    "name,cfg",
    [
        (n, dict(c, battle_mode=m))
        for n, c in GAMES
        for m in ("self_play_mode", "play_with_bot_mode")
    ]
    + VARIANTS,
)
def test_batched_equals_sequential(name, cfg):
    # Othello's games last about 60 plies (30 steps against the bot): twice as many steps
    # end and restart every env's game.
    _batched_equals_sequential(name, cfg, steps=130 if name == "othello" else 60)


def _batched_equals_sequential(name, cfg, *, steps):
    n, seed = 5, 11
    pool = make(name, num_envs=n, seed=seed, **cfg)
    ref = Reference(name, n, seed, cfg)
    obs = pool.reset()
    for i in range(n):
        _check_row(obs, i, ref.reset(i)[0])
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(steps):
        actions = _legal(rng, obs["action_mask"])
        obs, reward, done, info = pool.step(actions)
        assert np.array_equal(info["env_id"], np.arange(n))
        for i in range(n):
            exp_obs, exp_reward, exp_done = ref.step(i, actions[i])
            _check_row(obs, i, exp_obs)
            assert reward[i] == exp_reward and done[i] == exp_done
            episodes += exp_done
    assert episodes >= n  # auto-reset was exercised
    pool.close()


def test_perfect_connect4_bot_batched_equals_sequential():
    """The pool's perfect bot (numba, the env's solver tables reached by address) plays the
    env's perfect bot's moves, with the same draws among optimal columns."""
    pytest.importorskip("bitbully_databases")
    cfg = dict(battle_mode="play_with_bot_mode", bot_action_type="perfect")
    _batched_equals_sequential("connect4", dict(cfg, prob_random_action_in_bot=0.3), steps=40)


def test_tictactoe_perfect_bot_is_refused_by_the_pool():
    with pytest.raises(ConfigError, match=r"bot in \['random', 'rule'\]\), got 'perfect'"):
        make("tictactoe", battle_mode="play_with_bot_mode", bot_action_type="perfect")


def test_time_limit_and_auto_reset_follow_envpool():
    pool = make("connect4", num_envs=2, max_episode_steps=3)
    pool.reset()
    for t in range(1, 4):
        obs, reward, done, info = pool.step(np.array([0, 6]))
        assert list(info["elapsed_step"]) == [t, t]
    assert done.all() and info["TimeLimit.truncated"].all() and not info["terminated"].any()
    obs, reward, done, info = pool.step(np.array([1, 1]))  # discarded: the envs reset
    assert not done.any() and (reward == 0).all() and (info["elapsed_step"] == 0).all()
    assert not obs["board"].any() and obs["action_mask"].all()


def test_illegal_action_changes_no_env():
    pool = make("tictactoe", num_envs=3)
    pool.reset()
    pool.step(np.array([4, 4, 4]))
    boards = pool._backend.state[0].copy()
    with pytest.raises(
        IllegalActionError,
        match=r"env 1: expected a legal action in \[0, 1, 2, 3, 5, 6, 7, 8\], got 4",
    ):
        pool.step(np.array([0, 4, 0]))
    assert np.array_equal(pool._backend.state[0], boards)
    obs, *_ = pool.step(np.array([0, 0, 0]))  # and the pool still works
    assert (obs["board"].reshape(3, -1)[:, 0] == 2).all()


def test_unsupported_settings_are_rejected():
    with pytest.raises(
        ConfigError, match="bot_action_type: expected a setting the vectorised pool runs"
    ):
        make("connect4", battle_mode="play_with_bot_mode", bot_action_type="mcts")
    with pytest.raises(ConfigError, match="did you mean 'battle_mode'"):
        make("connect4", battle_mod="self_play_mode")


@pytest.mark.parametrize("build", [make, make_spec])
def test_make_and_make_spec_reject_the_same_settings_quoting_the_users_value(build):
    with pytest.raises(ConfigError, match=r"bot_action_type: .* got 'alpha_beta_pruning'"):
        build("tictactoe", battle_mode="play_with_bot_mode", bot_action_type="alpha_beta_pruning")


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 6), policy_seed=st.integers(0, 99))
def test_batched_equals_sequential_for_any_seed(seed, n, policy_seed):
    cfg = dict(battle_mode="play_with_bot_mode", prob_random_action_in_bot=0.2)
    pool = make("connect4", num_envs=n, seed=seed, **cfg)
    ref = Reference("connect4", n, seed, cfg)
    obs = pool.reset()
    for i in range(n):
        _check_row(obs, i, ref.reset(i)[0])
    rng = np.random.default_rng(policy_seed)
    for _ in range(25):
        actions = _legal(rng, obs["action_mask"])
        obs, reward, done, _ = pool.step(actions)
        for i in range(n):
            exp_obs, exp_reward, exp_done = ref.step(i, actions[i])
            _check_row(obs, i, exp_obs)
            assert reward[i] == exp_reward and done[i] == exp_done


def test_async_board_pool_serves_envs_oldest_first():
    n, seed = 5, 2
    pool = make("tictactoe", num_envs=n, batch_size=2, seed=seed)
    ref = Reference("tictactoe", n, seed, {})
    pool.async_reset()
    expected = {i: ref.reset(i)[0] for i in range(n)}
    rng = np.random.default_rng(3)
    order = []
    for _ in range(30):
        obs, reward, done, info = pool.recv()
        ids = info["env_id"]
        order += ids.tolist()
        for k, i in enumerate(ids):
            _check_row(obs, k, expected[i])
        actions = _legal(rng, obs["action_mask"])
        for i, a in zip(ids, actions):
            expected[i] = ref.step(i, a)[0]
        pool.send(actions, ids)
    assert order[:6] == [0, 1, 2, 3, 4, 0]  # first in, first out


def _play(pool, steps, rng, on_step):
    obs = pool.reset()
    for t in range(steps):
        obs = pool.step(_legal(rng, obs["action_mask"]))[0]
        on_step(t, obs["observation"])


def test_observation_arrays_are_recycled_once_dropped():
    """The planes of 40 steps, each dropped after its step, are views of a few arrays the pool
    hands out again: every one is still alive at the end (a fresh array a step would leave
    most of them freed) and they are at most four."""
    pool, handed = make("connect4", num_envs=3), []

    def owner(planes):
        while planes.base is not None:
            planes = planes.base
        handed.append(weakref.ref(planes))

    _play(pool, 40, np.random.default_rng(0), lambda t, planes: owner(planes))
    owners = [ref() for ref in handed]
    assert all(o is not None for o in owners)
    assert len({id(o) for o in owners}) <= 4


def test_observations_handed_out_are_never_overwritten_while_held():
    pool, held = make("connect4", num_envs=3), []

    def keep_some(t, planes):
        if t % 7 == 0:  # keep an array or a view of one, with a copy to compare
            kept = planes if t % 14 == 0 else planes[1:]
            held.append((kept, kept.copy()))

    _play(pool, 60, np.random.default_rng(0), keep_some)
    assert len(held) == 9 and all(np.array_equal(a, copy) for a, copy in held)


def test_planes_changed_in_place_and_dropped_do_not_reach_later_steps():
    """Found by QA: planes made read-only (or reshaped, retyped) in place and dropped came
    back so, or failed the next step; the pool hands out views, so its arrays stay its own."""
    pool = make("connect4", num_envs=3)
    shapes = []

    def meddle(t, planes):
        shapes.append((planes.shape, planes.dtype, planes.flags.writeable))
        if t % 3 == 0:
            planes.flags.writeable = False
        elif t % 3 == 1:
            planes.shape = (1, *planes.shape)
        else:
            planes.dtype = np.int32

    _play(pool, 30, np.random.default_rng(2), meddle)
    assert set(shapes) == {((3, 3, 6, 7), np.dtype(np.float32), True)}


def test_stepping_leaves_the_state_arrays_reference_counts_alone():
    # The kernel takes per-env views of arrays it uses without their owner (no atomic
    # reference counting): a miscount would leak them or free them under the pool.
    pool = make("connect4", num_envs=4)
    backend = pool._backend
    arrays = [*backend.state, backend.seed_states, backend.rngs]
    before = [sys.getrefcount(a) for a in arrays]
    _play(pool, 50, np.random.default_rng(1), lambda t, planes: None)
    assert [sys.getrefcount(a) for a in arrays] == before
