"""What the MuZero entries set up before the loop: envs and their managers, seeds, the checks
of a config against its env, and checkpoints. The env factory, the policy and the collector
are :mod:`lzero.worker.muzero_parts`' (re-exported here), as the Ray self-play actors build
them too."""

from __future__ import annotations

import copy
import math
import random
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import torch

from lzero.entry.config import TRAINER_MANAGER_KEYS
from lzero.envs.config import is_number
from lzero.errors import ConfigError
from lzero.policy import MuZeroPolicy
from lzero.policy.alphazero_checkpoint import CHECKPOINT_KIND as ALPHAZERO_KIND
from lzero.utils.checkpoint_file import load_checkpoint_file, plain, save_checkpoint_file

# The parts that the Ray self-play actors build too (the "as": re-exported under these names).
from lzero.worker.muzero_parts import board_game as board_game
from lzero.worker.muzero_parts import env_factory, is_board
from lzero.worker.muzero_parts import make_muzero_collector as make_muzero_collector
from lzero.worker.muzero_parts import make_policy as make_policy


def make_env_manager(cfg: Mapping, env_num: int, *, is_train: bool):
    """Builds an env manager of ``env_num`` wrapped gym envs (not launched).

    Args:
        cfg: the compiled config (see :func:`compile_config`).
        env_num: number of envs.
        is_train: collector envs (True) or evaluator envs (False).
    """
    from lzero.envs.env_manager import get_env_manager_cls, manager_type

    factory = env_factory(cfg, is_train=is_train)
    kind = manager_type(cfg.env.manager, cfg.env_manager, "main_config.env")
    own = TRAINER_MANAGER_KEYS  # the trainer's, not the manager's
    mcfg = {k: v for k, v in cfg.env.manager.items() if k not in own}
    if kind == "ray" and not is_train:
        # Evaluation runs between the collector's phases: its actors reserve no CPUs (one
        # actor unless actor_num says otherwise), so that the collector's, as many as the
        # cluster's CPUs hold by default, leave it room to start instead of a hang.
        mcfg["num_cpus_per_actor"] = 0
        mcfg["actor_num"] = mcfg.get("actor_num") or 1
    return get_env_manager_cls(kind)([factory] * env_num, mcfg)


def check_env_config(cfg: Mapping) -> None:
    """Builds and resets one env in this process, then checks its spaces against the model.

    A config the env rejects is deterministic: raised here once, as the env's own
    ``ConfigError``, instead of by every manager env through its restarts.

    Raises:
        ConfigError: the env rejects its config, its spaces disagree with the model, or a
            board game's ``policy.eval_bots`` names a bot it has not (a gym task's names any).
    """
    if cfg.policy.symmetry_augmentation:
        kind = "board game" if is_board(cfg) else "gym task"
        if kind != "board game" or cfg.policy.model.model_type != "conv":
            raise ConfigError(
                "policy.symmetry_augmentation: expected a board game with model_type 'conv', "
                f"got a {kind} with model_type {cfg.policy.model.model_type!r}"
            )
    rules = cfg.policy.mcts
    narrows = bool(rules.radius or rules.tactics or rules.threat_depth)
    if narrows and not is_board(cfg):
        raise ConfigError(
            "policy.mcts: radius, tactics and threat_depth narrow a board game's root moves by "
            f"its rules; expected a board game, got the gym task {cfg.env.get('env_id')!r}"
        )
    for key, on in (("symmetry_augmentation", cfg.policy.symmetry_augmentation), ("mcts", narrows)):
        if on and cfg.env.get("channel_last"):
            raise ConfigError(
                f"policy.{key}: expected env.channel_last False (planes [C, H, W]), got True"
            )
    env = env_factory(cfg, is_train=False)()
    try:
        check_spaces(cfg, {0: env.reset()})
        bots = list(cfg.policy.get("eval_bots") or ())
        if bots and not is_board(cfg):
            raise ConfigError(
                f"policy.eval_bots: expected none for a gym task ({cfg.env.get('env_id')}), got "
                f"{bots} (bots are a board game's opponents; lzero eval --bots)"
            )
        if bots:  # before a run: not at its first evaluation
            from lzero.worker.alphazero_evaluator import eval_bots

            eval_bots(env, bots, "policy.eval_bots (lzero eval --bots)")
    finally:
        env.close()


