"""Compiles LightZero-shaped ``[main_config, create_config]`` pairs for the MuZero entries."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from easydict import EasyDict

from lzero.envs.config import (
    check_positive_ints,
    merge_config,
    merge_config_pair,
    take_renamed,
)
from lzero.envs.env_manager.factory import get_env_manager_cls, manager_type
from lzero.errors import ConfigError
from lzero.policy.muzero_config import MUZERO_POLICY_CONFIG, policy_config
from lzero.utils.replay_io import check_replay_dir

#: ``main_config.env`` keys the evaluation entries read, which a registered class gets only
#: when its own config declares them (the env factory's, re-exported).
from lzero.worker.muzero_parts import REPLAY_KEYS as REPLAY_KEYS

ENV_CONFIG = dict(
    env_id=None,  # (str) gymnasium id of the task, e.g. 'CartPole-v0'
    env_name=None,  # (str|None) LightZero's other name of env_id (its MountainCar and
    # LunarLander configs); given, it sets env_id
    continuous=False,  # (bool) the gym action space is continuous (Box)
    manually_discretization=False,  # (bool) discretise a continuous action space on a grid
    each_dim_disc_size=11,  # (int) grid points per action dimension when discretising
    collector_env_num=8,  # (int) envs stepped together by the collector
    evaluator_env_num=3,  # (int) envs stepped together by the evaluator
    n_evaluator_episode=3,  # (int) episodes per evaluation
    stop_value=int(1e10),  # (float) stop training once the mean eval return reaches this
    replay_path=None,  # (str|None) LightZero's (its eval scripts set it): the evaluation entries
    # (eval_muzero, lzero eval) save every evaluation episode there, as a GIF; a training run
    # records nothing and warns (LightZero's envs would record every collected episode too)
    save_replay_gif=False,  # (bool) LightZero's newer switch (its cartpole_eval.py): with it,
    # the evaluation entries save every evaluation episode as a GIF in replay_path_gif
    replay_path_gif=None,  # (str|None) where, with save_replay_gif (None: <exp_name>/replay)
    manager=dict(),  # (dict) the env manager's cfg (its keys: BaseEnvManager.config, and
    # RayEnvManager.config for 'ray'), plus an optional type naming the manager; with type
    # 'ray', self_play_actors=True runs self-play in Ray actors (SELF_PLAY_MANAGER_CONFIG)
)

MAIN_CONFIG = dict(
    exp_name="data_muzero/default",  # (str) output directory: ckpt/, progress.csv, PNG
    env=ENV_CONFIG,
    policy=MUZERO_POLICY_CONFIG,
)

#: The trainer's keys in a board game's ``main_config.env`` (the env class accepts them too and
#: checks every other key itself).
BOARD_TRAINER_CONFIG = dict(
    collector_env_num=8,  # (int) games collected at once (one batched search)
    evaluator_env_num=5,  # (int) LightZero's; evaluation plays all its games at once
    n_evaluator_episode=10,  # (int) evaluation games per bot
    stop_value=1,  # (float) stop once the mean eval return against the first bot (wins minus
    # losses per game) reaches this
    manager=dict(),  # (dict) the env manager's cfg (its keys: BaseEnvManager.config, and
    # RayEnvManager.config for 'ray'), plus an optional type naming the manager; with type
    # 'ray', self_play_actors=True runs self-play in Ray actors (SELF_PLAY_MANAGER_CONFIG)
)

#: The trainer's keys in ``main_config.env`` of a gym task built from its registered class
#: (``create_config.env.type``): the class checks every other key itself.
GYM_TRAINER_CONFIG = {
    k: ENV_CONFIG[k]
    for k in (
        "collector_env_num", "evaluator_env_num", "n_evaluator_episode", "stop_value",
        "replay_path", "save_replay_gif", "replay_path_gif", "manager",
    )
}  # fmt: skip

#: ``main_config.env.manager`` keys that the trainer reads; the rest configure the manager.
TRAINER_MANAGER_KEYS = ("type", "self_play_actors", "weight_sync_freq")

CREATE_CONFIG = dict(
    env=dict(type=None, import_names=[]),  # (dict) env registry entry: the class is built with
    # main_config.env, as LightZero's train_muzero builds it; without a type, env_id's gym task
    # is wrapped (LightZero's train_muzero_with_gym_env)
    env_manager=dict(type="base"),  # (dict) 'base' (in-process), 'subprocess' or 'ray' (Ray
    # actors, pip install -e ".[ray]"); main_config.env.manager.type may name it instead
    policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),  # (dict) must be muzero
    collector=dict(type="episode_muzero", import_names=[], get_train_sample=True),  # (dict)
    # LightZero's; no effect (one collector here)
)


def compile_config(input_cfg: Sequence[Mapping]) -> EasyDict:
    """Validates and merges ``[main_config, create_config]`` over the defaults.

    Returns:
        The main config with ``env_manager`` (from the create config) added.

    Raises:
        ConfigError: the input is not a pair of dicts, a key is unknown, the policy type
            is not ``'muzero'`` or ``'gumbel_muzero'``, or settings contradict each other.
    """
    main_user, create = merge_config_pair(
        input_cfg, CREATE_CONFIG, ("muzero", "gumbel_muzero"), MAIN_CONFIG, _env_checked_elsewhere
    )
    board = is_board_game(create.env)
    # the manager type named in either place: checked here, built by make_env_manager
    manager_type(
        (main_user.get("env") or {}).get("manager") or {}, create.env_manager, "main_config.env"
    )
    policy_user = dict(main_user.pop("policy", {}) or {})
    policy_user.setdefault("type", create.policy.type)
    policy = policy_config(policy_user)
    _check_env_type(policy, create, board)
    if board:
        env_user = dict(main_user.pop("env", {}) or {})
        env_id = env_user.get("env_id")
        if env_id and _is_gym_id(env_id):
            raise ConfigError(
                f"main_config.env.env_id: create_config.env.type {create.env.type!r} is a board "
                f"game, but env_id {env_id!r} names a gym task; remove env_id or use the task's "
                "type"
            )
        main = merge_config(
            {k: v for k, v in MAIN_CONFIG.items() if k not in ("policy", "env")}, main_user,
            where="main_config",
        )  # fmt: skip
        main.env = EasyDict({**BOARD_TRAINER_CONFIG, **env_user})
        check_positive_ints(
            main.env, ("collector_env_num", "evaluator_env_num", "n_evaluator_episode"),
            where="main_config.env",
        )  # fmt: skip
        main.policy, main.env_manager, main.create_env = policy, create.env_manager, create.env
        return _with_self_play(main)
    if create.env.get("type"):  # a registered gym-task class: built with main_config.env
        env_user = dict(main_user.pop("env", {}) or {})
        main = merge_config(
            {k: v for k, v in MAIN_CONFIG.items() if k not in ("policy", "env")}, main_user,
            where="main_config",
        )  # fmt: skip
        main.env = EasyDict({**copy.deepcopy(GYM_TRAINER_CONFIG), **env_user})
        env = main.env
    else:
        main = merge_config(
            {k: v for k, v in MAIN_CONFIG.items() if k != "policy"}, main_user,
            where="main_config",
        )  # fmt: skip
        env = main.env
    if not create.env.get("type"):
        take_renamed(main_user.get("env") or {}, env, "env_name", "env_id", where="main_config.env")
        if not env.env_id:
            raise ConfigError(
                "main_config.env: expected an env_id such as 'CartPole-v0' (or "
                "create_config.env.type naming a registered env class), got none"
            )
    if env.get("continuous") and not env.get("manually_discretization"):
        raise ConfigError(
            "main_config.env: expected manually_discretization=True for a continuous "
            "env (MuZero needs discrete actions), got False"
        )
    # continuous=False with manually_discretization=True: LightZero's Pendulum config (its
    # continuous says what the agent sees); a Discrete task is refused by the discretization
    check_positive_ints(
        env,
        ("collector_env_num", "evaluator_env_num", "n_evaluator_episode")
        + (("each_dim_disc_size",) if "each_dim_disc_size" in env else ()),
        where="main_config.env",
    )
    main.policy = policy
    main.env_manager = create.env_manager
    main.create_env = create.env
    return _with_self_play(main)


def _with_self_play(main: EasyDict) -> EasyDict:
    """``main`` with its manager config completed and checked when self-play runs in Ray
    actors (``self_play_actors``; see :mod:`lzero.worker.ray_muzero_collector`)."""
    from lzero.worker.ray_muzero_collector import self_play_manager

    kind = manager_type(main.env.get("manager") or {}, main.env_manager, "main_config.env")
    m = self_play_manager(main, kind)
    if m is not None:
        main.env.manager = m
    else:  # the manager's own keys, checked now rather than when the envs are built
        manager = main.env.get("manager") or {}
        get_env_manager_cls(kind).check_config(
            {k: v for k, v in manager.items() if k not in TRAINER_MANAGER_KEYS},
            "main_config.env.manager",
        )
    return main


def _env_checked_elsewhere(create: Mapping) -> tuple[str, ...]:
    """``("env",)`` when a registered class checks ``main_config.env`` (a board game or a gym
    task named by ``create_config.env.type``; also when the type is unknown: that error comes
    next), else ``()``: the keys of a gym task named by its env_id alone are ENV_CONFIG's."""
    return ("env",) if create.env.get("type") else ()


