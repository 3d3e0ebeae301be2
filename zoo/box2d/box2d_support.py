"""What the Box2D tasks share: a clear error, at construction, when Box2D is missing."""

from __future__ import annotations

import importlib.util

from lzero.envs.wrappers import LightZeroGymEnv
from lzero.errors import LZeroError


class Box2DNotInstalledError(LZeroError, ImportError):
    """The ``Box2D`` package that gymnasium's Box2D tasks import is not installed."""


class Box2DGymEnv(LightZeroGymEnv):
    """A :class:`~lzero.envs.wrappers.LightZeroGymEnv` whose task needs ``Box2D``.

    Raises:
        Box2DNotInstalledError: ``Box2D`` is not importable. (gymnasium would say so only on
            first use, advising a swig source build; the wheel from the registry is enough.)
    """

    def __init__(self, cfg: dict | None = None) -> None:
        if importlib.util.find_spec("Box2D") is None:
            raise Box2DNotInstalledError(
                f"{type(self).__name__}: expected the Box2D wheel, got none installed; "
                "pip install -e '.[box2d]' (or pip install Box2D; no swig needed)"
            )
        super().__init__(cfg)
