"""A trained checkpoint as a player: ``load_agent(path)`` with ``act(obs)`` and ``policy(obs)``.

An AlphaZero checkpoint (``train_alphazero``'s ``ckpt/*.pth.tar``) records its game (env type,
modules, config and sizes) and its policy config, so the agent (:class:`Agent`) rebuilds its
env's rules kernels and plays with the same search it was trained with. A board-game MuZero
checkpoint (``train_muzero``'s) records its merged config, from which :class:`MuZeroAgent`
rebuilds its policy and game::

    agent = load_agent("data_alphazero/connect4/ckpt/ckpt_best.pth.tar", num_simulations=200)
    action = agent.act(env.observe())   # the observation dict of the player to move

The players live in :mod:`lzero.worker.board_agents` and the AlphaZero checkpoint format in
:mod:`lzero.policy.alphazero_checkpoint`, below the training entries that use them; this module
re-exports their names and adds what needs the entries (a MuZero checkpoint's config is
compiled again by ``lzero.entry``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lzero.errors import ConfigError
from lzero.policy.alphazero_checkpoint import (
    CHECKPOINT_KIND,
    check_alphazero_state,
    is_muzero_checkpoint,
    load_policy,
    read_checkpoint,
    save_checkpoint,
)
from lzero.utils.checkpoint_file import load_checkpoint_file, plain
from lzero.worker.board_agents import (
    FROM_CONFIG,
    Agent,
    AgentView,
    BoardAgent,
    MuZeroAgent,
    check_num_simulations,
    line_winner,
    load_alphazero_agent,
)

__all__ = [
    "CHECKPOINT_KIND",
    "FROM_CONFIG",
    "Agent",
    "AgentView",
    "BoardAgent",
    "MuZeroAgent",
    "check_alphazero_state",
    "is_muzero_checkpoint",
    "line_winner",
    "load_agent",
    "load_policy",
    "load_pretrained",
    "plain",
    "read_checkpoint",
    "save_checkpoint",
]


def load_agent(
    path: str | Path,
    num_simulations: int | None = None,
    contempt: float | None = None,
    inference_dtype: str | None = None,
    fpu_reduction: float | str | None = FROM_CONFIG,
    reuse_tree: bool = False,
    *,
    state: Any = None,
) -> BoardAgent:
    """The player of an AlphaZero checkpoint (:class:`Agent`) or of a board-game MuZero one
    (:class:`MuZeroAgent`).

    Args:
        path: a checkpoint written by ``train_alphazero``, or by ``train_muzero`` on a board
            game (MuZero checkpoints written before they recorded their config cannot be
            loaded without it: ``lzero eval CONFIG --ckpt PATH`` evaluates them); or
            ``pretrained:GAME``, the agent the package ships (:func:`load_pretrained`).
        num_simulations: simulations per move (default: the training config's
            ``eval_num_simulations``, else ``mcts.num_simulations``; MuZero's
            ``num_simulations``); 0 for the raw network.
        contempt: the search's draw aversion (:class:`Agent`); None: the config's.
        inference_dtype: the dtype of the search's forward passes ('float32', 'bfloat16',
            'auto'; AlphaZero's ``policy.inference_dtype``); None: the config's. A checkpoint
            trained in bfloat16 plays on a CPU without native bfloat16 with 'float32' or 'auto'.
        fpu_reduction: the search's first-play urgency reduction (:class:`Agent`); by default
            the config's ``eval_fpu_reduction``.
        reuse_tree: keep the subtrees of earlier searches (:class:`Agent`).
        state: the checkpoint as already read from ``path`` (for callers that read it to
            tell its kind); None: read ``path``.

    ``contempt``, ``inference_dtype``, ``fpu_reduction`` and ``reuse_tree`` are settings of
    AlphaZero's search; a MuZero checkpoint takes only their defaults.

    Raises:
        ConfigError: ``path`` is neither an AlphaZero checkpoint nor a board-game MuZero one
            with its config, the inference dtype is not one this CPU runs, or an AlphaZero
            setting was given for a MuZero checkpoint.
        ValueError: ``num_simulations`` is negative, or ``contempt``, ``fpu_reduction`` or
            ``reuse_tree`` as :class:`Agent` says.
    """
    check_num_simulations(num_simulations)
    from lzero.pretrained import resolve

    path = resolve(path)
    if state is None:
        state = load_checkpoint_file(path, "an AlphaZero or MuZero checkpoint")
    if is_muzero_checkpoint(state):
        given = {
            "contempt": contempt is not None,
            "inference_dtype": inference_dtype is not None,
            "fpu_reduction": not (isinstance(fpu_reduction, str) and fpu_reduction == FROM_CONFIG),
            "reuse_tree": reuse_tree is not False,
        }
        if any(given.values()):
            names = ", ".join(k for k, v in given.items() if v)
            raise ConfigError(
                f"{str(path)!r} is a MuZero checkpoint: expected none of AlphaZero's search "
                f"settings, got {names} (on the command line --agent-dtype, "
                "--agent-fpu-reduction, --agent-reuse-tree; lzero eval --dtype, --fpu-reduction, "
                "--reuse-tree)"
            )
        return _muzero_agent(state, path, num_simulations)
    return load_alphazero_agent(
        path, num_simulations, contempt, inference_dtype, fpu_reduction, reuse_tree,
        state=check_alphazero_state(state, path, muzero_too=True),
    )  # fmt: skip


def load_pretrained(game: str, **kwargs: Any) -> BoardAgent:
    """The agent the package ships for ``game`` (:mod:`lzero.pretrained`; its recipe:
    ``lzero.pretrained.recipe(game)``), with :func:`load_agent`'s keyword arguments
    (``num_simulations=0``: the network alone).

    Raises:
        ConfigError: ``game`` has no shipped agent (the message names the games that have one);
            otherwise as :func:`load_agent`.
    """
    from lzero.pretrained import pretrained_path

    return load_agent(pretrained_path(game), **kwargs)


def _muzero_agent(state: dict, path: str | Path, num_simulations: int | None) -> MuZeroAgent:
    from lzero.entry import muzero_setup
    from lzero.entry.config import compile_config

    cfg = compile_config(muzero_setup.recorded_input_config(state, path))
    if not muzero_setup.is_board(cfg):
        raise ConfigError(
            f"{str(path)!r}: expected a checkpoint of a board game, got a MuZero checkpoint of "
            f"the gym task {state['env']!r} (lzero eval --ckpt PATH evaluates it on its task)"
        )
    if num_simulations:
        cfg.policy.num_simulations = int(num_simulations)
    policy = muzero_setup.make_policy(cfg)
    muzero_setup.apply_checkpoint(policy, state, path)
    two_player = cfg.env.get("battle_mode", "self_play_mode") == "self_play_mode"
    return MuZeroAgent(policy, policy.game, two_player=two_player, raw_network=num_simulations == 0)
