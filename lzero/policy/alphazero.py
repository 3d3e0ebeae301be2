"""``AlphaZeroPolicy``: the network, its training step, and the network as the search's evaluator.

Training follows AlphaZero (Silver et al. 2018): the loss of a position with search policy
``pi`` and game outcome ``z`` (for the player to move) is ``(z - v)^2 * value_weight -
pi . log p`` (minus ``entropy_weight`` times the entropy of ``p``), plus weight decay. With
``root_value_target_weight`` w (ours) the target ``z`` becomes ``(1 - w) z + w q``, ``q`` the
value the search found at that position's root (the collector mixes it in). With ``ema_decay``
(ours) the policy also keeps an exponential moving average of the network's weights, which
plays outside self-play (evaluation, checkpoints' agents); self-play and training use the
network itself.
"""

from __future__ import annotations

import contextlib
import copy
import math
import time
from collections.abc import Callable, Iterator, Mapping

import numpy as np
import torch
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic
from torch.nn import functional as F

from lzero.mcts.batched_search import BatchedSearch
from lzero.model.alphazero_model import AlphaZeroModel
from lzero.model.eval_cache import EvaluationCache
from lzero.model.frozen import FrozenCache, freeze, inference_dtype
from lzero.model.line_features import input_writer, num_planes, with_line_planes
from lzero.policy.alphazero_config import ALPHAZERO_POLICY_CONFIG
from lzero.policy.board_game import BoardGame
from lzero.policy.optim import make_optimizer, set_learning_rate

NN_CACHE_SIZE = ALPHAZERO_POLICY_CONFIG["nn_cache_size"]  # for checkpoints older than the key


