"""The evaluation cache against a plain-Python model of a direct-mapped table (a slot per
position, FNV-1a of its key, the board's cells then the mover, modulo the capacity; the last
writer keeps it): the same hits, outputs always equal to a fresh computation, and only missing
positions computed."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.model.eval_cache import EvaluationCache, fnv1a

WIDTH, CELLS = 3, 3


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
    """Distinct keys (three cells, then the mover) for k < 60 that share bytes with others (a
    collision must compare all); k and k + 30 differ in the mover alone."""
    return np.array([k % 3, k // 3 % 5, k // 15 % 2, 1 + k // 30], np.uint8)


def lookup(cache, owner, keys, compute):
    """The cache's outputs of the positions ``keys`` `[B, 4]` (cells, then mover)."""
    return cache.outputs(owner, keys[:, :-1].astype(np.int8), keys[:, -1], compute)


@settings(max_examples=200, deadline=None)
@given(
    capacity=st.integers(1, 12),
    batches=st.lists(st.lists(st.integers(0, 59), min_size=1, max_size=8), max_size=30),
)
def test_the_cache_matches_a_direct_mapped_reference_and_never_answers_wrong(capacity, batches):
    cache = EvaluationCache(capacity, WIDTH, CELLS)
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

        out = lookup(cache, owner, keys, compute)
        np.testing.assert_array_equal(out, np.stack([outputs_of(key) for key in keys]))
        assert asked == [i for i, h in enumerate(want_hit) if not h]
        for i in asked:
            table[slots[i]] = keys[i].tobytes()
        hits += sum(want_hit)
        lookups += len(keys)
        assert len(cache) == len(table) <= capacity
    assert (cache.hits, cache.lookups) == (hits, lookups)


def test_a_new_network_empties_the_cache():
    cache = EvaluationCache(8, WIDTH, CELLS)
    keys = np.stack([make_key(1), make_key(2)])
    calls = []

    def compute(rows):
        calls.append(rows.tolist())
        return np.stack([outputs_of(keys[i]) for i in rows])

    first, second = object(), object()
    lookup(cache, first, keys, compute)
    lookup(cache, first, keys, compute)
    lookup(cache, second, keys, compute)
    assert calls == [[0, 1], [0, 1]]


def test_a_position_with_another_mover_or_one_other_cell_is_another_entry():
    """With one slot every position shares it: the board with the other mover, and the board
    with one cell changed, are computed anew, not answered with the stored outputs."""
    cache = EvaluationCache(1, WIDTH, CELLS)
    board = np.array([[1, 2, 0]], np.int8)
    asked = []

    def compute(rows):
        asked.append(rows.tolist())
        return np.full((len(rows), WIDTH), len(asked), np.float32)

    owner = object()
    other = np.array([[1, 2, 1]], np.int8)  # the last cell changed
    for cells, mover in [(board, 1), (board, 1), (board, 2), (other, 2), (board, 2)]:
        out = cache.outputs(owner, cells, np.array([mover]), compute)
        assert out.tolist() == [[len(asked)] * WIDTH]
    assert asked == [[0]] * 4 and (cache.hits, cache.lookups) == (1, 5)


@pytest.mark.parametrize("capacity", [0, -1, 2.0, True])
def test_a_bad_capacity_is_refused(capacity):
    with pytest.raises(ValueError, match="expected capacity to be an int >= 1"):
        EvaluationCache(capacity, WIDTH, CELLS)


def test_bad_boards_and_outputs_of_the_wrong_shape_are_refused_and_nothing_is_kept():
    cache = EvaluationCache(4, WIDTH, CELLS)
    keys = make_key(5)[None]
    with pytest.raises(ValueError, match=r"expected compute to return shape \(1, 3\)"):
        lookup(cache, None, keys, lambda rows: np.zeros((1, 2), np.float32))
    assert len(cache) == 0
    zeros = lambda rows: np.zeros((1, 3), np.float32)  # noqa: E731
    for boards, to_play in [
        (keys[:, :-1].astype(np.int64), keys[:, -1]),  # not int8
        (np.zeros((1, 4), np.int8), keys[:, -1]),  # four cells, not three
        (keys[:, :-1].astype(np.int8), np.array([1, 2])),  # two movers for one board
    ]:
        with pytest.raises(ValueError, match=r"expected boards \[B, \.\.\.\] int8 of 3 cells"):
            cache.outputs(None, boards, to_play, zeros)
    assert len(cache) == 0 and cache.lookups == 0
