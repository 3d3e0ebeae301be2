import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.utils.nbrng import int63_seed, make_rng_state, next_u64, randbelow, uniform


def _splitmix64(seed_state, n):
    """Plain-Python splitmix64 (Steele et al. 2014), the reference for the jitted one."""
    mask = (1 << 64) - 1
    s, out = int(seed_state), []
    for _ in range(n):
        s = (s + 0x9E3779B97F4A7C15) & mask
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


@settings(deadline=None)  # the first example compiles next_u64 when numba's cache is cold
@given(st.integers(0, 2**63))
def test_matches_the_reference_and_the_seed_fixes_the_stream(seed):
    state = make_rng_state(seed)
    expected = _splitmix64(state[0], 5)
    assert [int(next_u64(state)) for _ in range(5)] == expected
    again = make_rng_state(seed)
    assert [int(next_u64(again)) for _ in range(5)] == expected


def test_randbelow_is_uniform_and_in_range():
    state = make_rng_state(7)
    draws = np.array([randbelow(state, 7) for _ in range(70_000)])
    assert draws.min() == 0 and draws.max() == 6
    counts = np.bincount(draws, minlength=7)
    chi2 = ((counts - 10_000) ** 2 / 10_000).sum()
    assert chi2 < 22.46  # the 0.999 quantile of chi-square with 6 degrees of freedom


def test_uniform_is_in_unit_interval_with_the_right_mean():
    state = make_rng_state(3)
    xs = np.array([uniform(state) for _ in range(20_000)])
    assert 0.0 <= xs.min() and xs.max() < 1.0 and abs(xs.mean() - 0.5) < 0.01


@given(st.integers(0, 2**64 - 1), st.integers(1, 2**128))
def test_seeds_beyond_64_bits_do_not_replay_smaller_ones(low, high):
    """Seeds are ints of any size: one that differs from another only above bit 64 (2**64
    and 0) gets another stream, where the state kept only the low 64 bits; seeds below 2**64
    get splitmix64's output of their one multiply."""
    seed = low + (high << 64)
    assert int(make_rng_state(seed)[0]) != int(make_rng_state(low)[0])
    mask = (1 << 64) - 1
    start = (low * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019 - 0x9E3779B97F4A7C15) & mask
    assert int(make_rng_state(low)[0]) == _splitmix64(start, 1)[0]


@given(st.integers(0, 2**63 - 1), st.integers(1, 2**70))
def test_static_seeds_beyond_63_bits_do_not_wrap_onto_small_ones(low, high):
    seed = low + (high << 63)
    assert int63_seed(low) == low and 0 <= int63_seed(seed) < 2**63
    assert int63_seed(seed) != low


def _draws(state, n):
    return [int(next_u64(state)) for _ in range(n)]


@settings(deadline=None)
@given(st.integers(0, 2**64 - 2), st.integers(1, 1000))
def test_nearby_seeds_are_not_one_stream_shifted(seed, gap):
    # envs, pools and trees seed side by side with seed + i: with a state of seed * golden + c
    # seed s + k was seed s's stream k draws ahead, so their games were shifted copies
    other = min(seed + gap, 2**64 - 1)
    a = _draws(make_rng_state(seed), 2000)
    b = _draws(make_rng_state(other), 50)
    assert not set(a) & set(b)


def test_episode_streams_of_nearby_seeds_do_not_overlap():
    # an env's episode seeds come from its seed's stream, and a static seed seeds the
    # episode's streams itself: neither may put seed s + 1 one step behind seed s
    from lzero.envs.board_step import episode_streams

    def env_streams(seed, episodes):
        state, out = make_rng_state(seed), []
        for _ in range(episodes):
            streams = np.zeros(2, np.uint64)
            episode_streams(state, True, 0, streams)
            out += [int(x) for x in streams] + _draws(streams[:1].copy(), 20)
        return out

    def static_streams(seed):
        streams = np.zeros(2, np.uint64)
        episode_streams(np.zeros(1, np.uint64), False, seed, streams)
        return [int(x) for x in streams] + _draws(streams[:1].copy(), 200)

    assert not set(env_streams(0, 50)) & set(env_streams(1, 50))
    assert not set(static_streams(3)) & set(static_streams(4))
