"""MuZero policy: the networks, their training step, and batched search for acting.

The learner unrolls the model ``num_unroll_steps`` times from each sampled observation and
minimises cross-entropies against categorical value and reward targets and the search's
visit-count policy (Schrittwieser et al. 2020, Eq. 1 and App. G); the gradient into each
unrolled latent is halved, and unrolled steps weigh ``1 / num_unroll_steps``.
"""

from __future__ import annotations

import copy

import numpy as np
import torch
from easydict import EasyDict

from lzero.envs.config import merge_config
from lzero.errors import ConfigError
from lzero.mcts.ctree import MuZeroMCTS, select_action
from lzero.model import MuZeroModelMLP
from lzero.policy.scaling_transform import scalar_to_support, support_to_scalar

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
    for key in (
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
    ):
        if not isinstance(cfg[key], int) or cfg[key] < 1:
            raise ConfigError(
                f"policy config: expected {key} to be a positive int, got {cfg[key]!r}"
            )
    if not 0.0 < cfg.discount_factor <= 1.0:
        raise ConfigError(
            f"policy config: expected 0 < discount_factor <= 1, got {cfg.discount_factor}"
        )
    return cfg


def _cross_entropy(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return -(target * torch.log_softmax(logits, dim=-1)).sum(-1)


class MuZeroPolicy:
    """MuZero learner and actor.

    Args:
        cfg: the policy config (see :func:`policy_config`).
        model: a prebuilt model; by default a :class:`MuZeroModelMLP` from ``cfg.model``.
    """

    def __init__(self, cfg: dict, model: torch.nn.Module | None = None) -> None:
        self.cfg = cfg = policy_config(cfg)
        torch.set_num_threads(cfg.torch_num_threads)
        m = cfg.model
        self.model = (
            model
            if model is not None
            else MuZeroModelMLP(
                m.observation_shape,
                m.action_space_size,
                latent_state_dim=m.latent_state_dim,
                hidden_size=m.hidden_size,
                head_hidden_size=m.head_hidden_size,
                support_scale=m.support_scale,
                res_connection_in_dynamics=m.res_connection_in_dynamics,
                last_linear_layer_init_zero=m.last_linear_layer_init_zero,
            )
        )
        self.target_model = copy.deepcopy(self.model)
        self.optimizer = torch.optim.Adam(
            self.model.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay
        )
        self.support = m.support_scale
        self.train_iter = 0
        self.mcts = MuZeroMCTS(
            num_simulations=cfg.num_simulations,
            action_space_size=m.action_space_size,
            discount_factor=cfg.discount_factor,
            pb_c_base=cfg.pb_c_base,
            pb_c_init=cfg.pb_c_init,
            root_dirichlet_alpha=cfg.root_dirichlet_alpha,
            root_noise_weight=cfg.root_noise_weight,
        )

    # ------------------------------------------------------------------ acting
    def temperature(self) -> float:
        """Visit-count temperature at the current training iteration."""
        if not self.cfg.manual_temperature_decay:
            return self.cfg.fixed_temperature_value
        frac = self.train_iter / self.cfg.threshold_training_steps_for_final_temperature
        return 1.0 if frac < 0.5 else 0.5 if frac < 0.75 else 0.25

    @torch.no_grad()
    def search(
        self,
        obs: np.ndarray,
        action_mask: np.ndarray,
        *,
        rng: np.random.Generator | None,
        explore: bool,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Searches from a batch of observations and picks actions.

        Args:
            obs: `[B, O]` observations.
            action_mask: `[B, A]` 1 where legal.
            rng: generator for root noise and action sampling (used when ``explore``).
            explore: add root noise and sample with the temperature; else act greedily.

        Returns:
            `[B]` actions, `[B, A]` normalised visit counts, `[B]` root values.
        """
        self.model.eval()
        out = self.model.initial_inference(torch.as_tensor(np.asarray(obs, np.float32)))
        batch = out.latent_state.shape[0]
        latents = out.latent_state.new_empty(
            (self.cfg.num_simulations + 1, *out.latent_state.shape)
        )
        latents[0] = out.latent_state
        rows = torch.arange(batch)

        def recurrent_fn(parent, action, new_node):
            o = self.model.recurrent_inference(
                latents[torch.from_numpy(parent).long(), rows], torch.from_numpy(action).long()
            )
            latents[new_node] = o.latent_state
            return (
                support_to_scalar(o.reward_logits, self.support).numpy(),
                support_to_scalar(o.value_logits, self.support).numpy(),
                torch.softmax(o.policy_logits, -1).numpy(),
            )

        noise = self.mcts.root_noise(action_mask, rng) if explore else None
        res = self.mcts.search(
            torch.softmax(out.policy_logits, -1).numpy(),
            support_to_scalar(out.value_logits, self.support).numpy(),
            action_mask,
            recurrent_fn,
            noise=noise,
        )
        actions = select_action(
            res.visit_counts, self.temperature(), rng, deterministic=not explore
        )
        dist = res.visit_counts / res.visit_counts.sum(axis=1, keepdims=True)
        return actions, dist.astype(np.float32), res.root_value

    # ------------------------------------------------------------------ learning
    def learn(self, batch: dict[str, np.ndarray]) -> dict[str, float]:
        """One gradient step on a batch from :meth:`MuZeroGameBuffer.sample`.

        Returns:
            The step's losses (``total_loss``, ``value_loss``, ``reward_loss``,
            ``policy_loss``) as floats.
        """
        cfg, s = self.cfg, self.support
        t = {k: torch.as_tensor(v) for k, v in batch.items()}
        k_steps = t["action"].shape[1]
        with torch.no_grad():
            boot = self.target_model.initial_inference(
                t["bootstrap_obs"].flatten(0, 1)
            ).value_logits
            boot_v = support_to_scalar(boot, s).view(t["bootstrap_coef"].shape)
            target_value = t["value_prefix"] + t["bootstrap_coef"] * boot_v
            value_support = scalar_to_support(target_value, s)
            reward_support = scalar_to_support(t["target_reward"], s)
        self.model.train()
        out = self.model.initial_inference(t["obs"])
        value_loss = _cross_entropy(out.value_logits, value_support[:, 0])
        policy_loss = (
            _cross_entropy(out.policy_logits, t["target_policy"][:, 0]) * t["policy_mask"][:, 0]
        )
        reward_loss = torch.zeros_like(value_loss)
        latent = out.latent_state
        for k in range(1, k_steps + 1):
            latent = 0.5 * latent + 0.5 * latent.detach()  # scale the gradient by 1/2 (App. G)
            o = self.model.recurrent_inference(latent, t["action"][:, k - 1])
            latent = o.latent_state
            w = 1.0 / k_steps
            value_loss = value_loss + w * _cross_entropy(o.value_logits, value_support[:, k])
            policy_loss = (
                policy_loss
                + w
                * _cross_entropy(o.policy_logits, t["target_policy"][:, k])
                * t["policy_mask"][:, k]
            )
            reward_loss = reward_loss + w * _cross_entropy(
                o.reward_logits, reward_support[:, k - 1]
            )
        total = (
            cfg.value_loss_weight * value_loss
            + cfg.reward_loss_weight * reward_loss
            + cfg.policy_loss_weight * policy_loss
        ).mean()
        self.optimizer.zero_grad()
        total.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.grad_clip_value)
        self.optimizer.step()
        self.train_iter += 1
        if self.train_iter % cfg.target_update_freq == 0:
            self.target_model.load_state_dict(self.model.state_dict())
        return {
            "total_loss": float(total.detach()),
            "value_loss": float(value_loss.detach().mean()),
            "reward_loss": float(reward_loss.detach().mean()),
            "policy_loss": float(policy_loss.detach().mean()),
        }

    # ------------------------------------------------------------------ checkpoints
    def state_dict(self) -> dict:
        """Model, target model, optimizer and iteration; loadable with ``weights_only=True``."""
        return {
            "model": self.model.state_dict(),
            "target_model": self.target_model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "train_iter": self.train_iter,
        }

    def load_state_dict(self, state: dict) -> None:
        """Restores :meth:`state_dict` output; a bare model state dict is accepted too."""
        if "model" not in state:
            self.model.load_state_dict(state)
            self.target_model.load_state_dict(state)
            return
        self.model.load_state_dict(state["model"])
        self.target_model.load_state_dict(state.get("target_model", state["model"]))
        if "optimizer" in state:
            self.optimizer.load_state_dict(state["optimizer"])
        self.train_iter = int(state.get("train_iter", 0))
