"""Replay targets against a plain-Python computation on the whole episodes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lzero.mcts.buffer import EpisodeRecorder, MuZeroGameBuffer


def make_episodes(rng, n_episodes, n_act):
    episodes = []
    for e in range(n_episodes):
        length = int(rng.integers(1, 40))
        episodes.append(
            dict(
                # Observations encode (episode, step) so samples can be traced back.
                obs=np.array([[e, t, 0.0] for t in range(length + 1)], np.float32),
                action=rng.integers(0, n_act, length),
                reward=rng.normal(size=length).astype(np.float32),
                # A fifth of the steps are playout-capped fast searches: no policy target.
                policy=(
                    rng.dirichlet(np.ones(n_act), length) * (rng.random((length, 1)) > 0.2)
                ).astype(np.float32),
                truncated=bool(rng.random() < 0.5),
                # Half the episodes are two-player games: players alternate from a random one.
                to_play=(
                    np.full(length, -1)
                    if rng.random() < 0.5
                    else 1 + (np.arange(length) + int(rng.integers(2))) % 2
                ),
            )
        )
    return episodes


def reference_targets(ep, t, k_steps, n, gamma):
    """Unrolled targets of a sample starting at step ``t``, straight from the definitions.

    In a two-player episode each reward is its mover's and each value the player to move's:
    a term counts for the player to move at step ``j`` if the same player moves at its step,
    against them otherwise."""
    length = len(ep["action"])
    players = list(ep["to_play"])

    def view(j, i):  # +1 if step i's mover (or player to move) is step j's
        if players[0] == -1:
            return 1.0
        mover_i = players[i] if i < length else 3 - players[length - 1]
        return 1.0 if mover_i == players[j] else -1.0

    out = {"value_prefix": [], "coef": [], "boot_t": [], "policy": [], "reward": [], "action": []}
    for k in range(k_steps + 1):
        j = t + k
        prefix = sum(
            gamma**i * view(j, j + i) * ep["reward"][j + i] for i in range(n) if j + i < length
        )
        if j >= length:
            coef, boot = 0.0, None
        elif j + n < length:
            coef, boot = gamma**n * view(j, j + n), j + n
        elif ep["truncated"]:
            coef, boot = gamma ** (length - j) * view(j, length), length
        else:
            coef, boot = 0.0, None
        out["value_prefix"].append(prefix)
        out["coef"].append(coef)
        out["boot_t"].append(boot)
        out["policy"].append(ep["policy"][j] if j < length else np.zeros_like(ep["policy"][0]))
        if k < k_steps:
            out["reward"].append(ep["reward"][j] if j < length else 0.0)
            out["action"].append(ep["action"][j] if j < length else None)
    return out


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    seg_len=st.integers(1, 12),
    k_steps=st.integers(1, 5),
    n=st.integers(1, 6),
)
def test_sampled_targets_match_reference(seed, seg_len, k_steps, n):
    rng = np.random.default_rng(seed)
    gamma, n_act = 0.9, 3
    episodes = make_episodes(rng, 4, n_act)
    buf = MuZeroGameBuffer(
        replay_buffer_size=10_000,
        segment_length=seg_len,
        num_unroll_steps=k_steps,
        td_steps=n,
        discount_factor=gamma,
        observation_shape=3,
        action_space_size=n_act,
        seed=seed,
        consistency_targets=True,
    )
    for ep in episodes:
        rec = EpisodeRecorder(ep["obs"][0], segment_length=seg_len, pad=k_steps + n)
        for t in range(len(ep["action"])):
            rec.append(
                ep["action"][t], ep["reward"][t], ep["obs"][t + 1], ep["policy"][t], 0.0,
                ep["to_play"][t],
            )  # fmt: skip
            buf.push(rec.ready_segments())
        buf.push(rec.final_segments(truncated=ep["truncated"]))
    assert len(buf) == sum(len(ep["action"]) for ep in episodes)
    batch = buf.sample(64)
    for b in range(64):
        e, t = (int(x) for x in batch["obs"][b, :2])
        ref = reference_targets(episodes[e], t, k_steps, n, gamma)
        np.testing.assert_allclose(
            batch["value_prefix"][b], ref["value_prefix"], rtol=1e-5, atol=1e-5
        )
        np.testing.assert_allclose(batch["bootstrap_coef"][b], ref["coef"], rtol=1e-6)
        for k, bt in enumerate(ref["boot_t"]):
            if bt is not None:
                assert tuple(batch["bootstrap_obs"][b, k, :2]) == (e, bt)
        np.testing.assert_allclose(batch["target_policy"][b], np.stack(ref["policy"]), rtol=1e-6)
        np.testing.assert_allclose(batch["policy_mask"][b], [p.sum() > 0 for p in ref["policy"]])
        steps = range(t, t + k_steps + 1)  # the other losses count fast-search steps too
        np.testing.assert_array_equal(
            batch["episode_mask"][b], [j < len(episodes[e]["action"]) for j in steps]
        )
        np.testing.assert_allclose(batch["target_reward"][b], ref["reward"], rtol=1e-6)
        for k, a in enumerate(ref["action"]):
            assert a is None or batch["action"][b, k] == a
        # The consistency loss's targets: the observations at t + 1 .. t + K (the last one
        # included), zeros past the episode's end.
        length = len(episodes[e]["action"])
        for k in range(1, k_steps + 1):
            got = batch["target_obs"][b, k - 1]
            if t + k <= length:
                assert tuple(got[:2]) == (e, t + k)
            else:
                assert not got.any()


def test_ring_overwrites_oldest_and_empty_buffer_errors():
    buf = MuZeroGameBuffer(
        replay_buffer_size=4,
        segment_length=2,
        num_unroll_steps=1,
        td_steps=1,
        discount_factor=1.0,
        observation_shape=1,
        action_space_size=2,
    )
    with pytest.raises(
        ValueError, match="expected a non-empty buffer to sample from, got 0 transitions"
    ):
        buf.sample(1)
    for e in range(3):
        rec = EpisodeRecorder(np.array([e]), segment_length=2, pad=2)
        for _ in range(2):
            rec.append(0, 1.0, np.array([e]), np.array([0.5, 0.5]), 0.0)
        buf.push(rec.final_segments(truncated=False))
    assert len(buf) == 4
    assert set(buf.sample(100)["obs"][:, 0]) == {1.0, 2.0}


def _numpy_symmetries(name):
    """The board's symmetries as numpy operations on `[..., H, W]`, written independently of
    BoardGame's tables: the 8 of the square for TicTacToe, the mirror for Connect4."""
    if name == "connect4":
        return [lambda x: x, lambda x: x[..., ::-1]]
    rots = [lambda x, r=r: np.rot90(x, r, axes=(-2, -1)) for r in range(4)]
    return rots + [lambda x, f=f: f(x)[..., ::-1] for f in rots]


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_symmetric_samples_are_the_stored_games_on_a_transformed_board(name):
    """Each augmented sample is its stored game on a transformed board: the observation
    planes and the bootstrap observations transformed, the unrolled actions moved to their
    transformed cells (columns), the policy targets carried along; all symmetries occur."""
    from lzero.envs import ENV_REGISTRY
    from lzero.policy.board_game import BoardGame

    env = ENV_REGISTRY.build(name)
    game = BoardGame.from_env(env)
    h, w, n_act = game.height, game.width, game.action_size
    rng = np.random.default_rng(3)
    segments = []
    for episode in range(12):
        env.seed(episode)
        obs = env.reset()
        rec = EpisodeRecorder(obs["observation"].ravel(), segment_length=9, pad=6)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            policy = np.zeros(n_act, np.float32)
            policy[legal] = rng.dirichlet(np.ones(len(legal)))
            a = int(rng.choice(legal))
            player = int(obs["to_play"])
            ts = env.step(a)
            obs, done = ts.obs, ts.done
            rec.append(
                a,
                float(np.asarray(ts.reward).item()),
                obs["observation"].ravel(),
                policy,
                0.0,
                player,
            )
            segments += rec.ready_segments()
        segments += rec.final_segments(truncated=False)
    kwargs = dict(
        replay_buffer_size=1000, segment_length=9, num_unroll_steps=3, td_steps=3,
        discount_factor=1.0, observation_shape=3 * h * w, action_space_size=n_act, seed=5,
    )  # fmt: skip
    plain = MuZeroGameBuffer(**kwargs, consistency_targets=True)
    augmented = MuZeroGameBuffer(
        **kwargs, symmetries=game.symmetry_permutations(), consistency_targets=True
    )
    plain.push(segments)
    augmented.push(segments)
    # The symmetry is drawn after everything else, so one call draws the same samples.
    p, q = plain.sample(300), augmented.sample(300)
    cell_of = np.arange(n_act).reshape(1, w) if name == "connect4" else np.arange(9).reshape(3, 3)
    used = set()
    for b in range(300):
        matches = []
        for k, f in enumerate(_numpy_symmetries(name)):
            moved = f(cell_of).ravel()  # the transformed board's action j is stored action moved[j]
            image = np.argsort(moved)  # stored action a is the transformed board's image[a]
            ok = (
                np.array_equal(f(p["obs"][b].reshape(3, h, w)).ravel(), q["obs"][b])
                and np.array_equal(
                    f(p["bootstrap_obs"][b].reshape(-1, 3, h, w)).reshape(4, -1),
                    q["bootstrap_obs"][b],
                )
                and np.array_equal(
                    f(p["target_obs"][b].reshape(-1, 3, h, w)).reshape(3, -1), q["target_obs"][b]
                )
                and np.array_equal(image[p["action"][b]], q["action"][b])
                and np.array_equal(p["target_policy"][b][:, moved], q["target_policy"][b])
            )
            if ok:
                matches.append(k)
        assert matches, f"sample {b} is no symmetry of its stored game"
        used.update(matches if len(matches) == 1 else [])
        for key in ("target_reward", "policy_mask", "value_prefix", "bootstrap_coef"):
            np.testing.assert_array_equal(p[key][b], q[key][b])
    assert used == set(range(game.num_symmetries))


