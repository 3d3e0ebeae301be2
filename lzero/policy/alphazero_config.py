"""AlphaZero's config: documented defaults under LightZero's names, and the compile step.

A config is LightZero's pair ``[main_config, create_config]``. ``main_config.env`` holds the
board env's own keys (checked by the env class) and the trainer's (``collector_env_num``,
``evaluator_env_num``, ``n_evaluator_episode``, ``stop_value``, ``manager``); ``main_config.policy`` is
checked against :data:`ALPHAZERO_POLICY_CONFIG`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

import numpy as np
from easydict import EasyDict

from lzero.envs.config import (
    check_cuda,
    check_discount_factor,
    check_fixed,
    check_model_path,
    check_nonnegative_int,
    check_opening_moves,
    check_playout_cap,
    check_positive_ints,
    check_positive_or_none,
    merge_config,
    merge_config_pair,
    raise_unknown_keys,
    take_renamed,
    unknown_keys,
)
from lzero.envs.env_manager import BaseEnvManager, manager_type
from lzero.envs.env_manager.ray_session import check_ray_config
from lzero.errors import ConfigError
from lzero.mcts.batched_search import check_forced_playouts, check_fpu_reduction
from lzero.mcts.gumbel import check_gumbel_settings
from lzero.policy.board_game import check_search_rules
from lzero.policy.optim import OPTIM_TYPES

ALPHAZERO_POLICY_CONFIG = dict(
    type="alphazero",  # (str) 'alphazero' (PUCT, visit-count targets) or 'gumbel_alphazero'
    # (Gumbel AlphaZero, Danihelka et al. 2022: Sequential Halving with Gumbel at the root, the
    # improved policy below it; the move is the halving winner and the policy target the
    # improved policy; the mcts.* Gumbel keys below apply). As create_config.policy.type
    import_names=["lzero.policy.alphazero"],  # (list) modules defining it (LightZero compat)
    model=dict(
        observation_shape=(3, 3, 3),  # (tuple) (C, H, W) of the board planes; must match the env
        action_space_size=9,  # (int) number of actions; must match the env
        num_res_blocks=1,  # (int) residual blocks of the tower
        num_channels=32,  # (int) channels of the tower
        value_head_hidden_channels=64,  # (int|list) hidden width of the value head, or the
        # widths of its hidden layers (LightZero's configs give a list: [32])
        policy_head_hidden_channels=[],  # (list) widths of the policy head's hidden layers
        # (LightZero's key; ours default to none: a 1x1 convolution, then the logits)
        fc_value_layers=None,  # (list|None) LightZero's older name of value_head_hidden_channels
        fc_policy_layers=None,  # (list|None) LightZero's older name of policy_head_hidden_channels
        line_features=0,  # (int) ours: k > 0 adds 6 input planes counting k-cell line windows
        line_directions=False,  # (bool) ours, with line_features: 4 more planes, in how many
        # lines through a cell a side has a window of k - 2 or k - 3 stones (double threats)
        draw_head=False,  # (bool) ours: a third head predicts whether the game ends drawn
        # (trained with a logistic loss weighted by value_weight); contempt reads it
    ),
    cuda=False,  # (bool) this build trains on the CPU: True (LightZero's configs) warns so
    torch_num_threads=2,  # (int) torch intra-op threads
    mcts_ctree=False,  # (bool) LightZero's C++ tree switch; no effect (one numba search here)
    alphazero_mcts_ctree=False,  # (bool) LightZero's newer name of that switch; no effect
    env_type="board_games",  # (str) LightZero's; AlphaZero here plays board games only
    action_type="varied_action_space",  # (str) LightZero's; no effect (legal moves: the rules)
    model_path=None,  # (str|None) LightZero's: a checkpoint to start from, used when the
    # entry's own model_path argument is None
    simulation_env_id=None,  # (str) LightZero's simulation env name; no effect (kernels search)
    simulation_env_config_type=None,  # (str) LightZero's; no effect
    board_size=None,  # (int) LightZero repeats the env's board size here; no effect
    sampled_algo=False,  # (bool) Sampled AlphaZero is not implemented: must be False
    gumbel_algo=False,  # (bool) LightZero's switch; True exactly with type 'gumbel_alphazero'
    # (the compiler sets it from the type)
    torch_compile=False,  # (bool) LightZero's torch.compile switch; no effect
    tensor_float_32=False,  # (bool) LightZero's TF32 switch; no effect on CPU
    multi_gpu=False,  # (bool) must be False
    collector_env_num=None,  # (int) LightZero repeats env.collector_env_num here; no effect
    evaluator_env_num=None,  # (int) LightZero repeats env.evaluator_env_num here; no effect
    update_per_collect=None,  # (int|None) gradient steps per collect; None: model_update_ratio
    model_update_ratio=0.1,  # (float) gradient steps per collected position if the above is None
    replay_ratio=None,  # (float|None) LightZero's newer name of model_update_ratio (its default
    # is 0.25 there, 0.1 here); given, it sets that key
    batch_size=256,  # (int) positions per gradient step
    optim_type="Adam",  # (str) 'SGD', 'Adam' or 'AdamW'
    learning_rate=3e-3,  # (float) learning rate
    weight_decay=1e-4,  # (float) L2 weight decay
    momentum=0.9,  # (float) SGD momentum
    grad_clip_value=10.0,  # (float) max global gradient norm
    value_weight=1.0,  # (float) weight of the value loss (mean squared error)
    root_value_target_weight=0.0,  # (float) ours, in [0, 1]: the value target is
    # (1 - w) * z + w * q, z the game's outcome and q the search's root value, both for the
    # player to move. 0: AlphaZero's z alone
    discount_factor=1.0,  # (float) in (0, 1], MuZero's name: the outcome z of a position k
    # plies before its game's last move is discounted to discount_factor**k * z (a win sooner is
    # worth more). 1: AlphaZero's undiscounted outcome
    policy_target="visit_count",  # (str) ours: what the policy head learns. 'visit_count':
    # the root's visit distribution (AlphaZero); 'completed_q': Gumbel MuZero's improved policy
    # softmax(log prior + sigma(completed Q)) of the same search (Danihelka et al. 2022), the
    # only one of type 'gumbel_alphazero' (set by the compiler)
    bot_opponent_share=0.0,  # (float) ours, in [0, 1], self_play_mode only: the share of
    # collected games played against the env's rule bot instead of the agent itself, the
    # agent's colour drawn per game; only the agent's positions are stored. 0: pure self-play
    contempt=0.0,  # (float) ours, in [0, 1], needs model.draw_head unless 0: outside
    # self-play (evaluation, ckpt_best, checkpoints' agents) the search values a draw at
    # -contempt for the player to move at its root and +contempt for the opponent, a leaf
    # at v - contempt * P(draw) (Lc0's contempt). Self-play stays zero-sum. 0: off
    entropy_weight=0.0,  # (float) weight of the policy entropy bonus
    nn_cache_size=1 << 16,  # (int) ours: slots of the network's outputs kept by position
    # (board and mover; one slot each, by hash, a new entry replacing the old) and reused when
    # a search meets the position again (under the move just played, transpositions);
    # emptied when the weights change. 0: off
    inference_dtype="float32",  # (str) ours: the dtype of the search's forward passes,
    # 'float32', 'bfloat16' (needs a CPU with native bfloat16: AVX-512 BF16 or AMX; outputs
    # then differ from float32's by about 1e-3) or 'auto' (bfloat16 where native, else
    # float32). Training follows learn_dtype
    learn_dtype="float32",  # (str) ours: 'bfloat16' runs the training step's forward and
    # backward passes under torch's CPU autocast (convolutions and matrix products in
    # bfloat16; weights, optimizer state and losses float32), same values and CPU need as
    # inference_dtype. Checkpoints stay float32
    ema_decay=0.0,  # (float) ours, in [0, 1): evaluation, checkpoints' agents and ckpt_best
    # play an exponential moving average of the network's weights, updated after every
    # gradient step with decay min(ema_decay, (1 + n) / (10 + n)) after n steps; self-play
    # and training use the network itself. 0: off (the network plays everywhere)
    lr_piecewise_constant_decay=False,  # (bool) lr x1 -> x0.1 -> x0.01 at 1/3 and 2/3 below
    piecewise_decay_lr_scheduler=None,  # (bool|None) LightZero's newer name of the above
    threshold_training_steps_for_final_lr=int(5e5),  # (int) iterations of that decay
    manual_temperature_decay=False,  # (bool) temperature 1 -> 0.5 -> 0.25 over training
    threshold_training_steps_for_final_temperature=int(1e5),  # (int) iterations of the decay
    fixed_temperature_value=1.0,  # (float) visit-count temperature when not decaying
    num_sampling_moves=None,  # (int|None) sample with the temperature for this many moves of a
    # game, then play the most visited move (AlphaZero's pseudocode); None: every move
    symmetry_augmentation=True,  # (bool) train on a random exact symmetry of each position
    n_episode=8,  # (int) games collected per collect phase
    eval_freq=50,  # (int) train iterations between evaluations
    save_ckpt_freq=1000,  # (int) train iterations between iteration_N checkpoints
    overlap_learning=False,  # (bool) ours: a collect's gradient steps run in a thread beside
    # the next collect, which plays the weights from before them (one collect stale, as in
    # distributed AlphaZero), so learning and self-play keep both cores busy; deterministic
    # (the schedule does not depend on timing). In-process self-play only; set
    # torch_num_threads 1. The updates of a run's last collect are left to a resume. False: off
    save_ckpt_last_minutes=10.0,  # (float|None) ours: minutes between writes of
    # ckpt/ckpt_last.pth.tar during training, each with the run's whole state (weights,
    # optimizer, replay buffer, games in flight, every random stream), so that --resume after
    # a kill continues from it as if the run had not stopped; None: written when it stops only
    eval_bots=None,  # (list|None) bots to evaluate against; None: rule, mcts and,
    # on TicTacToe, alpha_beta (not random or the perfect solver bot)
    eval_num_simulations=None,  # (int|None) simulations per move in evaluation; None: mcts's
    eval_fpu_reduction=None,  # (float|None) ours, >= 0: outside self-play (evaluation,
    # ckpt_best, checkpoints' agents) a move the search has not tried yet is worth its node's
    # mean value less this times the square root of the prior mass of the node's moves tried
    # (first-play urgency reduction, as Leela Chess Zero and KataGo). Self-play keeps
    # AlphaZero's rule. None: AlphaZero's, an untried move worth 0 (a draw)
    collect_fpu_reduction=None,  # (float|None) ours, >= 0: the same reduction in self-play,
    # below the root only: the root's untried moves are worth its value unreduced (KataGo's
    # self-play), so the moves Dirichlet noise favours are still tried. None: AlphaZero's rule
    collect_forced_playouts=0.0,  # (float) ours, >= 0: KataGo's forced playouts and policy
    # target pruning (Wu 2019) in self-play with this k (KataGo's 2): a root move searched
    # fewer than sqrt(k * P * T) times (P its noisy prior, T the root's simulations) is
    # searched next; the move played and a 'visit_count' policy target then count its visits
    # less those the forcing spent (lzero.mcts.batched_result.prune_forced_playouts). 0: off
    collect_reuse_tree=False,  # (bool) ours: each self-play search starts from the subtree
    # the game's previous search grew below the position (AlphaGo Zero's self-play kept the
    # played move's subtree; BatchedSearch.search(reuse_tree=True)): the root's visits, and so
    # the policy target, count the kept simulations too. self_play_mode only; games against
    # the bot (bot_opponent_share) start every search afresh. False: every search starts afresh
    eval_opening_moves=0,  # (int) random moves opening each evaluation game, the same for
    # both colours of a pair of games, so deterministic players meet varied positions
    collect_opening_moves=0,  # (int) ours: each self_play_mode game opens with 0 to this many
    # uniformly random legal moves (the number drawn per game; both players' moves, neither
    # searched nor stored), so that training meets openings like those of an evaluation with
    # eval_opening_moves. 0: off
    fast_search_prob=0.0,  # (float) ours, in [0, 1): playout cap randomisation (Wu 2019,
    # KataGo): each collect step searches with fast_search_simulations and no root noise with
    # this probability (drawn per step, for all games at once) and stores none of those
    # positions; the other steps search fully and are stored. Games finish sooner, so more
    # game outcomes train the value per hour. 0: off
    fast_search_simulations=None,  # (int|None) simulations of a fast search, from 1 to
    # fewer than mcts.num_simulations; needed when fast_search_prob > 0
    mcts=dict(
        num_simulations=50,  # (int) simulations per move
        max_moves=512,  # (int) LightZero's game-length cap; no effect (games end by the rules)
        root_dirichlet_alpha=0.3,  # (float) Dirichlet alpha of the root noise
        root_noise_weight=0.25,  # (float) weight of the root noise in self-play
        pb_c_base=19652,  # (float) PUCT c2 (AlphaZero's constant)
        pb_c_init=1.25,  # (float) PUCT c1 (AlphaZero's constant)
        radius=0,  # (int) ours: placement games (Gomoku, TicTacToe) search only the empty cells
        # within this Chebyshev distance of a stone (every empty cell while none is near); 0:
        # every legal move
        tactics=False,  # (bool) ours: decisive moves in the tree (Teytaud and Teytaud 2010). A
        # node that can win at once searches only that move, else only its blocks of the
        # opponent's immediate wins if any; the root also drops moves that let the opponent
        # win next. Self-play, evaluation and a loaded agent all search this way.
        threat_depth=0,  # (int) ours: placement k-in-a-row games (Gomoku, TicTacToe) search
        # the root for forced wins by continuous fours of up to this many moves: the mover's
        # first move is then the only root move, and moves that leave the opponent one are
        # dropped (unless all do). It includes the root part of ``tactics``. 0: off.
        three_depth=0,  # (int) ours, with threat_depth: also search the root for wins by
        # continuous threats with threes (each move a four or a threat to make two winning
        # cells next, every defence that might matter tried) of up to this many moves: the
        # mover's first move is then the only root move, and among the moves that leave the
        # opponent no win by fours, those that leave it none of these are kept if any. 0: off.
        legal_actions=None,  # LightZero's; no effect (legal moves come from the rules)
        action_space_size=None,  # (int) LightZero's; no effect (model.action_space_size)
        num_of_sampled_actions=2,  # (int) Sampled AlphaZero's; no effect
        max_num_considered_actions=16,  # (int) gumbel_alphazero: root moves sampled without
        # replacement by Gumbel-top-k, then halved (at most the legal moves; mctx's 16)
        gumbel_scale=1.0,  # (float) gumbel_alphazero: scale of the root's Gumbel noise in
        # self-play (evaluation and agents draw none)
        maxvisit_init=50.0,  # (float) gumbel_alphazero: c_visit of sigma(q) = (c_visit +
        # max visits) * c_scale * q (mctx's 50)
        value_scale=0.1,  # (float) gumbel_alphazero: c_scale of that transform (mctx's 0.1)
        continuous_action_space=False,  # (bool) must be False
    ),
    other=dict(
        replay_buffer=dict(
            replay_buffer_size=int(1e6),  # (int) replay capacity in positions
            save_episode=False,  # (bool) LightZero's; no effect
        )
    ),
)

#: Values of ``policy_target``.
POLICY_TARGETS = ("visit_count", "completed_q")

#: Policy keys that act only in self_play_mode, with what each does there: the compiler refuses
#: them in play_with_bot_mode and bot_mode_variant drops them from the configs it derives.
SELF_PLAY_ONLY_KEYS = {
    "bot_opponent_share": "mixes bot games into self-play (in 'play_with_bot_mode' every game "
    "is against the bot)",
    "collect_reuse_tree": "continues each search from the game's previous one, a move earlier "
    "(against the bot the agent's searches are two moves apart)",
    "collect_opening_moves": "opens self-play games with random moves of both players",
}

#: The trainer's keys in ``main_config.env``; the others go to the env class.
TRAINER_ENV_CONFIG = dict(
    collector_env_num=8,  # (int) self-play games played at once (one batched search)
    evaluator_env_num=3,  # (int) LightZero's; evaluation plays all its games at once
    n_evaluator_episode=20,  # (int) evaluation games per bot (half with each colour)
    stop_value=1,  # (float) stop once the eval score (wins minus losses, per game) against the
    # first eval bot reaches this: 1 means winning every game; above 1, never
    manager=dict(  # (dict) where self-play runs; LightZero's env-manager keys (those of
        # BaseEnvManager.config, e.g. shared_memory) are accepted with no effect (numba pool)
        type=None,  # (str|None) 'ray': self-play in Ray actors (pip install -e ".[ray]");
        # 'base'/'subprocess': in this process; None: create_config.env_manager.type
        actor_num=None,  # (int|None) Ray self-play actors, each with its own model copy and
        # a contiguous share of collector_env_num games; None: as many as the cluster's CPUs
        num_cpus_per_actor=1.0,  # (float) CPUs Ray reserves per actor (and its torch threads)
        ray_address=None,  # (str|None) Ray cluster to join ('auto', 'host:port'); None:
        # $RAY_ADDRESS if set, else a local Ray started for the run and stopped at its end
        weight_sync_freq=1,  # (int) learner updates between weight broadcasts (ray.put) to
        # the actors, checked as each collect phase starts
        max_consecutive_failures=5,  # (int) phases in a row an actor may die before the run
        # stops with an error (each failure is warned about and the actor replaced)
        connect_timeout=60.0,  # (float|None) seconds the Ray actors may take to start (Ray
        # holds them until the CPUs they reserve are free); then an error; None: no limit
    ),
)

MAIN_CONFIG = dict(
    exp_name="data_alphazero/default",  # (str) output directory: ckpt/, progress.csv, PNG
    env=dict(),  # (dict) env keys (checked by the env class) and TRAINER_ENV_CONFIG's
    policy=ALPHAZERO_POLICY_CONFIG,
)

CREATE_CONFIG = dict(
    env=dict(type=None, import_names=[]),  # (dict) the board env: registry name and modules
    env_manager=dict(type="base"),  # (dict) 'ray' runs self-play in Ray actors (as
    # main_config.env.manager.type); 'base' or 'subprocess': in this process on the pool
    policy=dict(type="alphazero", import_names=["lzero.policy.alphazero"]),  # (dict)
    # (dict) LightZero's; no effect (get_train_sample: its older configs' collector key)
    collector=dict(type="episode_alphazero", import_names=[], get_train_sample=False),
    evaluator=dict(type="alphazero", import_names=[]),  # (dict) LightZero's; no effect
)

_MUST = (
    ("sampled_algo", False, "Sampled AlphaZero is not implemented"),
    ("multi_gpu", False, "this build trains on one CPU"),
)

#: Policy types this compiler serves.
ALPHAZERO_TYPES = ("alphazero", "gumbel_alphazero")

#: Self-play settings of the PUCT search that a Gumbel search does not have.
_PUCT_ONLY = ("collect_fpu_reduction", "eval_fpu_reduction", "collect_reuse_tree")


def _check_gumbel(policy: Mapping) -> None:
    """The Gumbel keys of ``policy.mcts``, and no PUCT-only self-play setting beside them."""
    mc = policy.mcts
    try:
        check_gumbel_settings(
            max_num_considered_actions=mc.max_num_considered_actions, gumbel_scale=mc.gumbel_scale,
            maxvisit_init=mc.maxvisit_init, value_scale=mc.value_scale,
        )  # fmt: skip
    except ValueError as err:
        raise ConfigError(f"main_config.policy.mcts: {err}") from None
    given = [k for k in _PUCT_ONLY if policy[k] not in (None, False)]
    if policy.collect_forced_playouts:
        given.append("collect_forced_playouts")
    if given:
        raise ConfigError(
            f"main_config.policy: {given} apply to the PUCT search of type 'alphazero'; "
            "expected them off with type 'gumbel_alphazero'"
        )


def _check_share(policy: Mapping, key: str, *, below_one: bool = False) -> float:
    """``policy[key]``, checked to be a number in ``[0, 1]`` (``[0, 1)`` with ``below_one``,
    where 0 means off)."""
    value = policy[key]
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not (0 <= value < 1 if below_one else 0 <= value <= 1):
        allowed = "[0, 1) (0: off)" if below_one else "[0, 1]"
        raise ConfigError(f"main_config.policy: expected {key} in {allowed}, got {value!r}")
    return value


def _check_bools(cfg: Mapping, default: Mapping, where: str) -> None:
    """Every key whose default is a bool holds a bool (``'no'`` turned a switch on, and a
    numpy bool would be written to the run's config.json as the string "True")."""
    for key, value in default.items():
        if isinstance(value, Mapping):
            _check_bools(cfg[key], value, f"{where}.{key}")
        elif isinstance(value, bool) and not isinstance(cfg[key], bool):
            raise ConfigError(f"{where}: expected {key} to be True or False, got {cfg[key]!r}")


def _check_head_widths(model: Mapping, key: str) -> None:
    """``model[key]``: a positive int or a list of them (LightZero's form, ``[32]``)."""
    value = model[key]
    widths = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    ok = isinstance(widths, (list, tuple)) and all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in widths
    )
    if not ok:
        raise ConfigError(
            f"main_config.policy.model: expected {key} to be a positive int or a list of them, "
            f"got {value!r}"
        )


