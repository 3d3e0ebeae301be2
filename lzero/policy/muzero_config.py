"""MuZero policy config: documented defaults and the checks of a user's policy dict."""

from __future__ import annotations

from easydict import EasyDict

from lzero.envs.config import check_positive_ints, merge_config
from lzero.errors import ConfigError

MUZERO_POLICY_CONFIG = dict(
    type="muzero",  # (str) policy name; the only one this module serves
    import_names=["lzero.policy.muzero"],  # (list) modules defining it (LightZero compat)
    model=dict(
        model_type="mlp",  # (str) only 'mlp' (vector observations) is implemented
        observation_shape=4,  # (int) length of the flat observation
        action_space_size=2,  # (int) number of discrete actions
        latent_state_dim=128,  # (int) size of the latent state
        hidden_size=128,  # (int) hidden width of the representation and dynamics MLPs
        head_hidden_size=32,  # (int) hidden width of the reward, value and policy heads
        support_scale=300,  # (int) categorical supports span -support_scale..support_scale
        res_connection_in_dynamics=True,  # (bool) residual connection in the dynamics MLP
        last_linear_layer_init_zero=True,  # (bool) heads start at uniform policy, zero value
    ),
    cuda=False,  # (bool) must be False: this build trains on CPU
    torch_num_threads=1,  # (int) torch intra-op threads; small MLPs are fastest on one
    num_simulations=25,  # (int) search simulations per move
    batch_size=256,  # (int) samples per gradient step
    update_per_collect=None,  # (int|None) gradient steps per collect; None uses replay_ratio
    replay_ratio=0.25,  # (float) gradient steps per collected env step
    num_unroll_steps=5,  # (int) K, model unroll steps per sample
    td_steps=10,  # (int) n of the n-step value target
    discount_factor=0.997,  # (float) reward discount
    learning_rate=3e-3,  # (float) Adam learning rate
    weight_decay=1e-4,  # (float) Adam L2 weight decay
    grad_clip_value=10.0,  # (float) max global gradient norm
    value_loss_weight=0.25,  # (float) weight of the value loss (paper: 0.25)
    reward_loss_weight=1.0,  # (float) weight of the reward loss
    policy_loss_weight=1.0,  # (float) weight of the policy loss
    target_update_freq=100,  # (int) train iterations between target-network copies
    game_segment_length=50,  # (int) sampleable steps per stored game segment
    replay_buffer_size=int(1e6),  # (int) replay capacity in transitions
    n_episode=8,  # (int) episodes collected per collect phase
    eval_freq=100,  # (int) train iterations between evaluations
    save_ckpt_freq=1000,  # (int) train iterations between iteration_N checkpoints
    pb_c_base=19652.0,  # (float) pUCT c2 (paper constant)
    pb_c_init=1.25,  # (float) pUCT c1 (paper constant)
    root_dirichlet_alpha=0.3,  # (float) Dirichlet alpha of the root noise
    root_noise_weight=0.25,  # (float) weight of the root noise during collection
    manual_temperature_decay=False,  # (bool) decay temperature 1 -> 0.5 -> 0.25 over training
    fixed_temperature_value=0.25,  # (float) visit-count temperature when not decaying
    threshold_training_steps_for_final_temperature=int(1e5),  # (int) iterations of the decay
    env_type="not_board_games",  # (str) only single-agent envs are supported
)


def _is_number(value, types) -> bool:
    return isinstance(value, types) and not isinstance(value, bool)


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
    if cfg.type != "muzero":
        raise ConfigError(f"policy config: expected type 'muzero', got {cfg.type!r}")
    if cfg.cuda:
        raise ConfigError("policy config: expected cuda=False (CPU-only build), got True")
    if cfg.model.model_type != "mlp":
        raise ConfigError(
            f"policy config: expected model.model_type 'mlp', got {cfg.model.model_type!r}"
        )
    if cfg.env_type != "not_board_games":
        raise ConfigError(
            f"policy config: expected env_type 'not_board_games', got {cfg.env_type!r}"
        )
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
        ),
        where="policy config",
    )
    if cfg.update_per_collect is None and cfg.replay_ratio is None:
        raise ConfigError(
            "policy config: expected one of update_per_collect and replay_ratio, got neither"
        )
    upc = cfg.update_per_collect
    if upc is not None and (not _is_number(upc, int) or upc < 1):
        raise ConfigError(
            f"policy config: expected update_per_collect to be a positive int or None, got {upc!r}"
        )
    for key, lowest in (("replay_ratio", None), ("learning_rate", None), ("weight_decay", 0.0)):
        value = cfg[key]
        if value is None and key == "replay_ratio":
            continue
        ok = _is_number(value, (int, float)) and (value > 0 if lowest is None else value >= 0)
        if not ok:
            kind = "a positive" if lowest is None else "a non-negative"
            raise ConfigError(f"policy config: expected {key} to be {kind} number, got {value!r}")
    if not 0.0 < cfg.discount_factor <= 1.0:
        raise ConfigError(
            f"policy config: expected 0 < discount_factor <= 1, got {cfg.discount_factor}"
        )
    return cfg