def board_symmetries(policy: MuZeroPolicy) -> tuple[np.ndarray, np.ndarray] | None:
    """The cell and action permutations of the board's symmetries for the replay buffer when
    ``policy.symmetry_augmentation`` is on (a board game: checked by :func:`check_env_config`,
    so :func:`make_policy` gave the policy its game), else None."""
    if not policy.cfg.symmetry_augmentation:
        return None
    return policy.game.symmetry_permutations()


def check_seed(seed: int) -> None:
    """Raises ConfigError unless ``seed`` is an int NumPy can seed with, in ``[0, 2**32)``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**32:
        raise ConfigError(f"seed: expected an int in [0, 2**32), got {seed!r}")


def check_budgets(max_env_step: Any, max_train_iter: Any, max_time_s: Any) -> None:
    """Raises ConfigError unless the budgets of a training entry are what ``lzero train``'s
    options allow: ``max_env_step`` and ``max_train_iter`` positive whole numbers (a float
    such as 1e6 or inf too), ``max_time_s`` None or a number >= 0.

    (A negative ``max_env_step`` ran the first evaluation and stopped, and 300.7 passed.)
    """
    for key, value in (("max_env_step", max_env_step), ("max_train_iter", max_train_iter)):
        if not (is_number(value) and value >= 1 and (math.isinf(value) or value == int(value))):
            raise ConfigError(f"{key}: expected a positive int, got {value!r}")
    if max_time_s is not None and not (is_number(max_time_s) and max_time_s >= 0):
        raise ConfigError(
            f"max_time_s: expected None or a number of seconds >= 0, got {max_time_s!r}"
        )


def seed_everything(seed: int) -> None:
    """Seeds Python, NumPy and torch."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def observation_size(cfg: Mapping) -> int:
    """The flat size of the model's observation (a board's planes are stored flat)."""
    return int(np.prod(cfg.policy.model.observation_shape))


def check_spaces(cfg: Mapping, ready_obs: Mapping) -> None:
    """Raises ConfigError when the env's observation or action size disagrees with the model."""
    obs = next(iter(ready_obs.values()))
    shape = np.asarray(obs["observation"]).shape
    a = int(np.asarray(obs["action_mask"]).size)
    m = cfg.policy.model
    want = m.observation_shape
    fits = tuple(want) == shape if m.model_type == "conv" else int(np.prod(shape)) == want
    if not fits:
        expected = shape if m.model_type == "conv" else int(np.prod(shape))
        hint = ""
        if m.model_type == "conv" and len(shape) == 3 and len(tuple(want)) == 3:
            if sorted(shape) == sorted(want) and shape[-1] == want[0]:
                hint = (
                    "; the env gives its planes last (env.channel_last=True): set "
                    "env.channel_last=False for (C, H, W) planes, as the conv model reads them"
                )
            elif shape[0] == want[0]:
                hint = (
                    f"; the env's board is {shape[1]}x{shape[2]}: set env.board_size (and the "
                    "model's shape and action_space_size) to one board size"
                )
        raise ConfigError(
            f"policy.model.observation_shape: expected {expected} (the env's observation "
            f"{'shape' if m.model_type == 'conv' else 'size'}), got {want}{hint}"
        )
    if a != m.action_space_size:
        raise ConfigError(
            f"policy.model.action_space_size: expected {a} (the env's action count), "
            f"got {m.action_space_size}"
        )


def env_name(cfg: Mapping) -> str:
    """The env a compiled config trains on: the board game's type, else the gym task's id, else
    the registered class's type."""
    if is_board(cfg):
        return str(cfg.create_env.type)
    return str(cfg.env.get("env_id") or cfg.create_env.type)


def checkpoint_env(cfg: Mapping) -> dict:
    """What a MuZero checkpoint records of its env: the board game's type or the gym task's
    id, and the model's observation shape."""
    name = env_name(cfg)
    shape = np.atleast_1d(cfg.policy.model.observation_shape)  # an int for a vector (LightZero)
    return {"env": str(name), "observation_shape": [int(x) for x in shape]}


