"""Actions checked against every kind of gymnasium action space before the env sees them:
what fits goes through as the space's dtype, what does not is refused with what the space
allows (MultiDiscrete, MultiBinary, Dict and Tuple actions were passed on unchecked, and an
integer Box truncated 1.7 to 1)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.envs.wrappers import DingEnvWrapper
from lzero.envs.wrappers.conversions import to_gym_action
from lzero.errors import IllegalActionError

MULTI = spaces.MultiDiscrete([2, 3, 4], start=[0, -1, 5])


@given(st.lists(st.integers(-3, 10), min_size=3, max_size=3))
@settings(max_examples=200, deadline=None)
def test_multidiscrete_agrees_with_gymnasiums_contains(values):
    action = np.array(values, np.int64)
    if MULTI.contains(action):  # gymnasium's own test is the reference
        np.testing.assert_array_equal(to_gym_action(MULTI, values), action)
    else:
        with pytest.raises(IllegalActionError, match=r"expected ints in \[start, start \+ nvec\)"):
            to_gym_action(MULTI, values)


@given(st.lists(st.integers(-1, 2), min_size=4, max_size=4))
@settings(max_examples=100, deadline=None)
def test_multibinary_agrees_with_gymnasiums_contains(values):
    space = spaces.MultiBinary(4)
    action = np.array(values, np.int8)
    if space.contains(action):
        out = to_gym_action(space, values)
        assert out.dtype == space.dtype and out.tolist() == values
    else:
        with pytest.raises(IllegalActionError, match="expected 0s and 1s"):
            to_gym_action(space, values)


@pytest.mark.parametrize(
    ("space", "action", "match"),
    [
        (MULTI, [1, 1], r"expected an array of shape \(3,\), got shape \(2,\)"),
        (MULTI, [1.0, 0.0, 5.0], "expected an array of shape"),  # floats: not silently cast
        (MULTI, "x", "expected an array of shape"),
        (spaces.Box(0, 10, (2,), np.int64), [1.7, 2.2], "expected whole numbers"),
        (spaces.Dict(a=spaces.Discrete(3)), {"a": 7}, r"expected an int in \[0, 3\), got 7"),
        (spaces.Dict(a=spaces.Discrete(3)), {"b": 1}, r"expected a dict with the keys \['a'\]"),
        (spaces.Tuple([spaces.Discrete(2)] * 2), (1,), "expected a tuple of 2 actions"),
        (spaces.Tuple([spaces.Discrete(2)] * 2), (1, 5), r"expected an int in \[0, 2\)"),
        (spaces.Text(3), "toolong", "expected an element of Text"),
    ],
)
def test_actions_that_do_not_fit_are_refused(space, action, match):
    with pytest.raises(IllegalActionError, match=match):
        to_gym_action(space, action)


def test_actions_that_fit_go_through_as_the_spaces_types():
    assert to_gym_action(spaces.Box(0, 10, (2,), np.int64), [1.0, 2.0]).tolist() == [1, 2]
    box = spaces.Box(-1, 1, (2,), np.float32)
    out = to_gym_action(spaces.Dict(a=spaces.Discrete(3), b=box), {"a": np.int64(2), "b": [0.5, 0]})
    assert out["a"] == 2 and out["b"].dtype == np.float32  # float64 input, as a policy gives
    assert to_gym_action(spaces.Tuple([spaces.Discrete(2), box]), [1, (0, 0)])[0] == 1
    assert to_gym_action(spaces.Text(3), "ab") == "ab"


class _MultiEnv(gymnasium.Env):
    observation_space = spaces.Box(0, 1, (1,))
    action_space = MULTI

    def __init__(self):
        self.seen = []

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        return np.zeros(1, np.float32), {}

    def step(self, action):
        self.seen.append(action)
        return np.zeros(1, np.float32), 0.0, False, False, {}


def test_the_wrapper_refuses_them_before_the_env_steps():
    inner = _MultiEnv()
    env = DingEnvWrapper(inner)
    env.reset()
    with pytest.raises(IllegalActionError):
        env.step([5, 9, 0])
    assert inner.seen == []
    env.step([1, 0, 6])
    assert inner.seen[0].tolist() == [1, 0, 6]


class _TupleObsEnv(_MultiEnv):
    observation_space = spaces.Tuple([spaces.Discrete(2), spaces.Box(0, 1, (2,), np.float64)])
    action_space = spaces.Discrete(2)

    def reset(self, *, seed=None, options=None):
        return (1, np.array([0.25, 0.5])), {}

    def step(self, action):
        return (0, np.array([0.5, 1.0])), 0.0, True, False, {}


@pytest.mark.parametrize("make", [_TupleObsEnv, lambda: gymnasium.make("Blackjack-v1")])
def test_tuple_observations_stay_tuples_in_the_declared_space(make):
    # A mixed tuple failed in np.asarray; Blackjack's became one array outside its space.
    env = DingEnvWrapper(make())
    env.seed(0)
    obs = env.reset()
    assert isinstance(obs, tuple) and env.observation_space.contains(obs)
    obs = env.step(0).obs
    assert isinstance(obs, tuple) and env.observation_space.contains(obs)
    # Each part in the contract's dtypes: float64 as float32, ints as int64.
    assert [part.dtype for part in obs] == [
        np.float32 if isinstance(sub, spaces.Box) else np.int64 for sub in env.observation_space
    ]
