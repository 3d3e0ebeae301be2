"""Calls envpool's users make, accepted by the pool: make_gymnasium, dict actions, whole-number
float actions on a discrete space, NumPy integer seeds; and the errors for what is not."""

from __future__ import annotations

import numpy as np
import pytest

from lzero.envs import make, make_gymnasium


def test_make_gymnasium_is_the_five_tuple_api():
    pool = make_gymnasium("CartPole-v1", num_envs=3, seed=np.int64(7))  # a NumPy seed
    obs, info = pool.reset()
    out = pool.step(np.zeros(3, np.int64))
    assert len(out) == 5 and obs.shape == (3, 4)
    pool.close()


def test_dict_and_float_actions_step_like_their_plain_form():
    a = make("connect4", num_envs=4, seed=3, battle_mode="play_with_bot_mode")
    b = make("connect4", num_envs=4, seed=3, battle_mode="play_with_bot_mode")
    a.reset(), b.reset()
    for cols in ([3, 3, 2, 4], [0, 1, 5, 6]):
        plain = a.step(np.array(cols))
        other = b.step({"action": np.array(cols, np.float32), "env_id": np.arange(4)})
        np.testing.assert_array_equal(plain[0]["board"], other[0]["board"])
        np.testing.assert_array_equal(plain[1], other[1])


def test_bad_calls_are_refused_and_change_nothing():
    pool = make("connect4", num_envs=2, seed=0, battle_mode="play_with_bot_mode")
    pool.reset()
    with pytest.raises(ValueError, match="expected whole-number actions for a discrete space"):
        pool.step(np.array([3.5, 2.0]))
    with pytest.raises(ValueError, match="expected a dict action with the keys 'action'"):
        pool.step({"actions": np.array([3, 3])})
    with pytest.raises(ValueError, match="expected env_id in the dict action or as env_id"):
        pool.step({"action": np.array([3, 3]), "env_id": np.arange(2)}, env_id=np.arange(2))
    obs, *_ = pool.step(np.array([3, 3]))  # the pool still works: nothing was sent
    assert (obs["board"] != 0).sum() == 4