def _check_battle_mode(state: dict, cfg: Mapping, path: str | Path, what: str) -> None:
    """Refuses a board game's checkpoint whose recorded battle mode searches another tree than
    the config's: ``self_play_mode`` a two-player tree, the bot modes a one-player tree with
    the bot's reply inside the dynamics, so the network means something else in the other
    (resuming, evaluating or starting from it went on without a word)."""
    recorded = ((state.get("config") or {}).get("env") or {}).get("battle_mode")
    if not is_board(cfg) or recorded is None:
        return
    given = cfg.env.get("battle_mode", "self_play_mode")
    if (recorded == "self_play_mode") != (given == "self_play_mode"):

        def tree(mode: str) -> str:
            return "two-player" if mode == "self_play_mode" else "one-player, the bot inside"

        raise ConfigError(
            f"{what}: expected a checkpoint trained in the config's battle_mode {given!r} "
            f"({tree(given)} tree), got {str(path)!r}, trained in {recorded!r} "
            f"({tree(recorded)}): use the run's own config (lzero eval --ckpt PATH without a "
            "config reads it from the checkpoint)"
        )


def save_checkpoint(policy: MuZeroPolicy, path: Path, cfg: Mapping, **extra) -> None:
    """Writes the policy state, its env (:func:`checkpoint_env`), the compiled config it ran
    with (``config``: what ``lzero.agent.load_agent`` rebuilds a board-game player from) and
    plain-number extras for ``torch.load(weights_only=True)``."""
    state = {**policy.state_dict(), **checkpoint_env(cfg), "config": plain(cfg), **extra}
    save_checkpoint_file(state, path)


def read_checkpoint(path: str | Path, cfg: Mapping, what: str = "model_path") -> dict:
    """The MuZero checkpoint at ``path`` (written by :func:`save_checkpoint`, read with
    ``weights_only=True``), checked to be one of ``cfg``'s env.

    Raises:
        ConfigError: ``path`` is not a readable checkpoint, an AlphaZero one, or one of
            another env or observation shape (checkpoints older than that record pass).
    """
    state = load_checkpoint_file(path, f"a MuZero checkpoint ({what})")
    if isinstance(state, dict) and state.get("kind") == ALPHAZERO_KIND:
        advice = (
            "resume it with its AlphaZero config"
            if what == "resume"
            else "train on from it with an AlphaZero config's model_path, or evaluate it "
            "without a config (lzero eval --ckpt PATH): it records its game"
        )
        raise ConfigError(
            f"{what}: expected a MuZero checkpoint, got {str(path)!r}, an AlphaZero one: {advice}"
        )
    if not isinstance(state, dict):
        raise ConfigError(
            f"{what}: expected a MuZero checkpoint (a dict of tensors), got {str(path)!r} "
            f"holding a {type(state).__name__}"
        )
    _check_battle_mode(state, cfg, path, what)
    want = checkpoint_env(cfg)
    got = {k: state[k] for k in want if k in state}
    if got and got != {k: want[k] for k in got}:

        def show(d):
            return " ".join(str(d[k]) for k in want if k in d)

        raise ConfigError(
            f"{what}: expected a checkpoint of {show(want)} (the config's env and observation "
            f"shape), got {str(path)!r}, one of {show(got)}"
        )
    return state


def recorded_input_config(state: Mapping, path: str | Path) -> list[dict]:
    """``[main_config, create_config]`` of the run that wrote a MuZero checkpoint (the
    compiled config :func:`save_checkpoint` records, split again so that
    ``compile_config`` checks it and fills defaults added since).

    Raises:
        ConfigError: the checkpoint records no config (written before checkpoints did).
    """
    if "config" not in state:
        raise ConfigError(
            f"{str(path)!r}: a MuZero checkpoint of {state.get('env', '?')!r} that does not "
            "record its config (written before MuZero checkpoints did): expected one that "
            "does; lzero eval CONFIG --ckpt PATH evaluates it with its config"
        )
    cfg = copy.deepcopy(dict(state["config"]))
    create = dict(env=cfg.pop("create_env"), env_manager=cfg.pop("env_manager"))
    create["policy"] = dict(type=cfg.get("policy", {}).get("type", "muzero"))
    env_type = create["env"].get("type")
    if env_type:  # a custom env's class is registered by the code that trained it
        from lzero.envs.registry import ENV_REGISTRY, import_module_names

        try:
            import_module_names(create["env"].get("import_names", ()))
            known = env_type in ENV_REGISTRY
        except ImportError:
            known = False
        if not known:
            raise ConfigError(
                f"{str(path)!r}: a MuZero checkpoint of the env {env_type!r}, which no module "
                "imported here registers (the training script registered it itself, or a "
                "module not in its create_config.env.import_names): evaluate it with the "
                "config that registers it (lzero eval CONFIG --ckpt PATH)"
            )
    return [cfg, create]