def is_board_game(env_spec: Mapping) -> bool:
    """Whether ``create_config.env`` names a registered board game (a class with a rules
    kernel), importing its ``import_names`` first; False for gym tasks and no type."""
    from lzero.envs.registry import ENV_REGISTRY, import_module_names

    if not env_spec.get("type"):
        return False
    import_module_names(env_spec.get("import_names", ()))
    try:
        cls = ENV_REGISTRY.get(env_spec["type"])
    except KeyError as err:
        raise ConfigError(f"create_config.env.type: {err.args[0]}") from err
    return getattr(cls, "rules", None) is not None


def _is_gym_id(env_id: str) -> bool:
    import gymnasium

    return env_id in gymnasium.envs.registry


def _check_env_type(policy: Mapping, create: Mapping, board: bool) -> None:
    want = "board_games" if board else "not_board_games"
    if policy.env_type != want:
        kind = f"the board game {create.env.type!r}" if board else "a gym task"
        raise ConfigError(
            f"main_config.policy.env_type: expected {want!r} for {kind} "
            f"(create_config.env.type), got {policy.env_type!r}"
        )


def episode_replay_dir(cfg: Mapping) -> tuple[str, str] | None:
    """Where a gym task's evaluation entries save every episode's GIF, with the key that says
    so: ``('replay_path', dir)``, else with ``env.save_replay_gif`` ``('replay_path_gif',
    dir)`` (its dir by default ``<exp_name>/replay``); None: nowhere."""
    env = cfg["env"]
    if env.get("replay_path"):
        return "replay_path", str(env["replay_path"])
    if env.get("save_replay_gif"):
        return "replay_path_gif", str(env.get("replay_path_gif") or f"{cfg['exp_name']}/replay")
    return None


def check_board_eval_env(env_cfg: Mapping, entry: str) -> dict | None:
    """The keys of LightZero's board-game eval scripts: ``agent_vs_human=True`` is refused
    (the entries play the bots), and a ``replay_path`` or ``render_mode='image_savefile_mode'``
    records every game as LightZero's eval_mode envs do (a GIF each, in ``replay_path``, else
    the env's default folder). Returns the env settings that record them
    (``lzero.worker.alphazero_evaluator.play_games``'s ``replay``), or None.

    Raises:
        ConfigError: ``env.agent_vs_human`` is True, or ``env.replay_path`` is not a folder
            that can be written.
    """
    if env_cfg.get("agent_vs_human"):
        raise ConfigError(
            f"main_config.env.agent_vs_human=True: {entry} plays the checkpoint against the "
            "env's bots; to play it yourself, run lzero play <game> --bot agent:PATH"
        )
    path = env_cfg.get("replay_path")
    if not path and env_cfg.get("render_mode") != "image_savefile_mode":
        return None
    if path:
        check_replay_dir(path, "main_config.env.replay_path")
    return dict(render_mode="image_savefile_mode", replay_path=path or None)