def test_consistency_targets_draw_the_same_samples():
    """Asking for the consistency targets adds ``target_obs`` and changes no other key: the
    same seed draws the same batch."""
    kwargs = dict(
        replay_buffer_size=1000, segment_length=5, num_unroll_steps=3, td_steps=2,
        discount_factor=0.9, observation_shape=3, action_space_size=3, seed=1,
    )  # fmt: skip
    plain, with_targets = (
        MuZeroGameBuffer(**kwargs),
        MuZeroGameBuffer(**kwargs, consistency_targets=True),
    )
    rng = np.random.default_rng(0)
    for ep in make_episodes(rng, 5, 3):
        rec = EpisodeRecorder(ep["obs"][0], segment_length=5, pad=5)
        segments = []
        for t in range(len(ep["action"])):
            rec.append(ep["action"][t], ep["reward"][t], ep["obs"][t + 1], ep["policy"][t], 0.0)
            segments += rec.ready_segments()
        segments += rec.final_segments(truncated=ep["truncated"])
        plain.push(segments)
        with_targets.push(segments)
    p, q = plain.sample(50), with_targets.sample(50)
    assert set(q) - set(p) == {"target_obs", "episode_mask"}
    assert q["target_obs"].shape == (50, 3, 3)
    for key in p:
        np.testing.assert_array_equal(p[key], q[key])
    # the episode's mask covers the policy's and the fast-search steps it leaves out
    assert (q["episode_mask"] >= p["policy_mask"]).all()
    assert (q["episode_mask"] > p["policy_mask"]).any()