def compile_alphazero_config(input_cfg: Sequence[Mapping]) -> EasyDict:
    """Validates and merges ``[main_config, create_config]`` over the defaults.

    Returns:
        The main config with ``env`` split into ``env`` (the env class's keys) and
        ``trainer`` (:data:`TRAINER_ENV_CONFIG`), and ``create`` (the create config) added.

    Raises:
        ConfigError: not a pair of dicts, an unknown key, a policy type other than
            ``'alphazero'``, no env type, or a value out of range.
    """
    main_user, create = merge_config_pair(input_cfg, CREATE_CONFIG, ALPHAZERO_TYPES, MAIN_CONFIG)
    if not create.env.type:
        raise ConfigError(
            "create_config.env: expected a board env type such as 'tictactoe', got none"
        )
    policy_user = dict(main_user.pop("policy", {}) or {})
    policy_user.setdefault("type", create.policy.type)
    policy = merge_config(ALPHAZERO_POLICY_CONFIG, policy_user, where="main_config.policy")
    take_renamed(
        policy_user, policy, "piecewise_decay_lr_scheduler", "lr_piecewise_constant_decay",
        where="main_config.policy",
    )  # fmt: skip
    take_renamed(
        policy_user, policy, "replay_ratio", "model_update_ratio", where="main_config.policy"
    )
    model_user = dict(policy_user.get("model") or {})
    for older, key in (
        ("fc_value_layers", "value_head_hidden_channels"),
        ("fc_policy_layers", "policy_head_hidden_channels"),
    ):
        take_renamed(model_user, policy.model, older, key, where="main_config.policy.model")
    if policy.type != create.policy.type:
        raise ConfigError(
            f"main_config.policy: expected type {create.policy.type!r} (create_config.policy's),"
            f" got {policy.type!r}"
        )
    check_fixed(policy, _MUST, where="main_config.policy")
    gumbel = policy.type == "gumbel_alphazero"
    if policy_user.get("gumbel_algo", gumbel) is not gumbel:
        raise ConfigError(
            f"main_config.policy: gumbel_algo={policy.gumbel_algo!r} disagrees with type "
            f"{policy.type!r}; expected gumbel_algo={gumbel} (the type 'gumbel_alphazero' "
            "selects Gumbel AlphaZero)"
        )
    policy.gumbel_algo = gumbel
    if gumbel:
        _check_gumbel(policy)
        if policy_user.get("policy_target", "completed_q") != "completed_q":
            raise ConfigError(
                "main_config.policy: type 'gumbel_alphazero' learns the improved policy; "
                f"expected policy_target 'completed_q' (or none), got {policy.policy_target!r}"
            )
        policy.policy_target = "completed_q"
    check_cuda(policy, where="main_config.policy")
    newer = policy.piecewise_decay_lr_scheduler  # None: not given (before the key it set)
    if not (newer is None or isinstance(newer, bool)):
        raise ConfigError(
            "main_config.policy: expected piecewise_decay_lr_scheduler to be True, False or "
            f"None, got {newer!r}"
        )
    _check_bools(policy, ALPHAZERO_POLICY_CONFIG, "main_config.policy")
    if policy.mcts.continuous_action_space:
        raise ConfigError(
            "main_config.policy.mcts: expected continuous_action_space=False, got True"
        )
    check_positive_ints(
        policy, ("batch_size", "n_episode", "eval_freq", "save_ckpt_freq", "torch_num_threads"),
        where="main_config.policy",
    )  # fmt: skip
    check_positive_or_none(policy, "save_ckpt_last_minutes", where="main_config.policy")
    check_positive_ints(policy.mcts, ("num_simulations",), where="main_config.policy.mcts")
    check_positive_ints(policy.model, ("num_channels",), where="main_config.policy.model")
    _check_head_widths(policy.model, "value_head_hidden_channels")
    _check_head_widths(policy.model, "policy_head_hidden_channels")
    if policy.env_type != "board_games":
        raise ConfigError(
            "main_config.policy: expected env_type 'board_games' (AlphaZero here plays the "
            f"board games), got {policy.env_type!r}"
        )
    if policy.action_type not in ("varied_action_space", "fixed_action_space"):
        raise ConfigError(
            "main_config.policy: expected action_type in ['varied_action_space', "
            f"'fixed_action_space'], got {policy.action_type!r}"
        )
    check_model_path(policy, where="main_config.policy")
    check_nonnegative_int(policy.model, "num_res_blocks", where="main_config.policy.model")
    k, shape = policy.model.line_features, tuple(policy.model.observation_shape)
    longest = max(shape[1:]) if len(shape) == 3 else 0
    if isinstance(k, bool) or not isinstance(k, int) or not (k == 0 or 2 <= k <= longest):
        raise ConfigError(
            "main_config.policy.model: expected line_features to be 0 (off) or a window length "
            f"from 2 to the board's longer side ({longest}), got {k!r}"
        )
    if policy.model.line_directions and not k:
        raise ConfigError(
            "main_config.policy.model: line_directions=True adds planes to line_features' "
            "window counts; expected line_features > 0 with it, got 0"
        )
    check_search_rules(policy.mcts, where="main_config.policy.mcts")
    check_nonnegative_int(policy, "eval_opening_moves", where="main_config.policy")
    opening = check_nonnegative_int(policy, "collect_opening_moves", where="main_config.policy")
    if opening:
        cells = int(np.prod(shape[1:])) if len(shape) == 3 else 0
        check_opening_moves(opening, cells, "main_config.policy.collect_opening_moves")
    for key in ("update_per_collect", "num_sampling_moves", "eval_num_simulations"):
        value = policy[key]
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 1
        ):
            raise ConfigError(
                f"main_config.policy: expected {key} to be a positive int or None, got {value!r}"
            )
    if policy.optim_type not in OPTIM_TYPES:
        raise ConfigError(
            f"main_config.policy: expected optim_type in {list(OPTIM_TYPES)}, got "
            f"{policy.optim_type!r}"
        )
    for key in ("learning_rate", "model_update_ratio", "fixed_temperature_value"):
        if not isinstance(policy[key], (int, float)) or not policy[key] > 0:
            raise ConfigError(f"main_config.policy: expected {key} > 0, got {policy[key]!r}")
    check_nonnegative_int(policy, "nn_cache_size", where="main_config.policy", note=" (0: off)")
    _check_share(policy, "root_value_target_weight")
    check_discount_factor(policy, where="main_config.policy", note=" (1: off)")
    if policy.policy_target not in POLICY_TARGETS:
        raise ConfigError(
            f"main_config.policy: expected policy_target in {list(POLICY_TARGETS)}, got "
            f"{policy.policy_target!r}"
        )
    _check_share(policy, "ema_decay", below_one=True)
    from lzero.model.frozen import inference_dtype  # torch: imported only here

    for key in ("inference_dtype", "learn_dtype"):
        try:
            inference_dtype(policy[key], key)
        except ValueError as e:
            raise ConfigError(f"main_config.policy: {e}") from None
    check_playout_cap(
        policy, policy.mcts.num_simulations, where="main_config.policy",
        full_key="mcts.num_simulations",
    )  # fmt: skip
    try:
        check_fpu_reduction(policy.eval_fpu_reduction, "eval_fpu_reduction")
        check_fpu_reduction(policy.collect_fpu_reduction, "collect_fpu_reduction")
        check_forced_playouts(policy.collect_forced_playouts, "collect_forced_playouts")
    except ValueError as e:
        raise ConfigError(f"main_config.policy: {e}") from None
    c = _check_share(policy, "contempt")  # bools such as draw_head: _check_bools above
    if c and not policy.model.draw_head:
        raise ConfigError(
            f"main_config.policy: contempt={c!r} reads the network's draw probability; it "
            "needs model.draw_head=True (or contempt=0)"
        )
    env_user = dict(main_user.pop("env", {}) or {})
    _check_share(policy, "bot_opponent_share")
    mode = env_user.get("battle_mode", "self_play_mode")
    for key, what in SELF_PLAY_ONLY_KEYS.items():
        if policy[key] and mode != "self_play_mode":
            raise ConfigError(
                f"main_config.policy: {key}={policy[key]!r} {what}; it needs "
                f"env.battle_mode='self_play_mode', got {mode!r}"
            )
    trainer_user = {k: env_user.pop(k) for k in list(env_user) if k in TRAINER_ENV_CONFIG}
    main = merge_config(
        {k: v for k, v in MAIN_CONFIG.items() if k not in ("policy", "env")}, main_user,
        where="main_config",
    )  # fmt: skip
    manager = dict(trainer_user.get("manager") or {})
    valid = {**BaseEnvManager.config, **TRAINER_ENV_CONFIG["manager"]}  # all named in hints
    raise_unknown_keys(unknown_keys(valid, manager, "main_config.env.manager"))
    for key in set(BaseEnvManager.config) - set(TRAINER_ENV_CONFIG["manager"]):
        manager.pop(key, None)  # LightZero's env-manager settings: no effect on the pool
    main.trainer = merge_config(
        TRAINER_ENV_CONFIG, {**trainer_user, "manager": manager}, where="main_config.env"
    )
    kind = manager_type(main.trainer.manager, create.env_manager, "main_config.env")
    ray_only = sorted(k for k in manager if k not in BaseEnvManager.config and k != "type")
    if kind != "ray" and ray_only:  # they would be ignored: self-play runs in this process
        raise ConfigError(
            f"main_config.env.manager: {ray_only} apply to self-play in Ray actors; expected "
            f"them only with type 'ray', got type {kind!r}"
        )
    check_ray_config(main.trainer.manager, "main_config.env.manager")
    if kind == "ray" and policy.overlap_learning:
        raise ConfigError(
            "main_config.policy: overlap_learning runs the learner beside in-process "
            "self-play; expected it False with the 'ray' manager (its actors play with their "
            "own copies of the weights)"
        )
    check_positive_ints(
        main.trainer.manager, ("weight_sync_freq", "max_consecutive_failures"),
        where="main_config.env.manager",
    )  # fmt: skip
    check_positive_ints(
        main.trainer, ("collector_env_num", "evaluator_env_num", "n_evaluator_episode"),
        where="main_config.env",
    )  # fmt: skip
    main.env = EasyDict(env_user)
    main.policy = policy
    main.create = create
    return main


