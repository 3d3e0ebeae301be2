"""MuZero networks for board planes: convolutional representation, dynamics and prediction.

Follows MuZero (Schrittwieser et al. 2020, appendix F) at a small size: ``h`` maps `[C, H, W]`
planes to a latent `[K, H, W]` (a 3x3 convolution stem and residual blocks, He et al. 2016),
``g`` stacks the latent with a plane for the action and maps it to the next latent and a
reward, ``f`` maps a latent to a policy and a value. Rewards and values are logits over a
categorical support (:mod:`lzero.policy.scaling_transform`); each latent is min-max scaled to
``[0, 1]`` per sample (appendix G). Names follow LightZero's ``MuZeroModel`` so its configs
carry over. Observations come flat (`[B, C * H * W]`, as the replay stores them) or as planes.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from lzero.model.alphazero_model import ResBlock
from lzero.model.muzero_model_mlp import (
    ConsistencyHeads,
    ConsistencyProjection,
    MuZeroOutput,
    mlp,
)


def renormalize_planes(x: torch.Tensor) -> torch.Tensor:
    """Min-max scales each sample of `[B, K, H, W]` ``x`` to ``[0, 1]``."""
    flat = x.flatten(1)
    lo = flat.min(dim=1, keepdim=True).values
    hi = flat.max(dim=1, keepdim=True).values
    return ((flat - lo) / (hi - lo).clamp_min(1e-5)).view_as(x)


def _conv_bn_relu(c_in: int, c_out: int, k: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, k, padding=k // 2, bias=False), nn.BatchNorm2d(c_out), nn.ReLU()
    )


class _Head(nn.Module):
    """A 1x1 convolution to ``channels`` planes, then an MLP to ``out`` logits."""

    def __init__(self, k: int, channels: int, hw: int, hidden: Sequence[int], out: int, zero):
        super().__init__()
        self.conv = _conv_bn_relu(k, channels, 1)
        self.fc = mlp([channels * hw, *hidden, out], zero_last=zero)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.conv(x).flatten(1))


class MuZeroModel(ConsistencyProjection, nn.Module):
    """The three MuZero functions as small residual convolution networks.

    Args:
        observation_shape: ``(C, H, W)`` of the board planes.
        action_space_size: number of actions ``A``.
        num_res_blocks: residual blocks in each of ``h``, ``g`` and ``f``.
        num_channels: channels ``K`` of the latent state.
        reward_head_channels, value_head_channels, policy_head_channels: planes of each head's
            1x1 convolution.
        fc_reward_layers, fc_value_layers, fc_policy_layers: hidden widths of each head's MLP.
        support_scale: reward and value supports are ``-support_scale .. support_scale``.
        last_linear_layer_init_zero: start the heads at uniform policy and zero value.
        self_supervised_learning_loss: build EfficientZero's consistency heads over the
            flattened latent (:class:`~lzero.model.muzero_model_mlp.ConsistencyHeads`;
            EfficientZero's and LightZero's widths) for ``project``
            (:class:`~lzero.model.muzero_model_mlp.ConsistencyProjection`).
    """

    def __init__(
        self,
        observation_shape: Sequence[int],
        action_space_size: int,
        *,
        num_res_blocks: int = 1,
        num_channels: int = 32,
        reward_head_channels: int = 8,
        value_head_channels: int = 8,
        policy_head_channels: int = 8,
        fc_reward_layers: Sequence[int] = (32,),
        fc_value_layers: Sequence[int] = (32,),
        fc_policy_layers: Sequence[int] = (32,),
        support_scale: int = 10,
        last_linear_layer_init_zero: bool = True,
        self_supervised_learning_loss: bool = False,
        proj_hid: int = 256,
        proj_out: int = 256,
        pred_hid: int = 64,
        pred_out: int = 256,
    ) -> None:
        super().__init__()
        c, h, w = (int(x) for x in observation_shape)
        self.observation_shape, self.action_space_size = (c, h, w), int(action_space_size)
        self.support_scale = int(support_scale)
        n_support, k, hw, zero = (
            2 * self.support_scale + 1,
            int(num_channels),
            h * w,
            bool(last_linear_layer_init_zero),
        )
        blocks = int(num_res_blocks)
        self.representation = nn.Sequential(
            _conv_bn_relu(c, k, 3), *(ResBlock(k) for _ in range(blocks))
        )
        # The action enters as one learned plane per action (a board cell for placement games,
        # a column for Connect4), stacked on the latent.
        self.action_planes = nn.Embedding(self.action_space_size, hw)
        self.dynamics_stem = nn.Sequential(
            nn.Conv2d(k + 1, k, 3, padding=1, bias=False), nn.BatchNorm2d(k)
        )
        self.dynamics_tower = nn.Sequential(*(ResBlock(k) for _ in range(blocks)))
        self.reward_head = _Head(k, reward_head_channels, hw, fc_reward_layers, n_support, zero)
        self.prediction_tower = nn.Sequential(*(ResBlock(k) for _ in range(blocks)))
        self.value_head = _Head(k, value_head_channels, hw, fc_value_layers, n_support, zero)
        self.policy_head = _Head(
            k, policy_head_channels, hw, fc_policy_layers, self.action_space_size, zero
        )
        self.consistency_heads = (
            ConsistencyHeads(k * hw, proj_hid, proj_out, pred_hid, pred_out)
            if self_supervised_learning_loss
            else None
        )

    def prediction(self, latent: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``f``: `[B, K, H, W]` latent -> (`[B, S]` value logits, `[B, A]` policy logits)."""
        x = self.prediction_tower(latent)
        return self.value_head(x), self.policy_head(x)

    def initial_inference(self, obs: torch.Tensor) -> MuZeroOutput:
        """``h`` then ``f`` on `[B, C, H, W]` (or flat `[B, C * H * W]`) observations."""
        latent = renormalize_planes(self.representation(obs.view(-1, *self.observation_shape)))
        value, policy = self.prediction(latent)
        return MuZeroOutput(latent, torch.zeros_like(value), value, policy)

    def recurrent_inference(self, latent: torch.Tensor, action: torch.Tensor) -> MuZeroOutput:
        """``g`` then ``f`` on a `[B, K, H, W]` latent and `[B]` int64 actions."""
        _, h, w = self.observation_shape
        plane = self.action_planes(action.long()).view(-1, 1, h, w)
        x = self.dynamics_stem(torch.cat([latent, plane], dim=1))
        nxt = renormalize_planes(self.dynamics_tower(torch.relu(x + latent)))
        value, policy = self.prediction(nxt)
        return MuZeroOutput(nxt, self.reward_head(nxt), value, policy)
