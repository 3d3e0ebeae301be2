"""MuZero policy config: documented defaults and the checks of a user's policy dict."""

from __future__ import annotations

import copy
import math
import warnings

from easydict import EasyDict

from lzero.envs.config import (
    check_cuda,
    check_discount_factor,
    check_fixed,
    check_model_path,
    check_nonnegative_int,
    check_playout_cap,
    check_positive_ints,
    check_positive_or_none,
    dotted,
    merge_config,
    take_renamed,
)
from lzero.errors import ConfigError
from lzero.mcts.gumbel import check_gumbel_settings
from lzero.policy.board_game import check_search_rules
from lzero.policy.optim import OPTIM_TYPES

MUZERO_POLICY_CONFIG = dict(
    type="muzero",  # (str) 'muzero' (PUCT, visit-count targets) or 'gumbel_muzero' (Gumbel
    # MuZero, Danihelka et al. 2022: Sequential Halving with Gumbel at the root, the improved
    # policy below it; the move is the halving winner, the policy target the improved policy;
    # the Gumbel keys below apply and the Dirichlet noise and temperature do not). As
    # create_config.policy.type
    import_names=["lzero.policy.muzero"],  # (list) modules defining it (LightZero compat)
    model=dict(
        model_type=None,  # (str|None) 'mlp' (vector observations) or 'conv' (board planes);
        # None: 'conv' for a (C, H, W) observation_shape, else 'mlp' (LightZero's default is
        # 'conv', which its gym configs override with 'mlp')
        observation_shape=4,  # (int|tuple) length of the flat observation, or (C, H, W) planes
        action_space_size=2,  # (int) number of discrete actions
        latent_state_dim=128,  # (int) mlp: size of the latent state
        hidden_size=128,  # (int) mlp: hidden width of the representation and dynamics MLPs
        head_hidden_size=32,  # (int) mlp: hidden width of the reward, value and policy heads
        image_channel=None,  # (int|None) conv: input planes C; None: from observation_shape
        num_res_blocks=1,  # (int) conv: residual blocks in each of h, g and f
        num_channels=32,  # (int) conv: channels of the latent state
        reward_head_channels=8,  # (int) conv: planes of the reward head's 1x1 convolution
        value_head_channels=8,  # (int) conv: planes of the value head's 1x1 convolution
        policy_head_channels=8,  # (int) conv: planes of the policy head's 1x1 convolution
        fc_reward_layers=[32],  # (list) conv: hidden widths of the reward head
        fc_value_layers=[32],  # (list) conv: hidden widths of the value head
        fc_policy_layers=[32],  # (list) conv: hidden widths of the policy head
        frame_stack_num=1,  # (int) conv: must be 1 (one board per observation)
        downsample=False,  # (bool) conv: must be False (boards are small)
        representation_network_type="conv_res_blocks",  # (str) conv: the only one here
        norm_type="BN",  # (str) conv: batch norm; the only one here
        support_scale=300,  # (int) categorical supports span -support_scale..support_scale
        reward_support_size=None,  # (int|None) LightZero's; must be 2 * support_scale + 1
        value_support_size=None,  # (int|None) LightZero's; must be 2 * support_scale + 1
        res_connection_in_dynamics=True,  # (bool) mlp: residual connection in the dynamics
        last_linear_layer_init_zero=True,  # (bool) heads start at uniform policy, zero value
        # LightZero's newer names of keys above: given, they set those keys
        reward_head_hidden_channels=None,  # (list|None) fc_reward_layers
        value_head_hidden_channels=None,  # (list|None) fc_value_layers
        policy_head_hidden_channels=None,  # (list|None) fc_policy_layers
        reward_support_range=None,  # (tuple|None) (-s, s + 1, 1): support_scale s
        value_support_range=None,  # (tuple|None) (-s, s + 1, 1): support_scale s
        discrete_action_encoding_type="one_hot",  # (str) LightZero's; the only one here
        self_supervised_learning_loss=False,  # (bool) EfficientZero's consistency loss, as
        # LightZero's: each unrolled latent is drawn (through projection and prediction heads)
        # towards the projection of the representation of the observation it stands for;
        # weighted by ssl_loss_weight (README, "A short tour")
        proj_hid=256,  # (int) with it: hidden width of the projection (EfficientZero's widths
        # here and below, also for the MLP model: LightZero's MLP model has 1024, 1024, 512 and
        # 1024, which made a CartPole update 18 times slower on a CPU; README)
        proj_out=256,  # (int) output width of the projection
        pred_hid=64,  # (int) hidden width of the prediction head
        pred_out=256,  # (int) output width of the prediction head: = proj_out
        lstm_hidden_size=None,  # (int) LightZero's (EfficientZero's value-prefix LSTM); no
        # effect: MuZero has none, in LightZero either
    ),
    cuda=False,  # (bool) this build trains on the CPU: True (LightZero's configs) warns so
    torch_num_threads=1,  # (int) torch intra-op threads; small MLPs are fastest on one
    learn_torch_num_threads=None,  # (int|None) torch threads while a collect's updates run
    # (switched per phase, not per update: a switch costs milliseconds); None: torch_num_threads
    num_simulations=25,  # (int) search simulations per move
    batch_size=256,  # (int) samples per gradient step
    update_per_collect=None,  # (int|None) gradient steps per collect; None uses replay_ratio
    replay_ratio=0.25,  # (float) gradient steps per collected env step
    num_unroll_steps=5,  # (int) K, model unroll steps per sample
    td_steps=10,  # (int) n of the n-step value target
    discount_factor=0.997,  # (float) reward discount
    learning_rate=3e-3,  # (float) learning rate (the first of the schedule below)
    weight_decay=1e-4,  # (float) L2 weight decay (AdamW: decoupled)
    grad_clip_value=10.0,  # (float) max global gradient norm
    value_loss_weight=0.25,  # (float) weight of the value loss (paper: 0.25)
    reward_loss_weight=1.0,  # (float) weight of the reward loss
    policy_loss_weight=1.0,  # (float) weight of the policy loss
    policy_entropy_weight=0.0,  # (float) LightZero's: weight of a bonus for the predicted
    # policies' entropy (its default is 5e-3; ours 0, the loss our configs were tuned with)
    policy_label_smoothing=0.0,  # (float) LightZero's: policy targets mixed with the uniform
    # distribution over every action by this share, in [0, 1)
    target_update_freq=100,  # (int) train iterations between target-network copies
    game_segment_length=50,  # (int) sampleable steps per stored game segment
    replay_buffer_size=int(1e6),  # (int) replay capacity in transitions
    n_episode=8,  # (int) episodes collected per collect phase
    eval_freq=100,  # (int) train iterations between evaluations
    save_ckpt_freq=1000,  # (int) train iterations between iteration_N checkpoints
    fast_search_prob=0.0,  # (float) ours, in [0, 1): playout cap randomisation (Wu 2019,
    # KataGo), as AlphaZero's key: each collect step searches with fast_search_simulations and
    # no root noise with this probability (drawn per step, for all envs at once); its steps
    # are stored for the rewards, values and unrolls, but their policy targets are left out of
    # the policy loss. The other steps search fully. 0: off
    fast_search_simulations=None,  # (int|None) simulations of a fast search, from 1 to
    # fewer than num_simulations; needed when fast_search_prob > 0
    save_ckpt_last_minutes=10.0,  # (float|None) ours: minutes between writes of
    # ckpt/ckpt_last.pth.tar during training, each with the run's whole state (weights,
    # optimizer, replay buffer, episodes in flight and their envs, every random stream), so
    # that --resume after a kill continues from it as if the run had not stopped; None:
    # written when it stops only
    pb_c_base=19652.0,  # (float) pUCT c2 (paper constant)
    pb_c_init=1.25,  # (float) pUCT c1 (paper constant)
    root_dirichlet_alpha=0.3,  # (float) Dirichlet alpha of the root noise
    root_noise_weight=0.25,  # (float) weight of the root noise during collection
    unvisited_value="zero",  # (str) ours: what an edge not yet taken is worth in the search,
    # 'zero' (the MuZero pseudocode's 0, the least value once Q is normalised) or 'mean_q' (its
    # node's mean Q, as LightZero's C++ trees have it); see the README
    mcts=dict(  # ours, board games: the root's moves narrowed by the rules, as AlphaZero's
        # policy.mcts keys of these names narrow them (lzero.mcts.BatchedSearch.root_moves); at
        # the root only, since below it the tree runs on the model's latent states
        radius=0,  # (int) placement games: only the empty cells within this distance of a stone
        tactics=False,  # (bool) a winning move alone, else no move that lets the opponent win next
        threat_depth=0,  # (int) placement k-in-a-row games: forced wins by continuous fours of
        # up to this many moves, the mover's (its first move alone) and the opponent's (dropped)
        three_depth=0,  # (int) with threat_depth: wins by continuous threats with threes too
    ),
    manual_temperature_decay=False,  # (bool) decay temperature 1 -> 0.5 -> 0.25 over training
    fixed_temperature_value=0.25,  # (float) visit-count temperature when not decaying
    threshold_training_steps_for_final_temperature=int(1e5),  # (int) iterations of the decay
    eps=dict(  # LightZero's epsilon-greedy collection (off by default)
        eps_greedy_exploration_in_collect=False,  # (bool) collect the most visited action, or a
        # uniformly random legal one with probability eps (root noise stays on)
        type="linear",  # (str) 'linear' or 'exp' decay of eps over collected env steps
        start=1.0,  # (float) eps at env step 0
        end=0.05,  # (float) eps it decays to
        decay=int(1e5),  # (int) env steps of the linear decay; the time constant of 'exp'
    ),
    env_type="not_board_games",  # (str) 'not_board_games' or 'board_games' (two players in the
    # tree when the env is in self_play_mode: rewards for the mover, values for the player to move)
    action_type="fixed_action_space",  # (str) LightZero's; no effect (the mask is the env's)
    use_augmentation=False,  # (bool) must be False: no image augmentation here
    symmetry_augmentation=False,  # (bool) ours, as AlphaZero's: board games with a conv model
    # sample each unroll under a random symmetry of the board (observations, actions, policies)
    reanalyze_ratio=0.0,  # (float) LightZero's, in [0, 1]: that share of each batch has its
    # policy targets recomputed by a fresh search with the current network on the stored
    # observations, at every unroll step (MuZero Reanalyze; MuZeroPolicy.reanalyze); value
    # targets are always bootstrapped from the target network at learning time. 0: off
    reanalyze_noise=True,  # (bool) LightZero's: root noise in reanalysis; no effect here
    # (reanalysis searches greedily, without noise)
    reuse_search=False,  # (bool) ReZero's: collection reuses reanalysis searches; no effect here
    buffer_reanalyze_freq=1,  # (float) ReZero's: buffer reanalyses per collect; no effect here
    collect_with_pure_policy=False,  # (bool) LightZero's; must be False: collection searches
    optim_type="Adam",  # (str) 'SGD' (with momentum), 'Adam' or 'AdamW' (lzero.policy.optim)
    momentum=0.9,  # (float) SGD's momentum
    lr_piecewise_constant_decay=False,  # (bool) lr x1 -> x0.1 -> x0.01 at 1/3 and 2/3 below
    piecewise_decay_lr_scheduler=None,  # (bool|None) LightZero's newer name of the above
    threshold_training_steps_for_final_lr=int(5e4),  # (int) gradient steps of that decay
    ssl_loss_weight=0.0,  # (float) weight of the consistency loss (see
    # model.self_supervised_learning_loss; LightZero's default 0 leaves it out)
    use_wandb=False,  # (bool) LightZero's; must be False (TensorBoard and progress.csv here)
    model_path=None,  # (str|None) LightZero's: a checkpoint to start from, used when the
    # entry's own model_path argument is None
    eval_bots=None,  # (list|None) board games: bots to evaluate against, the first scored as the
    # eval return; None: rule, mcts and, on TicTacToe, alpha_beta (the perfect alpha-beta bot)
    mcts_ctree=True,  # (bool) LightZero's C++ tree switch; no effect (one numba search here)
    collector_env_num=None,  # (int) LightZero repeats env.collector_env_num here; no effect
    evaluator_env_num=None,  # (int) LightZero repeats env.evaluator_env_num here; no effect
    # LightZero's default_config keys of features not built here (its Atari, MiniGrid and
    # Memory configs set them): accepted at the values that leave them off (_FIXED)
    multi_gpu=False,  # (bool) must be False: this build trains on one CPU
    use_priority=False,  # (bool) must be False: the replay samples uniformly
    priority_prob_alpha=0.6,  # (float) prioritised replay's; no effect without use_priority
    priority_prob_beta=0.4,  # (float) prioritised replay's; no effect without use_priority
    use_max_priority_for_new_data=False,  # (bool) prioritised replay's; no effect without it
    ignore_done=False,  # (bool) must be False: an episode's end is its end
    random_collect_episode_num=0,  # (int) must be 0: every collected episode is searched
    sampled_algo=False,  # (bool) must be False: Sampled MuZero is not implemented
    gumbel_algo=False,  # (bool) LightZero's switch; True exactly with type 'gumbel_muzero' (set
    # from the type)
    max_num_considered_actions=4,  # (int) gumbel_muzero: root moves sampled without
    # replacement by Gumbel-top-k, then halved (LightZero's default 4; mctx's 16)
    gumbel_scale=1.0,  # (float) gumbel_muzero: scale of the root's Gumbel noise in collection
    # (evaluation draws none)
    maxvisit_init=50.0,  # (float) gumbel_muzero: c_visit of sigma(q) = (c_visit + max visits)
    # * c_scale * q, q min-max normalised (mctx's 50)
    value_scale=0.1,  # (float) gumbel_muzero: c_scale of that transform (mctx's 0.1)
)

