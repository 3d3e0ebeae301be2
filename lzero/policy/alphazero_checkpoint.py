"""AlphaZero checkpoints: what ``train_alphazero`` writes (its policy, game and config), how a
file is told to be one, and the policy it rebuilds (``lzero.agent`` re-exports these names)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from easydict import EasyDict

from lzero.envs.registry import create_env
from lzero.errors import ConfigError
from lzero.model.frozen import inference_dtype as check_inference_dtype
from lzero.policy.alphazero import AlphaZeroPolicy
from lzero.policy.board_game import BoardGame
from lzero.utils.checkpoint_file import load_checkpoint_file, plain, save_checkpoint_file

#: The ``kind`` of the checkpoints this module reads and writes.
CHECKPOINT_KIND = "lzero-alphazero"


def save_checkpoint(
    path: str | Path, policy: AlphaZeroPolicy, create_env_cfg: Mapping, env_cfg: Mapping, **extra
) -> None:
    """Writes ``policy`` and the facts that rebuild it (its game and config) to ``path``
    (whole or not at all: :func:`lzero.utils.checkpoint_file.save_checkpoint_file`)."""
    g = policy.game
    save_checkpoint_file(
        {
            "kind": CHECKPOINT_KIND,
            **policy.state_dict(),
            "policy_config": plain(policy.cfg),
            "game": {
                "name": g.name,
                "height": g.height,
                "width": g.width,
                "action_size": g.action_size,
                "create_env": plain(create_env_cfg),
                "env_config": plain(env_cfg),
            },
            **extra,
        },
        path,
    )


def read_checkpoint(path: str | Path, what: str = "") -> dict:
    """The checkpoint at ``path``, checked to be an AlphaZero checkpoint of this project
    (``what``: the setting or option that named it, for the messages).

    Raises:
        ConfigError: ``path`` is not a file, not a torch checkpoint, or another kind of one.
    """
    state = load_checkpoint_file(path, "an AlphaZero checkpoint")
    return check_alphazero_state(state, path, what)


def check_alphazero_state(
    state: Any, path: str | Path, what: str = "", muzero_too: bool = False
) -> dict:
    """``state``, a checkpoint read from ``path``, if it is an AlphaZero checkpoint of this
    project; else a ConfigError saying what kind it is (``what``: the setting or option that
    named it, as the message's label; ``muzero_too``: the caller takes MuZero checkpoints as
    well, and has found this is none)."""
    if not isinstance(state, dict) or state.get("kind") != CHECKPOINT_KIND:
        if is_muzero_checkpoint(state):
            got = f"a MuZero checkpoint of {state['env']!r}"
        elif isinstance(state, dict) and "model" in state and "kind" not in state:
            # a MuZero checkpoint that records no env, or LightZero's: not "not this
            # project's" when its config can evaluate it
            got = (
                "a checkpoint with a 'model' and no kind: a MuZero one that does not record "
                "its env evaluates with its config (lzero eval CONFIG --ckpt PATH)"
            )
        elif isinstance(state, dict) and "kind" not in state:
            got = f"a dict of {sorted(map(str, state))[:5]} without a kind, not this project's"
        else:
            kind = state.get("kind") if isinstance(state, dict) else type(state).__name__
            got = f"a checkpoint of kind {kind!r}, not this project's"
        muzero = " or a MuZero one written by train_muzero" if muzero_too else ""
        raise ConfigError(
            f"{what + ': ' if what else ''}expected an AlphaZero checkpoint written by "
            f"train_alphazero (kind {CHECKPOINT_KIND!r}){muzero}, got {str(path)!r}, {got}"
        )
    return state


def is_muzero_checkpoint(state: Any) -> bool:
    """Whether a loaded checkpoint is ``train_muzero``'s (it records its ``env``)."""
    return isinstance(state, dict) and "kind" not in state and "env" in state and "model" in state


def load_policy(
    path: str | Path, inference_dtype: str | None = None, *, state: dict | None = None
) -> tuple[AlphaZeroPolicy, dict]:
    """The policy of an AlphaZero checkpoint, with the checkpoint's dict. ``inference_dtype``
    replaces the training config's (``policy.inference_dtype``) if given; ``state``: the
    checkpoint as already read from ``path`` and checked (:func:`check_alphazero_state`), or
    None to read it.

    Raises:
        ConfigError: not an AlphaZero checkpoint, its game no longer matches its env, or
            its search's dtype (or ``inference_dtype``) is not one this CPU runs.
    """
    state = read_checkpoint(path) if state is None else state
    g = state["game"]
    env = create_env(g["create_env"], g["env_config"])
    game = BoardGame.from_env(env)
    env.close()
    if (game.height, game.width, game.action_size) != (g["height"], g["width"], g["action_size"]):
        raise ConfigError(
            f"{str(path)!r}: expected its env to have the recorded sizes {g['height']}x{g['width']} "
            f"and {g['action_size']} actions, got {game.height}x{game.width} and {game.action_size}"
        )
    cfg = EasyDict(state["policy_config"])
    if inference_dtype is not None:
        cfg.inference_dtype = inference_dtype
    try:  # checked here, where the error can say which setting it was
        check_inference_dtype(cfg.get("inference_dtype", "float32"))  # .get: older checkpoints
    except ValueError as e:
        given = "given" if inference_dtype is not None else "of its training config"
        raise ConfigError(
            f"{str(path)!r}: the inference_dtype {given}: {e} (load_agent and load_policy take "
            "inference_dtype; on the command line lzero eval --dtype, lzero play and arena "
            "--agent-dtype)"
        ) from None
    policy = AlphaZeroPolicy(cfg, game)
    policy.load_state_dict(state)
    return policy, state
