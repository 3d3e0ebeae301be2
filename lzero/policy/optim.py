"""The optimizer and learning-rate schedule that AlphaZero's and MuZero's policies share,
under LightZero's config names (``optim_type``, ``learning_rate``, ``weight_decay``,
``momentum``, ``lr_piecewise_constant_decay``, ``threshold_training_steps_for_final_lr``).
Imported by the config checks too, so torch is imported only where an optimizer is built."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

#: ``optim_type`` values: SGD (with ``momentum``), Adam, and AdamW (decoupled weight decay).
OPTIM_TYPES = ("SGD", "Adam", "AdamW")


def make_optimizer(params: Iterable[torch.nn.Parameter], cfg: Mapping) -> torch.optim.Optimizer:
    """The optimizer ``cfg.optim_type`` names (one of :data:`OPTIM_TYPES`, checked by the
    config compilers) over ``params``, at ``cfg.learning_rate`` with ``cfg.weight_decay``."""
    import torch

    lr, decay = cfg["learning_rate"], cfg["weight_decay"]
    if cfg["optim_type"] == "SGD":
        return torch.optim.SGD(params, lr=lr, momentum=cfg["momentum"], weight_decay=decay)
    if cfg["optim_type"] == "AdamW":
        return torch.optim.AdamW(params, lr=lr, weight_decay=decay)
    return torch.optim.Adam(params, lr=lr, weight_decay=decay)


def lr_factor(cfg: Mapping, train_iter: int) -> float:
    """LightZero's piecewise-constant decay: with ``cfg.lr_piecewise_constant_decay`` the
    learning rate is multiplied by 1, then 0.1 from a third and 0.01 from two thirds of
    ``cfg.threshold_training_steps_for_final_lr`` gradient steps; without it, by 1."""
    if not cfg["lr_piecewise_constant_decay"]:
        return 1.0
    final = cfg["threshold_training_steps_for_final_lr"]
    if train_iter < final / 3:
        return 1.0
    return 0.1 if train_iter < 2 * final / 3 else 0.01


def set_learning_rate(optimizer: torch.optim.Optimizer, cfg: Mapping, train_iter: int) -> None:
    """Sets every parameter group's rate to ``cfg.learning_rate`` times :func:`lr_factor`."""
    for group in optimizer.param_groups:
        group["lr"] = cfg["learning_rate"] * lr_factor(cfg, train_iter)
