"""MuZero MLP networks and the value transform, against closed forms."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lzero.model import MuZeroModelMLP  # noqa: E402
from lzero.policy.scaling_transform import (  # noqa: E402
    inverse_scalar_transform,
    scalar_to_support,
    scalar_transform,
    support_to_scalar,
)


def h_ref(x: float, eps: float = 0.001) -> float:
    return math.copysign(math.sqrt(abs(x) + 1) - 1, x) + eps * x


@settings(max_examples=60, deadline=None)
@given(st.floats(-5000, 5000, allow_nan=False))
def test_transform_matches_formula_and_inverts(x):
    t = torch.tensor([x], dtype=torch.float64)
    assert scalar_transform(t).item() == pytest.approx(h_ref(x), rel=1e-9, abs=1e-9)
    assert inverse_scalar_transform(scalar_transform(t)).item() == pytest.approx(
        x, rel=1e-6, abs=1e-6
    )


@settings(max_examples=60, deadline=None)
@given(st.floats(-200, 200, allow_nan=False))
def test_two_hot_support_round_trips(x):
    s = 50
    probs = scalar_to_support(torch.tensor([x], dtype=torch.float64), s)
    assert probs.sum().item() == pytest.approx(1.0)
    assert (probs > 0).sum() <= 2
    support = torch.arange(-s, s + 1, dtype=torch.float64)
    assert (probs * support).sum().item() == pytest.approx(h_ref(x), abs=1e-9)
    back = support_to_scalar(torch.log(probs.clamp_min(1e-300)), s)
    assert back.item() == pytest.approx(x, rel=1e-5, abs=1e-5)


def test_model_shapes_normalisation_and_zero_init():
    torch.manual_seed(0)
    m = MuZeroModelMLP(
        4, 3, latent_state_dim=16, hidden_size=32, head_hidden_size=8, support_scale=10
    )
    out = m.initial_inference(torch.randn(5, 4))
    assert out.latent_state.shape == (5, 16)
    assert out.value_logits.shape == (5, 21) and out.policy_logits.shape == (5, 3)
    assert torch.allclose(out.latent_state.min(1).values, torch.zeros(5))
    assert torch.allclose(out.latent_state.max(1).values, torch.ones(5), atol=1e-4)
    # Zero-initialised heads: uniform policy and a value of exactly 0.
    assert torch.all(out.policy_logits == 0)
    assert support_to_scalar(out.value_logits, 10).abs().max().item() < 1e-4
    nxt = m.recurrent_inference(out.latent_state, torch.tensor([0, 1, 2, 0, 1]))
    assert nxt.latent_state.shape == (5, 16) and nxt.reward_logits.shape == (5, 21)
    assert torch.all((nxt.latent_state >= 0) & (nxt.latent_state <= 1 + 1e-6))
