"""Pendulum (gymnasium ``Pendulum-v1``) as a LightZero env, continuous or discretized."""

from __future__ import annotations

from lzero.envs import ENV_REGISTRY
from lzero.envs.wrappers import LightZeroGymEnv


@ENV_REGISTRY.register("pendulum_lightzero")
class PendulumEnv(LightZeroGymEnv):
    """``Pendulum-v1`` through ``DingEnvWrapper`` and ``LightZeroEnvWrapper``.

    Observation `[3]` float32 (cos, sin, angular velocity); the torque is a ``Box(-2, 2, [1])``,
    or ``Discrete(n)`` over ``n`` evenly spaced torques from -2 to 2 with
    ``manually_discretization=True, each_dim_disc_size=n`` (or, as LightZero's Pendulum env
    has it, ``continuous=False`` without ``manually_discretization``); episodes last 200
    steps. Config keys: see :class:`~lzero.envs.wrappers.LightZeroGymEnv`.
    """

    config = dict(
        LightZeroGymEnv.config,
        env_id="Pendulum-v1",
        continuous=True,
    )

    def __init__(self, cfg: dict | None = None) -> None:
        cfg = dict(cfg or {})
        if cfg.get("continuous") is False and "manually_discretization" not in cfg:
            cfg["manually_discretization"] = True  # LightZero's PendulumEnv: Discrete(n)
        super().__init__(cfg)