@intrinsic
def _float32_from_bits(typingctx, bits):
    """The float32 whose IEEE bits are the int32 ``bits`` (a bit cast, which numba's scalars
    lack)."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.FloatType())

    return types.float32(types.int32), codegen


_LOG2E = np.float32(1.4426950408889634)
_LN2_HI, _LN2_LO = np.float32(0.693359375), np.float32(-2.12194440e-4)  # ln 2 = hi + lo
_ROUND = np.float32(12582912.0)  # 1.5 * 2**23: adding and subtracting it rounds a float32
_EXP_MIN = np.float32(-87.33654)  # below, e^x is not a normal float32


@njit(cache=True, inline="always")
def _exp_nonpositive(x):
    """``e^x`` of a float32 ``x <= 0`` (NaN stays NaN) in float32, within one unit in the
    last place: Cephes' ``expf`` (``e^x = 2^n e^r``, ``|r| <= ln 2 / 2``, a degree-7 polynomial
    for ``e^r``) in branch-free arithmetic that LLVM vectorizes, where numba calls libm's
    ``expf`` once per element. Below ``_EXP_MIN`` it gives ``e^_EXP_MIN`` (about 1.2e-38), not
    a subnormal."""
    x = x if not x < _EXP_MIN else _EXP_MIN
    n = (x * _LOG2E + _ROUND) - _ROUND
    r = x - n * _LN2_HI - n * _LN2_LO
    p = np.float32(1.9875691500e-4) * r + np.float32(1.3981999507e-3)
    p = p * r + np.float32(8.3334519073e-3)
    p = p * r + np.float32(4.1665795894e-2)
    p = p * r + np.float32(1.6666665459e-1)
    p = p * r + np.float32(5.0000001201e-1)
    p = p * (r * r) + r + np.float32(1.0)
    # 2^n from its exponent bits, n kept in [-126, 0] so that the conversion is defined for
    # any x (NaN, or an illegal move's x > 0 whose result is discarded); NaN stays NaN via p
    n = n if n > np.float32(-126.0) else np.float32(-126.0)
    n = n if n < np.float32(0.0) else np.float32(0.0)
    return p * _float32_from_bits(np.int32(np.int32(n) + 127) << 23)


@njit(cache=True)
def _priors_and_values(table, legal, priors, values, draws):
    a = priors.shape[1]
    for i in range(table.shape[0]):
        logits, moves, row = table[i], legal[i], priors[i]
        best = -math.inf
        for j in range(a):
            if moves[j] and logits[j] > best:
                best = logits[j]
        shift = np.float32(best)
        for j in range(a):  # exp in float32 (as torch's softmax of float32 logits), vectorized
            e = _exp_nonpositive(logits[j] - shift)
            row[j] = e if moves[j] else np.float32(0.0)
        total = 0.0
        for j in range(a):  # summed in float64
            total += row[j]
        for j in range(a):
            row[j] = row[j] / total if best > -math.inf else math.nan
        values[i] = table[i, a]
        if draws.shape[0]:
            draws[i] = 1.0 / (1.0 + math.exp(-np.float64(table[i, a + 1])))


_NO_DRAWS = np.empty(0, np.float64)  # the kernel's draws without a draw head


def priors_and_values(table: np.ndarray, legal: np.ndarray, action_size: int) -> tuple:
    """The evaluator's outputs from the network's raw outputs ``table`` `[B, A + 1]` (logits,
    value) or `[B, A + 2]` (and the draw logit), in one numba pass: the softmax of the logits
    over the ``legal`` `[B, A]` moves (0 elsewhere; NaN in a row without a legal move, as a
    masked torch softmax gives) `[B, A]` float32, the values `[B]` float64, and with the draw
    logit the draw probabilities `[B]` float64."""
    table = np.ascontiguousarray(table, np.float32)
    legal = np.ascontiguousarray(legal, np.bool_)
    n = table.shape[0]
    if table.ndim != 2 or table.shape[1] not in (action_size + 1, action_size + 2):
        raise ValueError(
            f"expected outputs [B, {action_size + 1}] or [B, {action_size + 2}], got {table.shape}"
        )
    if legal.shape != (n, action_size):
        raise ValueError(f"expected legal moves of shape ({n}, {action_size}), got {legal.shape}")
    with_draw = table.shape[1] == action_size + 2
    priors, values = np.empty((n, action_size), np.float32), np.empty(n, np.float64)
    draws = np.empty(n, np.float64) if with_draw else _NO_DRAWS
    _priors_and_values(table, legal, priors, values, draws)
    return (priors, values, draws) if with_draw else (priors, values)


class AlphaZeroPolicy:
    """The AlphaZero learner and actor of one board game.

    Args:
        cfg: the compiled policy config (``alphazero_config.ALPHAZERO_POLICY_CONFIG``).
        game: the game.
        seed: seed of the search's root noise (torch is seeded by the caller).
    """

    def __init__(self, cfg: Mapping, game: BoardGame, *, seed: int = 0) -> None:
        self.cfg, self.game = cfg, game
        m = cfg.model
        self.line_features = int(m.get("line_features", 0))  # .get: older checkpoints
        self.line_directions = bool(m.get("line_directions", False))  # .get: older checkpoints
        self._write_input = input_writer(
            (game.height, game.width), scale=game.scale, k=self.line_features,
            directions=self.line_directions,
        )  # fmt: skip
        self.model = AlphaZeroModel(
            observation_shape=tuple(m.observation_shape),
            action_space_size=m.action_space_size,
            num_res_blocks=m.num_res_blocks,
            num_channels=m.num_channels,
            value_head_hidden_channels=m.value_head_hidden_channels,
            policy_head_hidden_channels=m.get("policy_head_hidden_channels", []),  # .get: older
            line_features=self.line_features,
            draw_head=bool(m.get("draw_head", False)),  # .get: older checkpoints
            line_directions=self.line_directions,
        )
        self.optimizer = make_optimizer(self.model.parameters(), cfg)
        self.train_iter = 0
        self._snapshot_iter: int | None = None  # the iteration self-play sees in snapshot()
        self.forward_seconds = 0.0  # time spent in the network's forward pass while searching
        c, h, w = cfg.model.observation_shape
        extra = num_planes(self.line_directions) if self.line_features else 0
        example = torch.zeros((2, c + extra, h, w))
        # .get: older checkpoints
        self.inference_dtype = inference_dtype(cfg.get("inference_dtype", "float32"))
        dtype = self.inference_dtype
        self._frozen = FrozenCache(self.model, lambda: freeze(self.model, example, dtype))
        # resolved at the first step: a policy that only plays (a checkpoint's agent) never
        # needs its training dtype, which another CPU may not run
        self._learn_dtype: torch.dtype | None = None
        self.ema_decay = float(cfg.get("ema_decay", 0.0))  # .get: older checkpoints
        self.ema_model: AlphaZeroModel | None = None  # the weights' moving average, if on
        self._frozen_ema = None
        if self.ema_decay > 0:
            ema = self.ema_model = copy.deepcopy(self.model).requires_grad_(False)
            self._frozen_ema = FrozenCache(ema, lambda: freeze(ema, example, dtype))
        # ours: the network's outputs by position, one cache per evaluated network
        size = int(cfg.get("nn_cache_size", NN_CACHE_SIZE))  # .get: older checkpoints
        width = m.action_space_size + (2 if self.model.draw_head else 1)
        self._eval_caches: dict[FrozenCache, EvaluationCache] = {}
        if size > 0:
            for frozen in (self._frozen, self._frozen_ema):
                if frozen is not None:
                    self._eval_caches[frozen] = EvaluationCache(
                        size, width, game.height * game.width
                    )
        mc = cfg.mcts
        # .get: checkpoints written before Gumbel AlphaZero have neither type nor keys
        self.gumbel = cfg.get("type", "alphazero") == "gumbel_alphazero"
        gumbel = {
            key: mc.get(key, default)
            for key, default in (
                ("max_num_considered_actions", 16), ("gumbel_scale", 1.0),
                ("maxvisit_init", 50.0), ("value_scale", 0.1),
            )
        }  # fmt: skip
        self.search = BatchedSearch(
            game.kernels,
            num_simulations=mc.num_simulations,
            selection="gumbel" if self.gumbel else "puct",
            **gumbel,
            pb_c_base=float(mc.pb_c_base),
            pb_c_init=float(mc.pb_c_init),
            root_dirichlet_alpha=float(mc.root_dirichlet_alpha),
            root_noise_weight=float(mc.root_noise_weight),
            # .get: checkpoints written before these keys have neither
            radius=int(mc.get("radius", 0)),
            tactics=bool(mc.get("tactics", False)),
            tree_tactics=bool(mc.get("tactics", False)),
            threat_depth=int(mc.get("threat_depth", 0)),
            three_depth=int(mc.get("three_depth", 0)),
            seed=seed,
        )

    # -- acting -----------------------------------------------------------------------------

    def evaluate(self, boards: np.ndarray, to_play: np.ndarray, legal: np.ndarray):
        """The search's evaluator (``lzero.mcts.batched_search.BatchEvaluator``): priors over
        the legal moves `[B, A]` and values `[B]` for the player to move, by the network; with
        ``model.draw_head``, also the probabilities `[B]` of the game ending drawn."""
        return self._evaluate(self._frozen, boards, to_play, legal)

    def evaluator(self, averaged: bool = True) -> Callable:
        """The evaluator of play outside self-play: with ``averaged`` and ``ema_decay`` on,
        that of the weights' moving average; else :meth:`evaluate`, the network's."""
        if averaged and self._frozen_ema is not None:
            frozen = self._frozen_ema
            return lambda boards, to_play, legal: self._evaluate(frozen, boards, to_play, legal)
        return self.evaluate

    @contextlib.contextmanager
    def pinned(self) -> Iterator[None]:
        """A block of many evaluations, such as a search: the evaluators use the weights of
        its start without checking them at every call (``FrozenCache.pinned``), in torch's
        inference mode, entered once. In a 9x9 Gomoku collect those two took about 0.1 ms of
        every evaluation, 7% of the time outside the forward pass (py-spy).

        Raises:
            RuntimeError: at its end, if the model's weights changed inside it.
        """
        with contextlib.ExitStack() as stack:
            stack.enter_context(torch.inference_mode())
            for frozen in (self._frozen, self._frozen_ema):
                if frozen is not None:
                    stack.enter_context(frozen.pinned())
            yield

    def _evaluate(self, frozen: FrozenCache, boards, to_play, legal):
        if not torch.is_inference_mode_enabled():  # outside pinned(): entered per call
            with torch.inference_mode():
                return self._evaluate(frozen, boards, to_play, legal)
        net, to_play = frozen.get(), np.ascontiguousarray(to_play, np.int64).reshape(-1)
        boards = np.ascontiguousarray(boards, np.int8)

        def forward(rows: np.ndarray | None) -> np.ndarray:  # [m, A + 1 (+ 1)] raw outputs
            x = self._write_input(boards, to_play, np.arange(len(boards)) if rows is None else rows)
            x = torch.from_numpy(x)
            start = time.perf_counter()
            out = torch.cat(net(x), dim=1).numpy()
            self.forward_seconds += time.perf_counter() - start
            return out

        cache = self._eval_caches.get(frozen)
        if cache is None:
            table = forward(None)
        else:
            table = cache.outputs(net, boards, to_play, forward)
        return priors_and_values(table, legal, self.model.action_space_size)

    @property
    def nn_cache(self) -> EvaluationCache | None:
        """The evaluation cache of the network's evaluator (:meth:`evaluate`; its ``hits``
        and ``lookups`` count the positions answered from it and asked for), or None when
        ``nn_cache_size`` is 0."""
        return self._eval_caches.get(self._frozen)

    def clear_nn_caches(self) -> None:
        """Empties the evaluation caches. Self-play starts each collect phase with them empty:
        a position the evaluation before it cached would otherwise come from a batch of
        another size (equal to about 1e-7, not bit for bit), which a resumed run, whose
        evaluation was before its stop, would not have."""
        for cache in self._eval_caches.values():
            cache.clear()

    def model_input(self, planes: np.ndarray) -> np.ndarray:
        """The network's input for board planes `[B, 3, H, W]`: the planes, followed by their
        window-count planes with ``model.line_features`` (ours)."""
        if self.line_features:
            return with_line_planes(planes, self.line_features, self.line_directions)
        return np.ascontiguousarray(planes, np.float32)

    def inference_model(self) -> torch.jit.ScriptModule:
        """The model as :meth:`evaluate` runs it: in eval mode, traced, frozen and optimised
        for inference (:mod:`lzero.model.frozen`). That makes a forward pass of 64 positions
        1.8-2.5x faster than the eager model on the zoo's Connect4 and 9x9 Gomoku networks (1
        or 2 torch threads), with outputs equal to 1e-6. It is rebuilt (about 0.1 s) whenever
        a weight or buffer has changed in place since the last build.
        """
        return self._frozen.get()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """A block in which self-play sees the network and the training iteration of its start
        (the evaluators, the temperature) while a learner thread trains on
        (``overlap_learning``): what it plays does not depend on how far the learner got."""
        self._snapshot_iter = self.train_iter
        with contextlib.ExitStack() as stack:
            for frozen in (self._frozen, self._frozen_ema):
                if frozen is not None:
                    stack.enter_context(frozen.held())
            try:
                yield
            finally:
                self._snapshot_iter = None

    def temperature(self) -> float:
        """The visit-count temperature of self-play at the current training iteration (in a
        :meth:`snapshot`, at its start's)."""
        if not self.cfg.manual_temperature_decay:
            return float(self.cfg.fixed_temperature_value)
        final = self.cfg.threshold_training_steps_for_final_temperature
        it = self.train_iter if self._snapshot_iter is None else self._snapshot_iter
        if it < 0.5 * final:
            return 1.0
        return 0.5 if it < 0.75 * final else 0.25

    # -- learning ---------------------------------------------------------------------------

    def learn(
        self,
        planes: np.ndarray,
        policy: np.ndarray,
        value: np.ndarray,
        draw: np.ndarray | None = None,
    ) -> dict[str, float]:
        """One gradient step on a batch: planes `[B, 3, H, W]`, search policies `[B, A]` and
        outcomes `[B]` for the player to move; with ``model.draw_head``, also whether each
        game ended drawn, ``draw`` `[B]` (0 or 1), learnt by a logistic loss weighted like the
        value's. With ``learn_dtype`` 'bfloat16' the model's passes run under torch's CPU
        autocast; the losses are taken in float32. Returns the losses before the step.

        Raises:
            ValueError: ``draw`` missing with ``model.draw_head``; or, at the first call,
                ``learn_dtype`` not one of 'float32', 'bfloat16', 'auto', or 'bfloat16' on a
                CPU without native bfloat16 (a policy built from a checked config never has
                either).
        """
        self.model.train()
        set_learning_rate(self.optimizer, self.cfg, self.train_iter)
        x = torch.from_numpy(self.model_input(planes))
        target_pi = torch.from_numpy(np.ascontiguousarray(policy, np.float32))
        target_z = torch.from_numpy(np.ascontiguousarray(value, np.float32))
        if self.model.draw_head and draw is None:
            raise ValueError(
                "expected the batch's draw flags (model.draw_head is on), got draw=None"
            )
        if self._learn_dtype is None:  # .get: checkpoints written before the key
            self._learn_dtype = inference_dtype(
                self.cfg.get("learn_dtype", "float32"), "learn_dtype"
            )
        low = self._learn_dtype != torch.float32
        with torch.autocast("cpu", dtype=self._learn_dtype, enabled=low):
            out = self.model(x)
        out = [o.float() for o in out]  # the losses in float32
        logits, v = out[0], out[1]
        log_p = F.log_softmax(logits, dim=-1)
        policy_loss = -(target_pi * log_p).sum(dim=1).mean()
        value_loss = F.mse_loss(v[:, 0], target_z)
        draw_loss = None
        if self.model.draw_head:
            target_d = torch.from_numpy(np.ascontiguousarray(draw, np.float32))
            draw_loss = F.binary_cross_entropy_with_logits(out[2][:, 0], target_d)
        entropy = -(log_p.exp() * log_p).sum(dim=1).mean()
        total = self.cfg.value_weight * value_loss + policy_loss - self.cfg.entropy_weight * entropy
        if draw_loss is not None:
            total = total + self.cfg.value_weight * draw_loss
        self.optimizer.zero_grad()
        total.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.grad_clip_value)
        self.optimizer.step()
        self.train_iter += 1
        if self.ema_model is not None:
            self._update_ema()
        losses = {
            "total_loss": total.item(),
            "policy_loss": policy_loss.item(),
            "value_loss": value_loss.item(),
            "policy_entropy": entropy.item(),
        }
        if draw_loss is not None:
            losses["draw_loss"] = draw_loss.item()
        return losses

    @torch.no_grad()
    def _update_ema(self) -> None:
        """Moves the average towards the network: ``e <- d e + (1 - d) w`` for every weight and
        batch-norm statistic, ``d = min(ema_decay, (1 + n) / (10 + n))`` after ``n`` gradient
        steps (TensorFlow's ``ExponentialMovingAverage`` warm-up: early weights fade fast)."""
        n = self.train_iter
        d = min(self.ema_decay, (1 + n) / (10 + n))
        ours = self.model.state_dict()
        for key, e in self.ema_model.state_dict().items():
            if e.dtype.is_floating_point:
                e.lerp_(ours[key], 1 - d)
            else:  # batch norm's step counter
                e.copy_(ours[key])

    # -- checkpoints ------------------------------------------------------------------------

    def state_dict(self) -> dict:
        state = {
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "train_iter": self.train_iter,
        }
        if self.ema_model is not None:
            state["ema_model"] = self.ema_model.state_dict()
        return state

    def load_state_dict(self, state: Mapping) -> None:
        """Loads a checkpoint's dict (or just ``{"model": ...}``); without ``ema_model`` in it,
        the moving average, if on, starts from the loaded network."""
        self.model.load_state_dict(state["model"])
        if self.ema_model is not None:
            self.ema_model.load_state_dict(state.get("ema_model", state["model"]))
        if "optimizer" in state:
            self.optimizer.load_state_dict(state["optimizer"])
        self.train_iter = int(state.get("train_iter", 0))
