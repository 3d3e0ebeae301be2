"""MuZero networks for vector observations: representation, dynamics and prediction MLPs.

Follows MuZero (Schrittwieser et al. 2020): ``h`` maps an observation to a latent state,
``g`` maps (latent, action) to the next latent and a reward, ``f`` maps a latent to a policy
and a value. Rewards and values are logits over a categorical support (see
:mod:`lzero.policy.scaling_transform`); latent states are min-max normalised to ``[0, 1]``
per sample, as in the paper's Appendix G.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch import nn


class MuZeroOutput(NamedTuple):
    """Outputs of one inference: `[B, D]` latent, `[B, S]` reward and value logits
    (``S = 2 * support_scale + 1``; reward logits are zeros for the initial inference) and
    `[B, A]` policy logits."""

    latent_state: torch.Tensor
    reward_logits: torch.Tensor
    value_logits: torch.Tensor
    policy_logits: torch.Tensor


def renormalize(x: torch.Tensor) -> torch.Tensor:
    """Min-max scales each row of `[B, D]` ``x`` to ``[0, 1]``."""
    lo = x.min(dim=-1, keepdim=True).values
    hi = x.max(dim=-1, keepdim=True).values
    return (x - lo) / (hi - lo).clamp_min(1e-5)


def mlp(sizes: list[int], *, zero_last: bool = False) -> nn.Sequential:
    """Linear-LayerNorm-ReLU blocks, ending with a plain Linear of ``sizes[-1]`` outputs."""
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 2):
        layers += [nn.Linear(sizes[i], sizes[i + 1]), nn.LayerNorm(sizes[i + 1]), nn.ReLU()]
    last = nn.Linear(sizes[-2], sizes[-1])
    if zero_last:
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
    layers.append(last)
    return nn.Sequential(*layers)


class ConsistencyHeads(nn.Module):
    """EfficientZero's self-supervised consistency heads (Ye et al. 2021, after SimSiam, Chen
    and He 2021), as LightZero builds them: a projection MLP with batch norm (``in_dim`` ->
    ``proj_hid`` -> ``proj_hid`` -> ``proj_out``) and, on the predicted branch only, a
    prediction MLP (``proj_out`` -> ``pred_hid`` -> ``pred_out``).
    """

    def __init__(self, in_dim: int, proj_hid: int, proj_out: int, pred_hid: int, pred_out: int):
        super().__init__()
        self.projection = nn.Sequential(
            nn.Linear(in_dim, proj_hid), nn.BatchNorm1d(proj_hid), nn.ReLU(),
            nn.Linear(proj_hid, proj_hid), nn.BatchNorm1d(proj_hid), nn.ReLU(),
            nn.Linear(proj_hid, proj_out), nn.BatchNorm1d(proj_out),
        )  # fmt: skip
        self.prediction_head = nn.Sequential(
            nn.Linear(proj_out, pred_hid), nn.BatchNorm1d(pred_hid), nn.ReLU(),
            nn.Linear(pred_hid, pred_out),
        )  # fmt: skip

    def forward(self, latent: torch.Tensor, with_grad: bool = True) -> torch.Tensor:
        """`[B, ...]` latents -> `[B, pred_out]` predictions (``with_grad``), or their
        `[B, proj_out]` projections detached (the target branch)."""
        proj = self.projection(latent.flatten(1))
        return self.prediction_head(proj) if with_grad else proj.detach()


class ConsistencyProjection:
    """LightZero's ``project`` for a MuZero model holding ``consistency_heads`` (a
    :class:`ConsistencyHeads`, or None when built without them)."""

    consistency_heads: ConsistencyHeads | None

    def project(self, latent: torch.Tensor, with_grad: bool = True) -> torch.Tensor:
        """EfficientZero's consistency projection of `[B, ...]` latents (flattened; see
        :class:`ConsistencyHeads`).

        Raises:
            RuntimeError: the model was built without the heads.
        """
        if self.consistency_heads is None:
            raise RuntimeError(
                f"{type(self).__name__}.project: expected a model built with "
                "self_supervised_learning_loss=True (the consistency heads), got one without"
            )
        return self.consistency_heads(latent, with_grad)


class MuZeroModelMLP(ConsistencyProjection, nn.Module):
    """The three MuZero functions as MLPs.

    Args:
        observation_shape: length ``O`` of the flat observation.
        action_space_size: number of discrete actions ``A``.
        latent_state_dim: size ``D`` of the latent state.
        hidden_size: width of the hidden layer of the representation and dynamics nets.
        head_hidden_size: width of the hidden layer of the reward, value and policy heads.
        support_scale: reward and value supports are ``-support_scale .. support_scale``.
        res_connection_in_dynamics: add the input latent to the dynamics output.
        last_linear_layer_init_zero: start the heads at uniform policy and zero value.
        self_supervised_learning_loss: build EfficientZero's consistency heads
            (:class:`ConsistencyHeads` of ``proj_hid``, ``proj_out``, ``pred_hid`` and
            ``pred_out``; EfficientZero's widths, a quarter of LightZero's for this model)
            for ``project`` (:class:`ConsistencyProjection`).
    """

    def __init__(
        self,
        observation_shape: int,
        action_space_size: int,
        *,
        latent_state_dim: int = 128,
        hidden_size: int = 128,
        head_hidden_size: int = 32,
        support_scale: int = 300,
        res_connection_in_dynamics: bool = True,
        last_linear_layer_init_zero: bool = True,
        self_supervised_learning_loss: bool = False,
        proj_hid: int = 256,
        proj_out: int = 256,
        pred_hid: int = 64,
        pred_out: int = 256,
    ) -> None:
        super().__init__()
        self.action_space_size = int(action_space_size)
        self.support_scale = int(support_scale)
        self.res = bool(res_connection_in_dynamics)
        n_support = 2 * self.support_scale + 1
        zero = bool(last_linear_layer_init_zero)
        self.representation = mlp([int(observation_shape), hidden_size, latent_state_dim])
        self.dynamics = mlp(
            [latent_state_dim + self.action_space_size, hidden_size, latent_state_dim]
        )
        self.reward_head = mlp([latent_state_dim, head_hidden_size, n_support], zero_last=zero)
        self.value_head = mlp([latent_state_dim, head_hidden_size, n_support], zero_last=zero)
        self.policy_head = mlp(
            [latent_state_dim, head_hidden_size, self.action_space_size], zero_last=zero
        )
        self.consistency_heads = (
            ConsistencyHeads(latent_state_dim, proj_hid, proj_out, pred_hid, pred_out)
            if self_supervised_learning_loss
            else None
        )

    def prediction(self, latent: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``f``: `[B, D]` latent -> (`[B, S]` value logits, `[B, A]` policy logits)."""
        return self.value_head(latent), self.policy_head(latent)

    def initial_inference(self, obs: torch.Tensor) -> MuZeroOutput:
        """``h`` then ``f`` on `[B, O]` observations."""
        latent = renormalize(self.representation(obs))
        value, policy = self.prediction(latent)
        return MuZeroOutput(latent, torch.zeros_like(value), value, policy)

    def recurrent_inference(self, latent: torch.Tensor, action: torch.Tensor) -> MuZeroOutput:
        """``g`` then ``f`` on a `[B, D]` latent and `[B]` int64 actions."""
        one_hot = nn.functional.one_hot(action.long(), self.action_space_size).to(latent.dtype)
        nxt = self.dynamics(torch.cat([latent, one_hot], dim=-1))
        if self.res:
            nxt = nxt + latent
        nxt = renormalize(nxt)
        value, policy = self.prediction(nxt)
        return MuZeroOutput(nxt, self.reward_head(nxt), value, policy)
