"""The board env's observation arrays: reused only when nobody holds them, never changed while
held, and never an alias of the env's own state."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from board_reference import ONGOING, connect4, tictactoe
from hypothesis import given, settings
from hypothesis import strategies as st

from zoo.board_games import env_outputs
from zoo.board_games.connect4.envs.connect4_env import Connect4Env
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

GAMES = {"tictactoe": (TicTacToeEnv, tictactoe), "connect4": (Connect4Env, connect4)}
KEYS = ("observation", "board", "action_mask")  # in the order of the env's output sets
# What the caller does with each step's timestep before the next step.
USES = (
    "drop",
    "keep_timestep",
    "keep_dict",
    "keep_one_array",
    "keep_view",
    "scribble_and_drop",
    "reshape_and_drop",
    "retype_and_drop",
    "freeze_and_drop",
)


def _arrays(ts) -> list[np.ndarray]:
    return [ts.obs[k] for k in KEYS] + [ts.reward]


def _owners(arrays) -> list[int]:
    """The ids of the buffers the env wrote (the arrays' base: NumPy points a view's base at
    the array that owns the memory)."""
    return [id(a.base) for a in arrays]


def _set_ids(env) -> set[int]:
    """The ids of the env's two output buffers, the ones it writes again."""
    return {id(own[0]) for own in env._outputs.sets}


def _expected_planes(board: list[list[int]], player: int) -> np.ndarray:
    b = np.array(board)
    return np.stack([0.5 * (b == player), 0.5 * (b == 3 - player), np.full(b.shape, player / 2)])


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32 - 1),
    uses=st.lists(st.sampled_from(USES), min_size=1, max_size=60),
)
def test_outputs_match_the_reference_and_held_ones_never_change(game, seed, uses):
    """Whatever the caller holds, drops, scribbles on or reshapes, retypes or freezes in place,
    every step's observation is the plain-Python reference's, with the documented shapes,
    dtypes and flags, and everything still held keeps the values it was handed with."""
    env_cls, new_ref = GAMES[game]
    env = env_cls()
    env.seed(seed)
    env.reset()
    ref, player, held = new_ref(), 1, []  # held: (array, its values when handed out)
    for use in uses:
        action = env.random_action()
        ref.play(action, player)
        result = ref.result()
        ts = env.step(action)
        player = 3 - player
        assert ts.obs["board"].tolist() == ref.board
        assert np.array_equal(ts.obs["observation"], _expected_planes(ref.board, player))
        legal = ref.legal() if result == ONGOING else []
        assert np.flatnonzero(ts.obs["action_mask"]).tolist() == legal
        assert ts.reward[0] == (1.0 if result == 3 - player else 0.0)
        arrays = _arrays(ts)
        shapes = [env._obs_shape, env._board_shape, env._mask_shape, (1,)]
        dtypes = [np.float32, np.int8, np.int8, np.float32]
        assert [a.shape for a in arrays] == shapes and [a.dtype for a in arrays] == dtypes
        assert all(a.flags.writeable and a.flags.c_contiguous for a in arrays)
        if use == "keep_timestep":
            held += [(a, a.copy()) for a in arrays]
            held.append((ts, None))
        elif use == "keep_dict":
            held += [(a, a.copy()) for a in arrays[:3]]
            held.append((ts.obs, None))
        elif use == "keep_one_array":
            a = arrays[len(held) % 4]
            held.append((a, a.copy()))
        elif use == "keep_view":
            view = arrays[0][1:]  # holds the planes through its base
            held.append((view, view.copy()))
        elif use == "scribble_and_drop":
            for a in arrays:
                a[...] = 7
        elif use == "reshape_and_drop":
            for a in arrays:
                a.shape = (1, *a.shape)  # a batch axis added in place
        elif use == "retype_and_drop":
            arrays[0].dtype = np.int32  # same item size: only the reading changes
            arrays[1].dtype = arrays[2].dtype = np.uint8
        elif use == "freeze_and_drop":
            for a in arrays:
                a.flags.writeable = False
        del ts, arrays
        for value, snapshot in held:
            assert snapshot is None or np.array_equal(value, snapshot)
        if result != ONGOING:
            env.reset()
            ref, player = new_ref(), 1


@pytest.mark.parametrize("game", sorted(GAMES))
def test_unheld_outputs_are_reused_and_held_ones_replaced(game):
    """The arrays of a step are written again two steps later once unheld (the loop
    ``obs, ... = env.step(...)`` still holds the last one), and never while held."""
    env = GAMES[game][0]()
    env.seed(0)
    env.reset()
    ids = []
    for _ in range(3):
        obs, reward, _, _ = env.step(env.random_action())
        arrays = [*[obs[k] for k in KEYS], reward]
        assert set(_owners(arrays)) <= _set_ids(env)  # views of the env's own buffers
        ids.append(_owners(arrays))
    assert ids[2] == ids[0] and ids[1] != ids[0]  # obs of step 1 was dropped when rebound
    kept = env.step(env.random_action())  # step 4 reuses step 2's arrays: obs still holds them
    assert _owners(_arrays(kept)) == ids[1]
    values = [a.copy() for a in _arrays(kept)]
    env.step(env.random_action())
    fresh = env.step(env.random_action())  # would reuse step 4's arrays: kept holds them
    assert all(a.base is None for a in _arrays(fresh))  # new arrays instead, handed out as such
    assert all(np.array_equal(a, v) for a, v in zip(_arrays(kept), values))


def test_without_exact_reference_counts_every_output_is_fresh(monkeypatch):
    """On builds without exact reference counts nothing is reused, and the games are the same."""
    games = []
    for refs in (env_outputs.refs, env_outputs.always_held):
        monkeypatch.setattr(env_outputs, "refs", refs)
        env = Connect4Env()
        env.seed(5)
        env.reset()
        reused, moves = [], []
        for _ in range(30):
            before = id(env._outputs.sets[env._outputs.slot][0])  # the buffer it writes
            ts = env.step(env.random_action())
            reused.append(_owners(_arrays(ts)) == [before] * 4)
            moves.append(ts.obs["board"].copy())
            if ts.done:
                env.reset()
            del ts
        assert all(reused) if refs is not env_outputs.always_held else not any(reused)
        games.append(np.array(moves))
    assert np.array_equal(*games)


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy, lambda env: env.simulate_action(3)])
def test_copies_hand_out_arrays_of_their_own(clone):
    """An env and its copies never hand out the same array objects."""
    env = Connect4Env()
    env.seed(1)
    env.reset()
    other = clone(env)
    handed = [set(_owners(_arrays(e.step(0)))) for e in (env, other) for _ in range(2)]
    assert all(len(buffers) == 1 for buffers in handed)  # one buffer per step
    assert len(set.union(*handed)) == len(handed)


def test_a_kept_env_board_keeps_the_final_position():
    """``env.board`` held across a reset keeps the last game's position (a new board starts)."""
    env = TicTacToeEnv()
    env.seed(0)
    env.reset()
    for action in (0, 3, 1, 4, 2):
        env.step(action)
    final = env.board
    snapshot = final.copy()
    env.reset()
    assert np.array_equal(final, snapshot) and not env.board.any()
    env.step(4)
    assert np.array_equal(final, snapshot)
