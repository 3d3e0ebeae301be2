"""MuZero policy: the networks, their training step, and batched search for acting.

The learner unrolls the model ``num_unroll_steps`` times from each sampled observation and
minimises cross-entropies against categorical value and reward targets and the search's
visit-count policy (Schrittwieser et al. 2020, Eq. 1 and App. G); the gradient into each
unrolled latent is halved, and unrolled steps weigh ``1 / num_unroll_steps``.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator

import numpy as np
import torch

from lzero.errors import ConfigError
from lzero.mcts.batched_search import BatchedSearch, root_legal
from lzero.mcts.latent_search import MuZeroMCTS, select_action
from lzero.model import MuZeroModel, MuZeroModelMLP
from lzero.model.frozen import FrozenCache, freeze
from lzero.policy.board_game import BoardGame
from lzero.policy.muzero_config import collect_epsilon, consistency_loss_on, policy_config
from lzero.policy.optim import make_optimizer, set_learning_rate
from lzero.policy.scaling_transform import scalar_to_support, support_to_scalar


def build_model(m: dict) -> torch.nn.Module:
    """The network of a compiled ``policy.model`` config: an MLP, or convolutions over planes."""
    consistency = {
        k: m[k]
        for k in ("self_supervised_learning_loss", "proj_hid", "proj_out", "pred_hid", "pred_out")
    }
    if m.model_type == "conv":
        return MuZeroModel(
            m.observation_shape,
            m.action_space_size,
            num_res_blocks=m.num_res_blocks,
            num_channels=m.num_channels,
            reward_head_channels=m.reward_head_channels,
            value_head_channels=m.value_head_channels,
            policy_head_channels=m.policy_head_channels,
            fc_reward_layers=m.fc_reward_layers,
            fc_value_layers=m.fc_value_layers,
            fc_policy_layers=m.fc_policy_layers,
            support_scale=m.support_scale,
            last_linear_layer_init_zero=m.last_linear_layer_init_zero,
            **consistency,
        )
    return MuZeroModelMLP(
        m.observation_shape,
        m.action_space_size,
        latent_state_dim=m.latent_state_dim,
        hidden_size=m.hidden_size,
        head_hidden_size=m.head_hidden_size,
        support_scale=m.support_scale,
        res_connection_in_dynamics=m.res_connection_in_dynamics,
        last_linear_layer_init_zero=m.last_linear_layer_init_zero,
        **consistency,
    )


class _InitialStep(torch.nn.Module):
    """``h`` then ``f`` as the search reads them: latent, scalar value, policy probabilities."""

    def __init__(self, model: torch.nn.Module, support: int) -> None:
        super().__init__()
        self.model, self.support = model, support

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        out = self.model.initial_inference(obs)
        value = support_to_scalar(out.value_logits, self.support)
        return out.latent_state, value, torch.softmax(out.policy_logits, -1)


class _RecurrentStep(torch.nn.Module):
    """``g`` then ``f`` as the search reads them: latent, scalar reward and value, policy."""

    def __init__(self, model: torch.nn.Module, support: int) -> None:
        super().__init__()
        self.model, self.support = model, support

    def forward(
        self, latent: torch.Tensor, action: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        o = self.model.recurrent_inference(latent, action)
        reward = support_to_scalar(o.reward_logits, self.support)
        value = support_to_scalar(o.value_logits, self.support)
        return o.latent_state, reward, value, torch.softmax(o.policy_logits, -1)


def _cross_entropy(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return -(target * torch.log_softmax(logits, dim=-1)).sum(-1)


def _negative_entropy(logits: torch.Tensor) -> torch.Tensor:
    """``sum p log p`` of the policy ``softmax(logits)`` `[B]` (LightZero's entropy loss)."""
    log_p = torch.log_softmax(logits, dim=-1)
    return (log_p.exp() * log_p).sum(-1)


class MuZeroPolicy:
    """MuZero learner and actor.

    Args:
        cfg: the policy config (see :func:`policy_config`).
        model: a prebuilt model; by default a :class:`MuZeroModelMLP` from ``cfg.model``.
        game: the board game (``lzero.policy.board_game.BoardGame``) whose observation planes
            the policy sees; needed, and used only, when ``cfg.mcts`` narrows the root's moves
            by the rules.

    Raises:
        ConfigError: a bad config, or ``cfg.mcts`` settings without a board game.
    """

    def __init__(
        self, cfg: dict, model: torch.nn.Module | None = None, *, game: BoardGame | None = None
    ) -> None:
        self.cfg = cfg = policy_config(cfg)
        self.game, self.root_search = game, None
        rules = cfg.mcts
        if rules.radius or rules.tactics or rules.threat_depth:
            if game is None:
                raise ConfigError(
                    "policy config.mcts: radius, tactics and threat_depth narrow a board "
                    "game's root moves by its rules; expected a board game (MuZeroPolicy(..., "
                    f"game=...)), got none with {dict(rules)}"
                )
            self.root_search = BatchedSearch(
                game.kernels, num_simulations=1, radius=rules.radius, tactics=rules.tactics,
                threat_depth=rules.threat_depth, three_depth=rules.three_depth,
            )  # fmt: skip
        torch.set_num_threads(cfg.torch_num_threads)
        self.model = model if model is not None else build_model(cfg.model)
        self.target_model = copy.deepcopy(self.model)
        self.optimizer = make_optimizer(self.model.parameters(), cfg)
        self.support = int(getattr(self.model, "support_scale", cfg.model.support_scale))
        self.train_iter = 0
        self._frozen = FrozenCache(self.model, self._freeze_steps)
        self.mcts = MuZeroMCTS(
            num_simulations=cfg.num_simulations,
            action_space_size=cfg.model.action_space_size,
            discount_factor=cfg.discount_factor,
            pb_c_base=cfg.pb_c_base,
            pb_c_init=cfg.pb_c_init,
            root_dirichlet_alpha=cfg.root_dirichlet_alpha,
            root_noise_weight=cfg.root_noise_weight,
            unvisited_value=cfg.unvisited_value,
            selection="gumbel" if cfg.gumbel_algo else "puct",
            max_num_considered_actions=cfg.max_num_considered_actions,
            maxvisit_init=cfg.maxvisit_init,
            value_scale=cfg.value_scale,
        )

    # ------------------------------------------------------------------ acting
    def temperature(self) -> float:
        """Visit-count temperature at the current training iteration."""
        if not self.cfg.manual_temperature_decay:
            return self.cfg.fixed_temperature_value
        frac = self.train_iter / self.cfg.threshold_training_steps_for_final_temperature
        return 1.0 if frac < 0.5 else 0.5 if frac < 0.75 else 0.25

    def collect_epsilon(self, env_step: int) -> float | None:
        """The epsilon of ``cfg.eps`` at ``env_step`` for :meth:`search`; None when it is off."""
        return collect_epsilon(self.cfg.eps, env_step)

    def inference_steps(self) -> tuple[torch.jit.ScriptModule, torch.jit.ScriptModule]:
        """The model's initial and recurrent steps as the search runs them: in eval mode,
        traced, frozen and optimised for inference (:mod:`lzero.model.frozen`), with the value
        and reward supports turned into scalars and the policy logits into probabilities
        inside the graph. Outputs equal the eager model's to about 1e-6. Rebuilt whenever a
        weight or buffer has changed in place since the last build, as AlphaZero's
        ``inference_model``.
        """
        return self._frozen.get()

    def _freeze_steps(self) -> tuple[torch.jit.ScriptModule, torch.jit.ScriptModule]:
        shape = self.cfg.model.observation_shape
        obs = torch.zeros((2, *shape) if isinstance(shape, (list, tuple)) else (2, shape))
        latent = self.model.initial_inference(obs).latent_state
        action = torch.zeros(2, dtype=torch.long)
        return (
            freeze(_InitialStep(self.model, self.support), obs),
            freeze(_RecurrentStep(self.model, self.support), (latent, action)),
        )

    @torch.no_grad()
    def search(
        self,
        obs: np.ndarray,
        action_mask: np.ndarray,
        *,
        rng: np.random.Generator | None,
        explore: bool,
        to_play: np.ndarray | None = None,
        epsilon: float | None = None,
        num_simulations: int | None = None,
        root_noise: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Searches from a batch of observations and picks actions.

        Args:
            obs: `[B, O]` observations.
            action_mask: `[B, A]` 1 where legal. With ``cfg.mcts`` rule settings, the root
                searches only the legal moves the rules keep (from the board of each
                observation's planes).
            to_play: `[B]` player to move, 1 or 2, for a two-player tree; -1 (or None) for a
                one-player task.
            rng: generator for root noise and action sampling (used when ``explore``).
            explore: add root noise and sample with the temperature; else act greedily.
            epsilon: with ``explore``, LightZero's epsilon-greedy collection instead of the
                temperature: the most visited action, or with probability ``epsilon`` a
                uniformly random legal one (see :meth:`collect_epsilon`).
            num_simulations: this search's simulations (a playout-capped fast search, from 1
                to ``cfg.num_simulations``); None: the config's.
            root_noise: with ``explore``, add the root noise (Dirichlet, or Gumbel MuZero's
                draws); False: explore by the temperature (or epsilon) only, as a fast search.

        Returns:
            `[B]` actions, `[B, A]` normalised visit counts (Gumbel MuZero: the improved
            policy), `[B]` root values. Gumbel MuZero plays the halving winner, under Gumbel
            noise when ``explore``, instead of sampling with the temperature.
        """
        if self.root_search is not None:
            boards, movers = self.game.boards_from_planes(obs)
            action_mask = np.asarray(action_mask) * self.root_search.root_moves(boards, movers)
        initial, recurrent = self.inference_steps()
        root_latent, root_value, root_policy = initial(torch.as_tensor(np.asarray(obs, np.float32)))
        batch = root_latent.shape[0]
        latents = root_latent.new_empty((self.cfg.num_simulations + 1, *root_latent.shape))
        latents[0] = root_latent
        rows = torch.arange(batch)

        def recurrent_fn(parent, action, new_node):
            latent, reward, value, policy = recurrent(
                latents[torch.from_numpy(parent).long(), rows], torch.from_numpy(action).long()
            )
            latents[new_node] = latent
            return reward.numpy(), value.numpy(), policy.numpy()

        gumbel = self.cfg.gumbel_algo
        noisy = explore and root_noise
        noise = self.mcts.root_noise(action_mask, rng) if noisy and not gumbel else None
        draws = None
        if noisy and gumbel and self.cfg.gumbel_scale > 0:
            draws = self.mcts.gumbel_noise(action_mask, rng, self.cfg.gumbel_scale)
        res = self.mcts.search(
            root_policy.numpy(),
            root_value.numpy(),
            action_mask,
            recurrent_fn,
            noise=noise,
            to_play=to_play,
            gumbel=draws,
            num_simulations=num_simulations,
        )
        greedy = not explore or epsilon is not None
        if gumbel:  # the halving winner; the Gumbel draws are its exploration
            actions = res.action.copy()
        else:
            actions = select_action(res.visit_counts, self.temperature(), rng, deterministic=greedy)
        if explore and epsilon is not None:
            for b in np.flatnonzero(rng.random(batch) < epsilon):
                actions[b] = rng.choice(np.flatnonzero(action_mask[b]))
        if gumbel:
            dist = res.improved_policy
        else:
            dist = res.visit_counts / res.visit_counts.sum(axis=1, keepdims=True)
        return actions, dist.astype(np.float32), res.root_value

    def reanalyze(self, batch: dict[str, np.ndarray], share: float, *, two_player: bool) -> int:
        """MuZero Reanalyze (Schrittwieser et al. 2021, "Online and Offline Reinforcement
        Learning by Planning with a Learned Model"), LightZero's ``reanalyze_ratio``: the
        policy targets of the first ``round(share * B)`` samples of ``batch`` (from
        :meth:`MuZeroGameBuffer.sample` with ``target_obs``), at every unroll step inside the
        episode, become those of a fresh greedy search (no noise) with the current network from
        the stored observation; a step a playout-capped fast search left without a target
        gets one too. In place; returns the number of positions searched.

        A board game's legal moves come from its rules on the observation's board (and, with
        ``two_player``, its mover the tree's); a gym task's are all its actions, as its
        wrapped env's mask is.
        """
        m = int(round(share * len(batch["obs"])))
        if m == 0:
            return 0
        if "target_obs" not in batch:
            raise ValueError(
                "expected a batch with target_obs and episode_mask for reanalysis (from "
                f"MuZeroGameBuffer(..., consistency_targets=True)), got keys {sorted(batch)}"
            )
        obs = np.concatenate([batch["obs"][:m, None], batch["target_obs"][:m]], axis=1)
        rows, steps = np.nonzero(batch["episode_mask"][:m] > 0)
        obs = obs[rows, steps]
        if self.game is not None:
            boards, movers = self.game.boards_from_planes(obs)
            kernels = self.game.kernels
            legal = root_legal(boards, movers, kernels.legal_actions, self.game.action_size)
            to_play = movers if two_player else None
        else:
            legal, to_play = np.ones((len(obs), self.cfg.model.action_space_size), bool), None
        _, dist, _ = self.search(obs, legal, rng=None, explore=False, to_play=to_play)
        batch["target_policy"][rows, steps] = dist
        batch["policy_mask"][rows, steps] = 1.0
        return len(obs)

    # ------------------------------------------------------------------ learning
    @contextlib.contextmanager
    def learning_threads(self) -> Iterator[None]:
        """Runs the block (a collect's updates) on ``learn_torch_num_threads`` torch threads,
        then goes back to ``torch_num_threads`` for the search."""
        n, base = self.cfg.learn_torch_num_threads, self.cfg.torch_num_threads
        if n is None or n == base:
            yield
            return
        torch.set_num_threads(n)
        try:
            yield
        finally:
            torch.set_num_threads(base)

    def learn(self, batch: dict[str, np.ndarray]) -> dict[str, float]:
        """One gradient step on a batch from :meth:`MuZeroGameBuffer.sample`.

        Returns:
            The step's losses (``total_loss``, ``value_loss``, ``reward_loss``,
            ``policy_loss``, and ``consistency_loss`` when it is on) as floats.
        """
        cfg, s = self.cfg, self.support
        with_consistency = consistency_loss_on(cfg)
        if with_consistency and "target_obs" not in batch:  # before anything runs
            raise ValueError(
                "expected a batch with target_obs for the consistency loss (from "
                f"MuZeroGameBuffer(..., consistency_targets=True)), got keys {sorted(batch)}"
            )
        t = {k: torch.as_tensor(v) for k, v in batch.items()}
        k_steps = t["action"].shape[1]
        with torch.no_grad():
            # The target network runs only on the observations whose value is bootstrapped:
            # a board game whose n-step horizon spans the game has none (its value target is
            # the outcome), and evaluating all B * (K + 1) of them took a third of a Connect4
            # update. Only those rows enter the batch-norm statistics of the target network
            # (kept in training mode, as LightZero keeps it).
            coef = t["bootstrap_coef"]
            boot_v = torch.zeros_like(coef)
            rows = coef.flatten().nonzero().squeeze(1)
            if rows.numel():
                obs = t["bootstrap_obs"].flatten(0, 1)[rows]
                boot = self.target_model.initial_inference(obs).value_logits
                boot_v.view(-1)[rows] = support_to_scalar(boot, s)
            target_value = t["value_prefix"] + coef * boot_v
            value_support = scalar_to_support(target_value, s)
            reward_support = scalar_to_support(t["target_reward"], s)
        target_policy = t["target_policy"]
        if cfg.policy_label_smoothing:  # LightZero's: towards uniform over every action
            eps = cfg.policy_label_smoothing
            target_policy = target_policy * (1.0 - eps) + eps / target_policy.shape[-1]
        self.model.train()
        out = self.model.initial_inference(t["obs"])
        value_loss = _cross_entropy(out.value_logits, value_support[:, 0])
        policy_loss = (
            _cross_entropy(out.policy_logits, target_policy[:, 0]) * t["policy_mask"][:, 0]
        )
        # LightZero's policy_entropy_weight: a bonus for the predicted policies' entropy
        with_entropy = cfg.policy_entropy_weight > 0
        if with_entropy:
            entropy_loss = _negative_entropy(out.policy_logits) * t["policy_mask"][:, 0]
        reward_loss = torch.zeros_like(value_loss)
        latent = out.latent_state
        unrolled = []
        for k in range(1, k_steps + 1):
            latent = 0.5 * latent + 0.5 * latent.detach()  # scale the gradient by 1/2 (App. G)
            o = self.model.recurrent_inference(latent, t["action"][:, k - 1])
            latent = o.latent_state
            unrolled.append(latent)
            w = 1.0 / k_steps
            value_loss = value_loss + w * _cross_entropy(o.value_logits, value_support[:, k])
            policy_loss = (
                policy_loss
                + w * _cross_entropy(o.policy_logits, target_policy[:, k]) * t["policy_mask"][:, k]
            )
            if with_entropy:
                entropy_loss = (
                    entropy_loss + w * _negative_entropy(o.policy_logits) * t["policy_mask"][:, k]
                )
            reward_loss = reward_loss + w * _cross_entropy(
                o.reward_logits, reward_support[:, k - 1]
            )
        total = (
            cfg.value_loss_weight * value_loss
            + cfg.reward_loss_weight * reward_loss
            + cfg.policy_loss_weight * policy_loss
        )
        if with_entropy:
            total = total + cfg.policy_entropy_weight * entropy_loss
        consistency = None
        if with_consistency:
            mask = t.get("episode_mask", t["policy_mask"])  # fast-search steps count here
            consistency = self._consistency_loss(unrolled, t["target_obs"], mask)
            total = total + cfg.ssl_loss_weight * consistency
        total = total.mean()
        set_learning_rate(self.optimizer, cfg, self.train_iter)
        self.optimizer.zero_grad()
        total.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), cfg.grad_clip_value)
        self.optimizer.step()
        self.train_iter += 1
        if self.train_iter % cfg.target_update_freq == 0:
            self.target_model.load_state_dict(self.model.state_dict())
        losses = {
            "total_loss": float(total.detach()),
            "value_loss": float(value_loss.detach().mean()),
            "reward_loss": float(reward_loss.detach().mean()),
            "policy_loss": float(policy_loss.detach().mean()),
        }
        if consistency is not None:
            losses["consistency_loss"] = float(consistency.detach().mean())
        return losses

    def _consistency_loss(
        self, unrolled: list[torch.Tensor], target_obs: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """EfficientZero's consistency loss (Ye et al. 2021), as LightZero computes it: for
        each unrolled step ``k``, the negative cosine similarity between the prediction head's
        output on the dynamics' latent and the (detached) projection of the representation of
        the observation at ``t + k``, masked past the episode's end and weighted ``1 / K`` as
        the other unrolled losses.

        Args:
            unrolled: ``K`` latents `[B, ...]` of the unroll.
            target_obs: `[B, K, O]` observations at ``t + 1 .. t + K``.
            mask: `[B, K + 1]` the policy mask (1 where step ``t + k`` is in the episode).

        Returns:
            `[B]` the loss per sample.
        """
        k_steps = len(unrolled)
        with torch.no_grad():  # the target branch: no gradient, as LightZero's detach
            target = self.model.initial_inference(target_obs.flatten(0, 1)).latent_state
            target = self.model.project(target, with_grad=False)
        predicted = self.model.project(torch.stack(unrolled, 1).flatten(0, 1), with_grad=True)
        cos = torch.nn.functional.cosine_similarity(predicted, target, dim=-1, eps=1e-12)
        return -(cos.view(-1, k_steps) * mask[:, 1:]).sum(1) / k_steps

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