#: Policy types this config serves.
MUZERO_TYPES = ("muzero", "gumbel_muzero")

#: Keys accepted only at one value, with the reason (LightZero's switches of features not
#: built here).
_FIXED = (
    ("collect_with_pure_policy", False, "collection always searches"),
    ("multi_gpu", False, "this build trains on one CPU"),
    ("use_priority", False, "the replay samples uniformly; prioritised replay is not built"),
    ("ignore_done", False, "an episode's end is its end here"),
    ("random_collect_episode_num", 0, "random collection before training is not built"),
    ("sampled_algo", False, "Sampled MuZero is not implemented"),
    ("use_augmentation", False, "image augmentation is not built"),
    ("use_wandb", False, "runs log to TensorBoard and progress.csv, not wandb"),
    ("model.discrete_action_encoding_type", "one_hot", "actions are encoded one-hot"),
    ("model.frame_stack_num", 1, "an observation is one frame"),
    ("model.downsample", False, "the conv model keeps the board's size"),
    ("model.representation_network_type", "conv_res_blocks", "the one conv encoder built"),
    ("model.norm_type", "BN", "the conv model uses batch norm"),
)


def _is_number(value, types) -> bool:
    return isinstance(value, types) and not isinstance(value, bool)


_CHOICES = (
    ("model.model_type", ("mlp", "conv")),
    ("env_type", ("not_board_games", "board_games")),
    ("optim_type", OPTIM_TYPES),
    ("unvisited_value", ("zero", "mean_q")),
    ("symmetry_augmentation", (False, True)),
    ("piecewise_decay_lr_scheduler", (None, False, True)),  # before the key it sets: its name
    ("lr_piecewise_constant_decay", (False, True)),
    ("model.self_supervised_learning_loss", (False, True)),
)


