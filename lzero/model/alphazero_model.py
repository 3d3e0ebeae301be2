"""``AlphaZeroModel``: a small residual network with policy and value heads over board planes.

The tower follows AlphaZero (Silver et al. 2018; He et al. 2016 for the residual blocks): a
3x3 convolution stem, ``num_res_blocks`` blocks of two 3x3 convolutions with batch norm and a
skip connection, then a policy head (1x1 convolution, linear layers to ``A`` logits) and a
value head (1x1 convolution, hidden linear layers, ``tanh``). Names follow LightZero's
``AlphaZeroModel`` so its configs and calls carry over. With ``draw_head`` (ours) a third head
on the value head's features gives the logit of the game ending drawn (Lc0's
win/draw/loss heads tell the same apart), which the search's ``contempt`` reads.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn
from torch.nn import functional as F

from lzero.model.line_features import num_planes


class ResBlock(nn.Module):
    """Two 3x3 convolutions with batch norm and a skip connection."""

    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(y)))


def head_widths(value: int | Sequence[int]) -> list[int]:
    """The hidden widths of a head: LightZero's configs give a list (``[32]``), ours an int."""
    return [int(value)] if isinstance(value, int) else [int(v) for v in value]


def _mlp(inputs: int, hidden: Sequence[int], outputs: int, *last: nn.Module) -> nn.Module:
    """Linear layers ``inputs -> hidden... -> outputs`` with ReLU between them, then ``last``;
    a bare ``nn.Linear`` when there is neither a hidden layer nor ``last``."""
    if not hidden and not last:
        return nn.Linear(inputs, outputs)
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), nn.ReLU()]
        inputs = width
    return nn.Sequential(*layers, nn.Linear(inputs, outputs), *last)


class AlphaZeroModel(nn.Module):
    """Policy and value network of AlphaZero.

    Args:
        observation_shape: ``(C, H, W)`` of the board planes.
        action_space_size: ``A``.
        num_res_blocks: residual blocks in the tower.
        num_channels: channels of the tower.
        value_head_hidden_channels: hidden width of the value head, or the widths of its
            hidden layers (LightZero's configs give a list, ``[32]``).
        policy_head_hidden_channels: widths of the policy head's hidden layers between its
            1x1 convolution and the logits; ``()`` (ours by default): none.
        line_features: ours; ``k > 0``: the input is the board planes followed by their six
            window-count planes (:func:`lzero.model.line_features.with_line_planes` with
            windows of ``k`` cells; ``AlphaZeroPolicy`` adds them), `[B, C + 6, H, W]`; 0
            (LightZero's network): the board planes alone.
        line_directions: ours, with ``line_features``: the four direction planes too,
            `[B, C + 10, H, W]` (``with_line_planes(..., directions=True)``).
        draw_head: ours; also predict whether the game ends drawn: :meth:`forward` then
            returns a third output, the draw logits `[B, 1]`.
    """

    def __init__(
        self,
        observation_shape: Sequence[int] = (3, 6, 6),
        action_space_size: int = 9,
        num_res_blocks: int = 1,
        num_channels: int = 32,
        value_head_hidden_channels: int | Sequence[int] = 64,
        policy_head_hidden_channels: int | Sequence[int] = (),
        line_features: int = 0,
        draw_head: bool = False,
        line_directions: bool = False,
    ) -> None:
        super().__init__()
        c, h, w = (int(x) for x in observation_shape)
        self.observation_shape, self.action_space_size = (c, h, w), int(action_space_size)
        self.line_features = int(line_features)
        self.line_directions = bool(line_directions)
        extra = num_planes(self.line_directions) if line_features else 0
        self.stem = nn.Sequential(
            nn.Conv2d(c + extra, num_channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(num_channels),
            nn.ReLU(),
        )
        self.tower = nn.Sequential(*(ResBlock(num_channels) for _ in range(num_res_blocks)))
        self.policy_conv = nn.Sequential(
            nn.Conv2d(num_channels, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU()
        )
        self.policy_fc = _mlp(
            2 * h * w, head_widths(policy_head_hidden_channels), self.action_space_size
        )
        self.value_conv = nn.Sequential(
            nn.Conv2d(num_channels, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU()
        )
        value_hidden = head_widths(value_head_hidden_channels)
        self.value_fc = _mlp(h * w, value_hidden, 1, nn.Tanh())
        self.draw_fc = _mlp(h * w, value_hidden, 1) if draw_head else None

    @property
    def draw_head(self) -> bool:
        """Whether the model has the draw head (``forward`` returns three outputs)."""
        return self.draw_fc is not None

    def forward(self, state: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Policy logits `[B, A]` and value `[B, 1]` in ``[-1, 1]`` of planes `[B, C, H, W]`
        (`[B, C + 6, H, W]` with ``line_features``); with ``draw_head``, also the logits `[B, 1]`
        of the game ending drawn."""
        x = self.tower(self.stem(state))
        logits = self.policy_fc(self.policy_conv(x).flatten(1))
        features = self.value_conv(x).flatten(1)
        value = self.value_fc(features)
        if self.draw_fc is None:
            return logits, value
        return logits, value, self.draw_fc(features)

    def compute_policy_value(self, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Policy probabilities `[B, A]` and value `[B, 1]` (LightZero's name)."""
        logits, value = self(state)[:2]
        return F.softmax(logits, dim=-1), value

    def compute_logp_value(self, state: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Policy log-probabilities `[B, A]` and value `[B, 1]` (LightZero's name)."""
        logits, value = self(state)[:2]
        return F.log_softmax(logits, dim=-1), value
