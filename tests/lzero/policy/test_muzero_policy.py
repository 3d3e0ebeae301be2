"""MuZero policy: config checks, learning on a fixed batch, search output, checkpoints."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from lzero.errors import ConfigError  # noqa: E402
from lzero.mcts.buffer import EpisodeRecorder, MuZeroGameBuffer  # noqa: E402
from lzero.policy import MuZeroPolicy, policy_config  # noqa: E402

SMALL = dict(
    model=dict(
        observation_shape=3,
        action_space_size=2,
        latent_state_dim=16,
        hidden_size=32,
        head_hidden_size=16,
        support_scale=20,
    ),
    num_simulations=8,
    batch_size=32,
    num_unroll_steps=3,
    td_steps=3,
    game_segment_length=10,
)


def filled_buffer(seed=0):
    cfg = policy_config(SMALL)
    buf = MuZeroGameBuffer(
        replay_buffer_size=1000,
        segment_length=10,
        num_unroll_steps=3,
        td_steps=3,
        discount_factor=cfg.discount_factor,
        observation_shape=3,
        action_space_size=2,
        seed=seed,
    )
    rng = np.random.default_rng(seed)
    for _ in range(6):
        # Reward 1 for action 1, 0 for action 0; the observation is the step's noise.
        rec = EpisodeRecorder(rng.normal(size=3), segment_length=10, pad=6)
        for _ in range(20):
            a = int(rng.integers(2))
            rec.append(a, float(a), rng.normal(size=3), np.array([0.2, 0.8]), 0.0)
            buf.push(rec.ready_segments())
        buf.push(rec.final_segments(truncated=True))
    return buf


def test_loss_on_a_fixed_batch_falls():
    torch.manual_seed(0)
    policy = MuZeroPolicy(SMALL)
    batch = filled_buffer().sample(32)
    first = policy.learn(batch)
    for _ in range(60):
        last = policy.learn(batch)
    assert last["total_loss"] < 0.5 * first["total_loss"]
    assert last["reward_loss"] < first["reward_loss"]
    assert policy.train_iter == 61


def test_search_respects_mask_and_returns_distributions():
    torch.manual_seed(0)
    policy = MuZeroPolicy({**SMALL, "model": {**SMALL["model"], "action_space_size": 3}})
    obs = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    mask = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1], [0, 0, 1]], np.int8)
    rng = np.random.default_rng(0)
    for explore in (True, False):
        actions, dist, values = policy.search(obs, mask, rng=rng, explore=explore)
        assert mask[np.arange(4), actions].all()
        np.testing.assert_allclose(dist.sum(1), 1.0, rtol=1e-6)
        assert (dist[mask == 0] == 0).all() and values.shape == (4,)


def test_checkpoint_round_trips_with_weights_only(tmp_path):
    torch.manual_seed(0)
    a = MuZeroPolicy(SMALL)
    batch = filled_buffer().sample(32)
    for _ in range(3):
        a.learn(batch)
    path = tmp_path / "ckpt.pth.tar"
    torch.save(a.state_dict(), path)
    torch.manual_seed(1)
    b = MuZeroPolicy(SMALL)
    b.load_state_dict(torch.load(path, weights_only=True))
    assert b.train_iter == 3
    x = torch.randn(5, 3)
    for ma, mb in ((a.model, b.model), (a.target_model, b.target_model)):
        oa, ob = ma.initial_inference(x), mb.initial_inference(x)
        assert torch.equal(oa.value_logits, ob.value_logits) and torch.equal(
            oa.policy_logits, ob.policy_logits
        )
    # Training continues identically (same optimizer state).
    assert a.learn(batch)["total_loss"] == b.learn(batch)["total_loss"]


@pytest.mark.parametrize(
    ("user", "match"),
    [
        ({"lerning_rate": 0.1}, r"unknown key 'lerning_rate'; did you mean 'learning_rate'\?"),
        (
            {"model": {"latent_dim": 3}},
            r"unknown key 'latent_dim'; did you mean 'latent_state_dim'\?",
        ),
        (
            {"update_per_collect": 10, "replay_ratio": 0.5},
            "expected only one of update_per_collect and replay_ratio",
        ),
        ({"cuda": True}, "expected cuda=False"),
        ({"num_simulations": 0}, "expected num_simulations to be a positive int, got 0"),
        ({"discount_factor": 1.5}, "expected 0 < discount_factor <= 1, got 1.5"),
        # Neither set: the loop would crash computing 'env_steps * None' after a collect.
        (
            {"replay_ratio": None},
            "expected one of update_per_collect and replay_ratio, got neither",
        ),
        # A zero or negative count silently trained nothing (or a ratio's 'max(1, ...)').
        (
            {"update_per_collect": 0, "replay_ratio": None},
            "expected update_per_collect to be a positive int or None, got 0",
        ),
        ({"replay_ratio": -0.5}, "expected replay_ratio to be a positive number, got -0.5"),
        ({"replay_ratio": "0.25"}, "expected replay_ratio to be a positive number, got '0.25'"),
        # torch's own message ('Invalid learning rate: -1.0') came after the envs launched.
        ({"learning_rate": -1.0}, "expected learning_rate to be a positive number, got -1.0"),
        ({"weight_decay": -1e-4}, "expected weight_decay to be a non-negative number"),
    ],
)
def test_config_errors(user, match):
    with pytest.raises(ConfigError, match=match):
        policy_config(user)