def _check_choices(cfg: EasyDict) -> None:
    for key, allowed in _CHOICES:
        value = dotted(cfg, key)
        # a switch takes True or False, not 1 or 0 (as AlphaZero's bool keys)
        if not any(value is a if a is None or isinstance(a, bool) else value == a for a in allowed):
            raise ConfigError(f"policy config: expected {key} in {list(allowed)}, got {value!r}")
    m = cfg.model
    size = 2 * m.support_scale + 1
    for key in ("reward_support_size", "value_support_size"):
        if m[key] is not None and m[key] != size:
            raise ConfigError(
                f"policy config: expected model.{key} = 2 * support_scale + 1 = {size}, "
                f"got {m[key]}"
            )
    shape = m.observation_shape
    if m.model_type == "conv":
        if isinstance(shape, int) or len(shape) != 3:
            raise ConfigError(
                f"policy config: expected model.observation_shape (C, H, W) for model_type "
                f"'conv', got {shape!r}"
            )
        if m.image_channel is not None and m.image_channel != shape[0]:
            raise ConfigError(
                f"policy config: expected model.image_channel = observation_shape[0] = "
                f"{shape[0]}, got {m.image_channel}"
            )


def _take_lightzero_names(user: dict, cfg: EasyDict) -> None:
    """Sets the keys that LightZero's newer names in ``user`` stand for (see the defaults)."""
    model_user = user.get("model") or {}
    for part in ("reward", "value", "policy"):
        take_renamed(
            model_user, cfg.model, f"{part}_head_hidden_channels", f"fc_{part}_layers",
            where="policy config.model",
        )  # fmt: skip
    take_renamed(
        user, cfg, "piecewise_decay_lr_scheduler", "lr_piecewise_constant_decay",
        where="policy config",
    )  # fmt: skip
    scales = {}
    for key in ("reward_support_range", "value_support_range"):
        r = model_user.get(key)
        if r is None:
            continue
        ok = (
            isinstance(r, (list, tuple))
            and len(r) == 3
            and all(_is_number(v, (int, float)) for v in r)
            and r[2] == 1
            and r[1] >= 2
            and r[1] == int(r[1])
            and r[0] == -(r[1] - 1)
        )
        if not ok:
            raise ConfigError(
                f"policy config.model: expected {key} (start, stop, step) = (-s, s + 1, 1) with "
                f"s >= 1 (the support -s..s of support_scale s), got {r!r}"
            )
        scales[key] = int(r[1]) - 1
    if not scales:
        return
    given = model_user.get("support_scale")
    if len(set(scales.values())) > 1 or (given is not None and given not in scales.values()):
        raise ConfigError(
            "policy config.model: expected reward_support_range, value_support_range and "
            f"support_scale to give one support (one scale here), got scales {scales}"
            + (f" and support_scale={given!r}" if given is not None else "")
        )
    cfg.model.support_scale = next(iter(scales.values()))


