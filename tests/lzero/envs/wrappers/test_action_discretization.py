"""Discretization hits both bounds exactly and covers the Cartesian product in order."""

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.envs.wrappers import ActionDiscretizationEnvWrapper, discretize_box
from lzero.errors import ConfigError, IllegalActionError


def test_one_dimension_by_hand():
    table = discretize_box(spaces.Box(-2.0, 2.0, (1,), np.float32), 5)
    assert table.dtype == np.float32 and table.shape == (5, 1)
    assert table[:, 0].tolist() == [-2.0, -1.0, 0.0, 1.0, 2.0]


def test_two_dimensions_with_their_own_bounds_by_hand():
    space = spaces.Box(np.array([-1.0, 0.0], np.float32), np.array([1.0, 3.0], np.float32))
    table = discretize_box(space, 3)
    # First dimension most significant: itertools.product order, written out.
    expected = [
        [-1, 0], [-1, 1.5], [-1, 3],
        [0, 0], [0, 1.5], [0, 3],
        [1, 0], [1, 1.5], [1, 3],
    ]  # fmt: skip
    assert table.tolist() == expected


def test_lightzero_grid_would_miss_the_upper_bound():
    # LightZero's -1 + 2/n * k for n=4 gives [-1, -0.5, 0, 0.5]; ours ends at the bound.
    ours = discretize_box(spaces.Box(-1.0, 1.0, (1,), np.float32), 4)[:, 0]
    lightzero = -1 + 2 / 4 * np.arange(4)
    assert lightzero.max() == 0.5 and ours.max() == 1.0 and ours.min() == -1.0


bounds = st.floats(-100, 100, allow_nan=False, width=32)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 3).flatmap(
        lambda m: st.tuples(
            st.lists(st.tuples(bounds, bounds), min_size=m, max_size=m), st.integers(2, 5)
        )
    )
)
def test_table_matches_an_unravel_index_reference(case):
    pairs, n = case
    low = np.array([min(a, b) for a, b in pairs], np.float32)
    high = np.array([max(a, b) for a, b in pairs], np.float32)
    space = spaces.Box(low, high, dtype=np.float32)
    table = discretize_box(space, n)
    m = len(low)
    assert table.shape == (n**m, m)
    assert np.array_equal(table[0], low) and np.array_equal(table[-1], high)
    for d in range(m):
        assert table[:, d].min() == low[d] and table[:, d].max() == high[d]
    # Reference: index -> base-n digits (first dimension most significant) -> grid values.
    grids = [np.linspace(float(lo), float(hi), n) for lo, hi in zip(low, high)]
    for i in range(n**m):
        digits = np.unravel_index(i, (n,) * m)
        ref = np.array([grids[d][k] for d, k in enumerate(digits)], np.float32)
        assert np.array_equal(table[i], ref)
        assert space.contains(table[i])


class RecordingEnv(gymnasium.Env):
    """Records the continuous actions it receives."""

    def __init__(self, low, high):
        self.action_space = spaces.Box(np.array(low, np.float32), np.array(high, np.float32))
        self.observation_space = spaces.Box(0, 1, (1,), np.float32)
        self.played = []

    def reset(self, *, seed=None, options=None):
        return np.zeros(1, np.float32), {}

    def step(self, action):
        self.played.append(action)
        return np.zeros(1, np.float32), 0.0, False, False, {}


def test_wrapper_plays_the_table_row_of_each_index():
    inner = RecordingEnv([-2.0, 0.5], [2.0, 1.5])
    env = ActionDiscretizationEnvWrapper(inner, {"each_dim_disc_size": 3})
    assert env.action_space == spaces.Discrete(9)
    env.reset()
    for i in range(9):
        env.step(i)
        assert np.array_equal(inner.played[-1], env.action_table[i])
    assert inner.played[0].tolist() == [-2.0, 0.5] and inner.played[-1].tolist() == [2.0, 1.5]
    assert inner.played[5].tolist() == [0.0, 1.5]  # digits (1, 2)


def test_wrapper_rejects_bad_indices():
    env = ActionDiscretizationEnvWrapper(RecordingEnv([-1.0], [1.0]), {"each_dim_disc_size": 4})
    env.reset()
    with pytest.raises(IllegalActionError, match=r"expected an int in \[0, 4\), got 4"):
        env.step(4)
    with pytest.raises(IllegalActionError, match=r"expected an int in \[0, 4\), got 1.5"):
        env.step(1.5)


def test_discretizing_a_discrete_space_is_an_error():
    with pytest.raises(
        ConfigError, match=r"expected a continuous \(Box\) action space, got Discrete\(2\)"
    ):
        ActionDiscretizationEnvWrapper(gymnasium.make("CartPole-v1"), {"each_dim_disc_size": 3})


@pytest.mark.parametrize(
    ("space", "n", "message"),
    [
        (
            spaces.Box(-1.0, 1.0, (1,), np.float32),
            1,
            r"each_dim_disc_size: expected an int >= 2, got 1",
        ),
        (spaces.Box(-1.0, 1.0, (1,), np.float32), 2.0, r"expected an int >= 2, got 2.0"),
        (spaces.Box(-np.inf, 1.0, (1,), np.float32), 3, r"expected finite low and high"),
        (spaces.Box(-1.0, 1.0, (7,), np.float32), 11, r"<= 1,000,000, got 11 \*\* 7 = 19,487,171"),
        # A NumPy int's power wraps: int64(2) ** 64 is 0, which passed the check.
        (spaces.Box(-1.0, 1.0, (64,), np.float32), np.int64(2), r"got 2 \*\* 64 = 18,446,"),
    ],
)
def test_bad_discretizations_are_errors(space, n, message):
    with pytest.raises(ConfigError, match=message):
        discretize_box(space, n)


def test_unknown_config_key_is_an_error():
    with pytest.raises(
        ConfigError, match=r"unknown key 'each_dim_size'; did you mean 'each_dim_disc_size'"
    ):
        ActionDiscretizationEnvWrapper(RecordingEnv([-1.0], [1.0]), {"each_dim_size": 3})


def test_integer_box_grid_is_rounded_not_truncated():
    # linspace(0, 10, 4) is 0, 3.33, 6.67, 10; a cast to int64 truncated 6.67 to 6.
    table = discretize_box(spaces.Box(0, 10, (1,), np.int64), 4)
    assert table.dtype == np.int64 and table[:, 0].tolist() == [0, 3, 7, 10]
