"""LightZero's own module and type names of the Box2D tasks ('lunarlander',
'lunarlander_cont_disc', 'bipedalwalker', 'bipedalwalker_cont_disc'), over our envs.

LightZero's configs name gym's old ids (``LunarLander-v2``, ``LunarLanderContinuous-v2``);
gymnasium 1.x has only the v3 tasks, so a v2 id is read as its v3 successor (same
observations, actions and rewards). LightZero's keys are honoured where they mean something
here and refused where they cannot be honoured; ``act_scale`` and the episode-step caps are
accepted with no effect (the actions of these tasks already span [-1, 1]; gymnasium's own
step limits apply, as in LightZero, whose caps are above them).
"""

from __future__ import annotations

import numpy as np

from lzero.errors import ConfigError

#: gym ids in LightZero's configs -> gymnasium ids.
V2_TO_V3 = {
    "LunarLander-v2": "LunarLander-v3",
    "LunarLanderContinuous-v2": "LunarLanderContinuous-v3",
    "BipedalWalker-v2": "BipedalWalker-v3",
}

LIGHTZERO_KEYS = dict(
    act_scale=True,  # (bool) LightZero's affine map of [-1, 1] onto the action bounds; no effect
    collect_max_episode_steps=int(1.08e5),  # (int) LightZero's cap; no effect (task's own limit)
    eval_max_episode_steps=int(1.08e5),  # (int) LightZero's cap; no effect (task's own limit)
    delay_reward_step=0,  # (int) LightZero's delayed reward; only 0 here
    prob_random_agent=0.0,  # (float) LightZero's random-action rate; only 0 here
    save_replay_gif=False,  # (bool) LightZero's: record each episode (enable_save_replay)
    replay_path_gif=None,  # (str|None) LightZero's folder of those replays
    replay_path=None,  # (str|None) LightZero's video folder; same as replay_path_gif here
    cfg_type=None,  # (str|None) DI-engine's config class name; no effect
)


#: BipedalWalker's own LightZero keys.
BIPEDAL_KEYS = dict(
    env_type="normal",  # (str) 'normal' (BipedalWalker-v3) or 'hardcore' (BipedalWalkerHardcore-v3)
    rew_clip=True,  # (bool) clip each reward at -10 (a fall's -100), as LightZero; the episode
    # return in info['eval_episode_return'] stays unclipped
)


def lightzero_variant(
    base: type, *, discretized: bool, bipedal: bool = False, env_id: str | None = None
) -> type:
    """A subclass of our Box2D env ``base`` that takes LightZero's keys (see the module
    docstring); ``discretized``: the ``*_cont_disc`` variant (a continuous task on a grid of
    ``each_dim_disc_size`` points per dimension); ``bipedal``: BipedalWalker's ``env_type``
    and ``rew_clip`` too; ``env_id``: the default task, if not ``base``'s."""

    class LightZeroBox2DEnv(base):
        config = dict(base.config, **LIGHTZERO_KEYS, **(BIPEDAL_KEYS if bipedal else {}))
        if discretized:
            config.update(continuous=True, manually_discretization=True, each_dim_disc_size=4)
        if env_id is not None:
            config.update(env_id=env_id)

        def step(self, action):
            timestep = super().step(action)
            if bipedal and self._cfg.rew_clip:
                timestep = timestep._replace(reward=np.maximum(timestep.reward, -10.0))
            return timestep

        def __init__(self, cfg: dict | None = None) -> None:
            cfg = dict(cfg or {})
            for key in ("delay_reward_step", "prob_random_agent"):
                if cfg.get(key, 0):
                    raise ConfigError(f"{key}: expected 0 (not available here), got {cfg[key]!r}")
            if bipedal:
                kind = cfg.get("env_type", "normal")
                if kind not in ("normal", "hardcore"):
                    raise ConfigError(f"env_type: expected 'normal' or 'hardcore', got {kind!r}")
                if kind == "hardcore":
                    cfg["env_name"] = "BipedalWalkerHardcore-v3"
            for key in ("env_name", "env_id"):  # LightZero's configs use both names
                if cfg.get(key) in V2_TO_V3:
                    cfg[key] = V2_TO_V3[cfg[key]]
            if "Continuous" in str(cfg.get("env_name") or cfg.get("env_id") or ""):
                cfg.setdefault("continuous", True)
            replays = cfg.get("replay_path_gif") or cfg.get("replay_path")
            super().__init__(cfg)
            if self._cfg.save_replay_gif:
                self.enable_save_replay(replays or "./video")

    LightZeroBox2DEnv.__name__ = LightZeroBox2DEnv.__qualname__ = base.__name__
    return LightZeroBox2DEnv