def _check_consistency(cfg: EasyDict) -> None:
    """Checks the consistency heads' widths; warns when only one of the switch and the weight
    asks for the loss (LightZero computes it only with both)."""
    m = cfg.model
    check_positive_ints(
        m, ("proj_hid", "proj_out", "pred_hid", "pred_out"), where="policy config.model"
    )
    if m.pred_out != m.proj_out:
        raise ConfigError(
            "policy config.model: expected pred_out = proj_out (the consistency loss compares "
            f"a prediction with a projection), got pred_out={m.pred_out}, proj_out={m.proj_out}"
        )
    if m.self_supervised_learning_loss and cfg.ssl_loss_weight == 0:
        warnings.warn(
            "policy config: model.self_supervised_learning_loss=True with ssl_loss_weight=0 "
            "builds the consistency heads but trains without the loss (set ssl_loss_weight > "
            "0, e.g. LightZero's 2, to use it)",
            UserWarning,
            stacklevel=2,
        )
    elif cfg.ssl_loss_weight > 0 and not m.self_supervised_learning_loss:
        warnings.warn(
            f"policy config: ssl_loss_weight={cfg.ssl_loss_weight} has no effect without "
            "model.self_supervised_learning_loss=True (the consistency loss is off)",
            UserWarning,
            stacklevel=2,
        )


