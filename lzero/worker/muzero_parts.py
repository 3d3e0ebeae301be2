"""The parts of a MuZero run built from its compiled config (``lzero.entry.config``): the env
factory, the policy and the collector. The driver builds them (``lzero.entry.muzero_setup``
re-exports these names), and so does each Ray self-play actor
(``lzero.worker.ray_muzero_collector``), below the entries."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Mapping

import numpy as np
from easydict import EasyDict

from lzero.policy.muzero import MuZeroPolicy

#: ``main_config.env`` keys the evaluation entries read, which a registered class gets only
#: when its own config declares them.
REPLAY_KEYS = ("replay_path", "save_replay_gif", "replay_path_gif")


def is_board(cfg: Mapping) -> bool:
    """Whether the compiled config trains on a board game (``policy.env_type``)."""
    return cfg.policy.env_type == "board_games"


def env_factory(cfg: Mapping, *, is_train: bool):
    """The factory of one env of the compiled config ``cfg``: the board game it names, the
    registered class ``create_config.env.type`` names (built with ``main_config.env``, as
    LightZero's ``train_muzero`` builds it), or else the gym task ``env_id`` names, wrapped."""
    from lzero.envs.get_wrapped_env import get_wrappered_env

    if is_board(cfg) or cfg.create_env.get("type"):
        from lzero.envs.registry import create_env

        spec, env_cfg = dict(cfg.create_env), dict(cfg.env)
        if not is_board(cfg):
            env_cfg = _class_env_cfg(spec, env_cfg, is_train=is_train)
        return lambda: create_env(spec, env_cfg)
    env = cfg.env
    wrapper_cfg = dict(
        env_id=env.env_id,
        continuous=env.continuous,
        manually_discretization=env.manually_discretization,
        each_dim_disc_size=env.each_dim_disc_size,
        is_train=is_train,
    )
    return get_wrappered_env(wrapper_cfg, env.env_id)


def _class_env_cfg(spec: Mapping, env_cfg: dict, *, is_train: bool) -> dict:
    """``main_config.env`` as a registered gym-task class gets it, as DI-engine's
    ``compile_config`` and LightZero's entries give it: an ``EasyDict`` over the class's
    ``default_config()`` (LightZero's custom envs read ``cfg.length``), through the class's
    own ``create_collector_env_cfg`` / ``create_evaluator_env_cfg`` (a ``DingEnvWrapper`` sets
    ``is_train`` there), without the evaluation entries' replay keys unless the class
    declares them."""
    from lzero.envs.registry import ENV_REGISTRY

    cls = ENV_REGISTRY.get(spec["type"])
    default = dict(cls.default_config()) if hasattr(cls, "default_config") else {}
    env_cfg = {k: v for k, v in env_cfg.items() if k not in REPLAY_KEYS or k in default}
    env_cfg = EasyDict(copy.deepcopy({**default, **env_cfg}))
    per_env = getattr(
        cls, "create_collector_env_cfg" if is_train else "create_evaluator_env_cfg", None
    )
    if per_env is None:
        return env_cfg
    return EasyDict(
        per_env(EasyDict({**env_cfg, "collector_env_num": 1, "evaluator_env_num": 1}))[0]
    )


def board_game(cfg: Mapping):
    """The ``lzero.policy.board_game.BoardGame`` of a compiled board-game config (made from
    one env of it), or None for a gym task."""
    if not is_board(cfg):
        return None
    from lzero.policy.board_game import BoardGame

    env = env_factory(cfg, is_train=False)()
    try:
        return BoardGame.from_env(env)
    finally:
        env.close()


def make_policy(cfg: Mapping, model=None) -> MuZeroPolicy:
    """The :class:`MuZeroPolicy` of a compiled config, given its board game (for the root's
    rules, ``policy.mcts``) when it trains on one.

    The policy checks its config again; ``compile_config`` has already warned about what a
    compiled config still holds (``cuda=True``), so that warning is not repeated here.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*cuda=True, but this build trains")
        return MuZeroPolicy(cfg.policy, model, game=board_game(cfg))


def make_muzero_collector(cfg: Mapping, manager, policy: MuZeroPolicy, seed: int):
    """A :class:`~lzero.worker.MuZeroCollector` over a launched ``manager`` with the config's
    segment length, pad and player count; ``seed`` seeds its search noise and sampling."""
    from lzero.worker.muzero_collector import MuZeroCollector

    pc = cfg.policy
    return MuZeroCollector(
        manager,
        policy,
        segment_length=pc.game_segment_length,
        pad=pc.num_unroll_steps + pc.td_steps,
        rng=np.random.default_rng(seed),
        two_player=is_board(cfg) and cfg.env.get("battle_mode") == "self_play_mode",
        fast_search_prob=pc.fast_search_prob,
        fast_search_simulations=pc.fast_search_simulations,
        # its own stream: the other draws stay as without it
        fast_rng=np.random.default_rng(seed + 3) if pc.fast_search_prob > 0 else None,
    )
