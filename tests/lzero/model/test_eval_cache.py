"""The evaluation cache against a plain-Python model of a direct-mapped table (a slot per
position, FNV-1a of its key modulo the capacity, the last writer keeps it): the same hits,
outputs always equal to a fresh computation, and only missing positions computed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.model.eval_cache import EvaluationCache, fnv1a, position_keys

WIDTH, KEY = 3, 4


def fnv1a_reference(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001B3) % 2**64
    return h


@pytest.mark.parametrize(
    "data, want",
    [  # the published FNV-1a 64-bit test vectors (Fowler, Noll and Vo)
        (b"", 0xCBF29CE484222325),
        (b"a", 0xAF63DC4C8601EC8C),
        (b"foobar", 0x85944171F73967E8),
    ],
)
def test_fnv1a_matches_the_published_values(data, want):
    assert fnv1a_reference(data) == want
    assert int(fnv1a(np.frombuffer(data, np.uint8))) == want


def outputs_of(key: np.ndarray) -> np.ndarray:
    """A made-up network: outputs that differ for every key."""
    return key[:WIDTH].astype(np.float32) * 3 + key[WIDTH]


def make_key(k: int) -> np.ndarray:
    """Distinct keys for k < 45 that share bytes with others (a collision must compare all)."""
    return np.array([k % 3, k // 3 % 5, k // 15, 1], np.uint8)


@settings(max_examples=200, deadline=None)
@given(
    capacity=st.integers(1, 12),
    batches=st.lists(st.lists(st.integers(0, 30), min_size=1, max_size=8), max_size=30),
)
def test_the_cache_matches_a_direct_mapped_reference_and_never_answers_wrong(capacity, batches):
    cache = EvaluationCache(capacity, WIDTH, KEY)
    owner = object()
    table: dict[int, bytes] = {}  # the reference: slot -> the key stored there
    hits = lookups = 0
    for batch in batches:
        keys = np.stack([make_key(k) for k in batch])
        slots = [fnv1a_reference(key.tobytes()) % capacity for key in keys]
        want_hit = [table.get(s) == key.tobytes() for s, key in zip(slots, keys)]
        asked = []

        def compute(rows, keys=keys, asked=asked):
            asked.extend(rows.tolist())
            return np.stack([outputs_of(keys[i]) for i in rows])

        out = cache.outputs(owner, keys, compute)
        np.testing.assert_array_equal(out, np.stack([outputs_of(key) for key in keys]))
        assert asked == [i for i, h in enumerate(want_hit) if not h]
        for i in asked:
            table[slots[i]] = keys[i].tobytes()
        hits += sum(want_hit)
        lookups += len(keys)
        assert len(cache) == len(table) <= capacity
    assert (cache.hits, cache.lookups) == (hits, lookups)


def test_a_new_network_empties_the_cache():
    cache = EvaluationCache(8, WIDTH, KEY)
    keys = np.stack([make_key(1), make_key(2)])
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
    assert keys.shape == (40, 13) and keys.dtype == np.uint8
    for i in range(40):
        for j in range(40):
            same = np.array_equal(boards[i], boards[j]) and to_play[i] == to_play[j]
            assert np.array_equal(keys[i], keys[j]) == same
    one, two = position_keys(boards[:1], np.array([1])), position_keys(boards[:1], np.array([2]))
    assert not np.array_equal(one, two)


@pytest.mark.parametrize("capacity", [0, -1, 2.0, True])
def test_a_bad_capacity_is_refused(capacity):
    with pytest.raises(ValueError, match="expected capacity to be an int >= 1"):
        EvaluationCache(capacity, WIDTH, KEY)


def test_bad_keys_and_outputs_of_the_wrong_shape_are_refused_and_nothing_is_kept():
    cache = EvaluationCache(4, WIDTH, KEY)
    keys = make_key(5)[None]
    with pytest.raises(ValueError, match=r"expected compute to return shape \(1, 3\)"):
        cache.outputs(None, keys, lambda rows: np.zeros((1, 2), np.float32))
    assert len(cache) == 0
    with pytest.raises(ValueError, match=r"expected keys \[B, 4\] uint8"):
        cache.outputs(None, keys.astype(np.int64), lambda rows: np.zeros((1, 3), np.float32))
