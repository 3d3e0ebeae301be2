"""The evaluation cache against a plain-Python model of it: the entries present are the keys of
the last ``capacity`` insertions (every missing position is inserted once per occurrence),
outputs always equal a fresh computation, and only missing positions are computed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.model.eval_cache import EvaluationCache, position_keys

WIDTH = 3


def outputs_of(key: bytes) -> np.ndarray:
    """A made-up network: outputs that differ for every key."""
    return np.frombuffer(key, np.int8)[:WIDTH].astype(np.float32) + len(key)


@settings(max_examples=200, deadline=None)
@given(
    capacity=st.integers(1, 12),
    batches=st.lists(st.lists(st.integers(0, 15), min_size=1, max_size=8), max_size=30),
)
def test_the_cache_holds_the_last_insertions_and_never_answers_wrong(capacity, batches):
    cache = EvaluationCache(capacity, WIDTH)
    owner = object()
    inserted: list[bytes] = []  # the reference: every computed occurrence, in order
    hits = lookups = 0
    for batch in batches:
        keys = [bytes([k, 15 - k, k % 3, 1]) for k in batch]
        present = set(inserted[-capacity:])
        want_hit = [k in present for k in keys]
        asked = []

        def compute(rows, keys=keys, asked=asked):
            asked.extend(rows.tolist())
            return np.stack([outputs_of(keys[i]) for i in rows])

        out = cache.outputs(owner, keys, compute)
        np.testing.assert_array_equal(out, np.stack([outputs_of(k) for k in keys]))
        assert asked == [i for i, h in enumerate(want_hit) if not h]
        inserted.extend(keys[i] for i in asked)
        hits += sum(want_hit)
        lookups += len(keys)
        assert len(cache) == len(set(inserted[-capacity:])) <= capacity
    assert (cache.hits, cache.lookups) == (hits, lookups)


def test_a_new_network_empties_the_cache():
    cache = EvaluationCache(8, WIDTH)
    keys = [b"\x01\x02\x00\x01", b"\x02\x01\x00\x02"]
    calls = []

    def compute(rows):
        calls.append(rows.tolist())
        return np.stack([outputs_of(keys[i]) for i in rows])

    first, second = object(), object()
    cache.outputs(first, keys, compute)
    cache.outputs(first, keys, compute)
    cache.outputs(second, keys, compute)
    assert calls == [[0, 1], [0, 1]]


def test_position_keys_tell_boards_and_movers_apart():
    rng = np.random.default_rng(0)
    boards = rng.integers(0, 3, (40, 3, 4)).astype(np.int8)
    to_play = rng.integers(1, 3, 40)
    keys = position_keys(boards, to_play)
    for i in range(40):
        for j in range(40):
            same = np.array_equal(boards[i], boards[j]) and to_play[i] == to_play[j]
            assert (keys[i] == keys[j]) == same
    assert position_keys(boards[:1], np.array([1])) != position_keys(boards[:1], np.array([2]))


@pytest.mark.parametrize("capacity", [0, -1, 2.0, True])
def test_a_bad_capacity_is_refused(capacity):
    with pytest.raises(ValueError, match="expected capacity to be an int >= 1"):
        EvaluationCache(capacity, WIDTH)


def test_outputs_of_the_wrong_shape_are_refused_and_not_kept():
    cache = EvaluationCache(4, WIDTH)
    keys = [b"\x00\x00\x00\x01"]
    with pytest.raises(ValueError, match=r"expected compute to return shape \(1, 3\)"):
        cache.outputs(None, keys, lambda rows: np.zeros((1, 2), np.float32))
    assert len(cache) == 0