def bot_mode_variant(sp_module, exp_name: str) -> tuple[EasyDict, EasyDict, int]:
    """LightZero's ``play_with_bot_mode`` config of a zoo self-play config module: the same
    settings with the agent as player 1 and the env's bot replying (without the self-play
    config's self-play-only keys, ``SELF_PLAY_ONLY_KEYS``).

    Returns:
        ``(main_config, create_config, max_env_step)`` for the bot-mode module to export.
    """
    main = copy.deepcopy(sp_module.main_config)
    main.exp_name = exp_name
    main.env.battle_mode = "play_with_bot_mode"
    for key in SELF_PLAY_ONLY_KEYS:
        main.policy.pop(key, None)
    return main, copy.deepcopy(sp_module.create_config), sp_module.max_env_step


def gumbel_variant(
    module, exp_name: str, *, num_simulations: int, policy: Mapping | None = None, **mcts
) -> tuple[EasyDict, EasyDict, int]:
    """The ``gumbel_alphazero`` config of a zoo AlphaZero config module (LightZero's
    ``<game>_gumbel_alphazero_*`` files): the same settings with Gumbel AlphaZero's search of
    ``num_simulations`` and the given ``mcts`` Gumbel keys (``max_num_considered_actions``,
    ``gumbel_scale``, ...), the ``policy`` keys given replacing the module's, and without the
    PUCT-only self-play keys.

    Returns:
        ``(main_config, create_config, max_env_step)`` for the module to export.
    """
    main = copy.deepcopy(module.main_config)
    create = copy.deepcopy(module.create_config)
    main.exp_name = exp_name
    for key in (*_PUCT_ONLY, "collect_forced_playouts", "policy_target"):
        main.policy.pop(key, None)
    main.policy.update(copy.deepcopy(dict(policy or {})))
    main.policy.mcts = EasyDict({**main.policy.get("mcts", {}), **mcts})
    main.policy.mcts.num_simulations = num_simulations
    create.policy = EasyDict(type="gumbel_alphazero", import_names=["lzero.policy.alphazero"])
    return main, create, module.max_env_step
