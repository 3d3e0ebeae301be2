"""The MuZero value transform and categorical supports (Schrittwieser et al. 2020, App. F).

Values and rewards are squashed by ``h(x) = sign(x) (sqrt(|x| + 1) - 1) + eps x``
(Pohlen et al. 2018), then written as a two-hot distribution over the integers
``-support_scale .. support_scale``; the networks predict logits over that support.
"""

from __future__ import annotations

import torch

EPS = 0.001


def scalar_transform(x: torch.Tensor, eps: float = EPS) -> torch.Tensor:
    """``h(x)``, elementwise."""
    return torch.sign(x) * (torch.sqrt(torch.abs(x) + 1) - 1) + eps * x


def inverse_scalar_transform(y: torch.Tensor, eps: float = EPS) -> torch.Tensor:
    """``h^-1(y)``, elementwise; the closed form from the MuZero paper."""
    root = (torch.sqrt(1 + 4 * eps * (torch.abs(y) + 1 + eps)) - 1) / (2 * eps)
    return torch.sign(y) * (root**2 - 1)


def scalar_to_support(x: torch.Tensor, support_scale: int) -> torch.Tensor:
    """Two-hot encodes ``h(x)``.

    Args:
        x: `[...]` scalars.
        support_scale: the support is ``-support_scale .. support_scale``.

    Returns:
        `[..., 2 * support_scale + 1]` probabilities whose mean is ``h(x)`` (clipped).
    """
    y = scalar_transform(x).clamp(-support_scale, support_scale)
    low = y.floor()
    frac = y - low
    idx = (low + support_scale).long()
    out = torch.zeros(*x.shape, 2 * support_scale + 1, dtype=x.dtype, device=x.device)
    out.scatter_(-1, idx.unsqueeze(-1), (1 - frac).unsqueeze(-1))
    upper = (idx + 1).clamp(max=2 * support_scale)
    out.scatter_add_(-1, upper.unsqueeze(-1), frac.unsqueeze(-1))
    return out


def support_to_scalar(logits: torch.Tensor, support_scale: int) -> torch.Tensor:
    """Expected value of the softmax over the support, mapped back by ``h^-1``.

    Args:
        logits: `[..., 2 * support_scale + 1]`.

    Returns:
        `[...]` scalars.
    """
    support = torch.arange(
        -support_scale, support_scale + 1, dtype=logits.dtype, device=logits.device
    )
    return inverse_scalar_transform((torch.softmax(logits, dim=-1) * support).sum(-1))