def consistency_loss_on(cfg: EasyDict) -> bool:
    """Whether a compiled policy config trains with the consistency loss."""
    return bool(cfg.model.self_supervised_learning_loss) and cfg.ssl_loss_weight > 0


def _check_eps(eps: EasyDict) -> None:
    if eps.type not in ("linear", "exp"):
        raise ConfigError(
            f"policy config: expected eps.type in ['linear', 'exp'], got {eps.type!r}"
        )
    for key in ("start", "end"):
        if not (_is_number(eps[key], (int, float)) and 0.0 <= eps[key] <= 1.0):
            raise ConfigError(f"policy config: expected 0 <= eps.{key} <= 1, got {eps[key]!r}")
    if not (_is_number(eps.decay, (int, float)) and eps.decay > 0):
        raise ConfigError(f"policy config: expected eps.decay > 0 env steps, got {eps.decay!r}")


def collect_epsilon(eps: EasyDict, env_step: int) -> float | None:
    """LightZero's (DI-engine's) epsilon schedule at ``env_step``; None when it is off.

    ``'linear'``: from ``start`` down to ``end`` over ``decay`` env steps, then ``end``.
    ``'exp'``: ``end + (start - end) * exp(-env_step / decay)``.
    """
    if not eps.eps_greedy_exploration_in_collect:
        return None
    if eps.type == "exp":
        return eps.end + (eps.start - eps.end) * math.exp(-env_step / eps.decay)
    return eps.end + (eps.start - eps.end) * max(0.0, 1.0 - env_step / eps.decay)