def apply_checkpoint(
    policy: MuZeroPolicy, state: dict, path: str | Path, what: str = "model_path"
) -> None:
    """Loads a checkpoint read by :func:`read_checkpoint` into ``policy``.

    Raises:
        ConfigError: its tensors do not fit the policy's model.
    """
    state = _fit_consistency_heads(policy, state, path, what)
    try:
        policy.load_state_dict(state)
    except (RuntimeError, KeyError) as err:  # torch's size mismatch / missing keys
        raise ConfigError(
            f"{what}: {str(path)!r} does not fit the configured model "
            f"(policy.model sizes differ?): {str(err).splitlines()[-1].strip()}"
        ) from err


_HEADS = "consistency_heads."


def _fit_consistency_heads(policy: MuZeroPolicy, state: dict, path, what: str) -> dict:
    """``state`` fitted to whether the policy's model has EfficientZero's consistency heads
    (``model.self_supervised_learning_loss``): they only train, never act, so a checkpoint
    with them loads into a model without (they are dropped) and one without them into a
    model with (they keep their fresh weights), with a warning, and without the optimizer's
    state, which covers other parameters. A run resumed with the setting changed is refused.

    Raises:
        ConfigError: ``what`` is ``'resume'`` and the setting differs from the run's.
    """
    model_state = state.get("model", state)
    has = any(k.startswith(_HEADS) for k in model_state)
    wants = getattr(policy.model, "consistency_heads", None) is not None
    if has == wants:
        return state
    trained = "with" if has else "without"
    if what == "resume":
        raise ConfigError(
            f"resume: expected policy.model.self_supervised_learning_loss={has} (the run in "
            f"{str(path)!r} was trained {trained} EfficientZero's consistency heads), got "
            f"{wants}: resume a run with its own setting"
        )
    fresh = {k: v for k, v in policy.model.state_dict().items() if k.startswith(_HEADS)}

    def fitted(weights: Mapping) -> dict:
        kept = {k: v for k, v in weights.items() if not k.startswith(_HEADS)}
        return {**kept, **fresh}

    out = {k: v for k, v in state.items() if k != "optimizer"} if "model" in state else {}
    out["model"] = fitted(model_state)
    out["target_model"] = fitted(state.get("target_model", model_state))
    done = "dropped" if has else "left at their initial weights"
    warnings.warn(
        f"{what}: {str(path)!r} was trained {trained} EfficientZero's consistency heads and "
        f"the config says model.self_supervised_learning_loss={wants}: the network is loaded "
        f"and the heads {done} (they only train, they do not act)"
        + ("; the optimizer's state is not loaded" if "optimizer" in state else ""),
        UserWarning,
        stacklevel=3,
    )
    return out


def load_checkpoint(policy: MuZeroPolicy, path: str | Path, cfg: Mapping) -> dict:
    """:func:`read_checkpoint` then :func:`apply_checkpoint`; returns the whole checkpoint
    (its extras too)."""
    state = read_checkpoint(path, cfg)
    apply_checkpoint(policy, state, path)
    return state


def run_seed(seed: int | None, recorded: int | None) -> int:
    """The seed a run uses: a fresh run's ``seed`` (0 if None); a resumed run's own,
    ``recorded`` in its checkpoint (None for checkpoints older than that record: ``seed``
    or 0). ``seed`` is None or already checked (:func:`check_seed`).

    Raises:
        ConfigError: ``seed`` names another seed than the resumed run's.
    """
    if recorded is None:
        return 0 if seed is None else seed
    if seed is not None and seed != recorded:
        raise ConfigError(
            f"seed: expected the resumed run's own seed {recorded} (or none), got {seed}: a "
            "resumed run keeps the seed it was started with"
        )
    return int(recorded)