def policy_config(user: dict | None) -> EasyDict:
    """Merges ``user`` over :data:`MUZERO_POLICY_CONFIG`, rejecting unknown or contradictory keys.

    Raises:
        ConfigError: an unknown key, both ``update_per_collect`` and ``replay_ratio`` set,
            or a value out of range.
    """
    user = dict(user or {})
    if user.get("update_per_collect") is not None and user.get("replay_ratio") is not None:
        raise ConfigError(
            "policy config: expected only one of update_per_collect and replay_ratio, "
            f"got both ({user['update_per_collect']} and {user['replay_ratio']})"
        )
    cfg = merge_config(MUZERO_POLICY_CONFIG, user, where="policy config")
    if cfg.model.model_type is None:
        shape = cfg.model.observation_shape
        cfg.model.model_type = (
            "conv" if isinstance(shape, (list, tuple)) and len(shape) == 3 else "mlp"
        )
    if cfg.update_per_collect is not None:
        cfg.replay_ratio = None  # LightZero's rule: a set update_per_collect wins over the default
    _take_lightzero_names(user, cfg)
    if cfg.type not in MUZERO_TYPES:
        raise ConfigError(f"policy config: expected type in {list(MUZERO_TYPES)}, got {cfg.type!r}")
    gumbel = cfg.type == "gumbel_muzero"
    if user.get("gumbel_algo", gumbel) is not gumbel:
        raise ConfigError(
            f"policy config: gumbel_algo={cfg.gumbel_algo!r} disagrees with type {cfg.type!r}; "
            f"expected gumbel_algo={gumbel} (the type 'gumbel_muzero' selects Gumbel MuZero)"
        )
    cfg.gumbel_algo = gumbel
    try:
        check_gumbel_settings(
            max_num_considered_actions=cfg.max_num_considered_actions,
            gumbel_scale=cfg.gumbel_scale, maxvisit_init=cfg.maxvisit_init,
            value_scale=cfg.value_scale,
        )  # fmt: skip
    except ValueError as err:
        raise ConfigError(f"policy config: {err}") from None
    check_cuda(cfg, where="policy config")
    check_fixed(cfg, _FIXED, where="policy config")
    _check_choices(cfg)
    check_positive_ints(
        cfg,
        (
            "num_simulations",
            "batch_size",
            "num_unroll_steps",
            "td_steps",
            "game_segment_length",
            "replay_buffer_size",
            "n_episode",
            "eval_freq",
            "target_update_freq",
            "save_ckpt_freq",
            "torch_num_threads",
            "threshold_training_steps_for_final_lr",
        ),
        where="policy config",
    )
    check_positive_or_none(cfg, "save_ckpt_last_minutes", where="policy config")
    check_playout_cap(cfg, cfg.num_simulations, where="policy config", full_key="num_simulations")
    share = cfg.reanalyze_ratio
    if not (_is_number(share, (int, float)) and 0 <= share <= 1):
        raise ConfigError(f"policy config: expected reanalyze_ratio in [0, 1], got {share!r}")
    check_search_rules(cfg.mcts, where="policy config.mcts")
    check_positive_ints(
        cfg.model,
        (
            "latent_state_dim",
            "hidden_size",
            "head_hidden_size",
            "num_channels",
            "reward_head_channels",
            "value_head_channels",
            "policy_head_channels",
        ),
        where="policy config.model",
    )
    check_nonnegative_int(cfg.model, "num_res_blocks", where="policy config.model")
    if cfg.update_per_collect is None and cfg.replay_ratio is None:
        raise ConfigError(
            "policy config: expected one of update_per_collect and replay_ratio, got neither"
        )
    for key in ("update_per_collect", "learn_torch_num_threads"):
        value = cfg[key]
        if value is not None and (not _is_number(value, int) or value < 1):
            raise ConfigError(
                f"policy config: expected {key} to be a positive int or None, got {value!r}"
            )
    for key, lowest in (
        ("replay_ratio", None), ("learning_rate", None), ("weight_decay", 0.0), ("momentum", 0.0),
        ("policy_entropy_weight", 0.0),
    ):  # fmt: skip
        value = cfg[key]
        if value is None and key == "replay_ratio":
            continue
        ok = _is_number(value, (int, float)) and (value > 0 if lowest is None else value >= 0)
        if not ok:
            kind = "a positive" if lowest is None else "a non-negative"
            raise ConfigError(f"policy config: expected {key} to be {kind} number, got {value!r}")
    smoothing = cfg.policy_label_smoothing
    if not (_is_number(smoothing, (int, float)) and 0 <= smoothing < 1):
        raise ConfigError(
            f"policy config: expected policy_label_smoothing in [0, 1), got {smoothing!r}"
        )
    _check_eps(cfg.eps)
    if not (_is_number(cfg.ssl_loss_weight, (int, float)) and cfg.ssl_loss_weight >= 0):
        raise ConfigError(
            f"policy config: expected ssl_loss_weight to be a number >= 0, got "
            f"{cfg.ssl_loss_weight!r}"
        )
    check_model_path(cfg, where="policy config")
    _check_consistency(cfg)
    check_discount_factor(cfg, where="policy config")
    return cfg


def gumbel_muzero_variant(
    module, exp_name: str, *, num_simulations: int, **policy
) -> tuple[EasyDict, EasyDict, int]:
    """The ``gumbel_muzero`` config of a zoo MuZero config module (LightZero's
    ``<task>_gumbel_muzero_*`` files): the same settings with Gumbel MuZero's search of
    ``num_simulations`` and the ``policy`` keys given (``max_num_considered_actions``,
    ``gumbel_scale``, ...) replacing the module's.

    Returns:
        ``(main_config, create_config, max_env_step)`` for the module to export.
    """
    main = copy.deepcopy(module.main_config)
    create = copy.deepcopy(module.create_config)
    main.exp_name = exp_name
    main.policy.update(copy.deepcopy(policy))
    main.policy.num_simulations = num_simulations
    create.policy = EasyDict(type="gumbel_muzero", import_names=["lzero.policy.muzero"])
    return main, create, module.max_env_step
