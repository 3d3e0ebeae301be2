"""``train_muzero_with_gym_env`` (also ``train_muzero``, LightZero's name for board games):
train MuZero on a gym task wrapped by ``LightZeroEnvWrapper``, or on a board game.

``create_config.env.type`` decides: a registered board game (TicTacToe, Connect4, Gomoku) is
built from the registry with ``main_config.env`` as its config, self-play in ``self_play_mode``
(a two-player tree) or against the env's bot; evaluation then plays the env's bots and logs
win/draw/loss per bot. Another registered type (a gym task's class, or a custom ``BaseEnv``)
is built the same way, as LightZero's ``train_muzero`` builds it; without a type,
``main_config.env.env_id`` names the gym task, wrapped.

The loop alternates (as LightZero's ``train_muzero``): evaluate every ``eval_freq`` training
iterations (greedy search, ``n_evaluator_episode`` episodes; a new best is saved as
``ckpt/ckpt_best.pth.tar``), collect ``n_episode`` episodes with exploratory search into the
replay buffer, then take ``update_per_collect`` gradient steps (or ``replay_ratio`` steps per
collected env step). It stops at ``stop_value``, ``max_env_step``, ``max_train_iter`` or
``max_time_s``.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import torch

from lzero.entry.config import compile_config, episode_replay_dir
from lzero.entry.muzero_setup import (
    apply_checkpoint,
    board_symmetries,
    check_budgets,
    check_env_config,
    check_seed,
    is_board,
    load_checkpoint,
    make_env_manager,
    make_muzero_collector,
    make_policy,
    observation_size,
    read_checkpoint,
    run_seed,
    save_checkpoint,
    seed_everything,
)
from lzero.entry.train_log import COLUMNS, Progress, TrainLog, check_fresh_exp, last_checkpoint
from lzero.errors import ConfigError
from lzero.mcts.buffer import MuZeroGameBuffer
from lzero.policy import MuZeroPolicy
from lzero.policy.muzero_config import consistency_loss_on
from lzero.utils.checkpoint_file import check_checkpoint_exists
from lzero.utils.run_state import (
    MID_ITERATION,
    RUN_STATE_FORMAT,
    check_run_state_format,
    global_rng_state,
    pack,
    set_global_rng_state,
    unpack,
)
from lzero.utils.signals import stopping_at_safe_points
from lzero.worker import MuZeroEvaluator
from lzero.worker.muzero_board_evaluator import MuZeroBoardEvaluator


def train_muzero_with_gym_env(
    input_cfg: Sequence[Mapping],
    seed: int | None = None,
    model: torch.nn.Module | None = None,
    model_path: str | None = None,
    max_train_iter: int = int(1e10),
    max_env_step: int = int(1e10),
    resume: str | Path | None = None,
    max_time_s: float | None = None,
) -> MuZeroPolicy:
    """Trains MuZero on the board game or gym task of the config (see the module docstring).

    Args:
        input_cfg: ``[main_config, create_config]`` in LightZero's shape.
        seed: seed of envs, networks, search noise and replay sampling (default 0; a resumed
            run keeps its own, and another one is refused).
        model: a prebuilt model to train instead of the configured MLP.
        model_path: a checkpoint to start from (None: the config's ``policy.model_path``,
            LightZero's key; None there too: from scratch).
        max_train_iter: stop after this many gradient steps.
        max_env_step: stop after this many collected env steps (a resumed run's included).
        resume: an experiment directory to continue from its ``ckpt/ckpt_last.pth.tar``:
            its networks, optimizer and counters and, where the run stopped between
            iterations, its run state (the replay buffer, the episodes in flight and their
            envs, every random stream), as if it had not stopped; the outputs stay there and
            ``progress.csv`` is appended to. The envs are unpickled from it: resume your own
            runs only. Ray's self-play actors' envs are not saved (their episodes start
            again), nor envs that do not pickle (Box2D's).
        max_time_s: wall-clock budget in seconds, checked between collect phases (a resumed
            run's time included), as ``train_alphazero`` has it.

    Returns:
        The trained policy. Checkpoints go to ``<exp_name>/ckpt/``, the log to
        ``<exp_name>/progress.csv`` and ``<exp_name>/learning_curve.png``.

    Raises:
        ConfigError: unknown or contradictory config keys, spaces that do not match, a
            checkpoint of another kind or env, or a seed other than the resumed run's.
    """
    if seed is not None:
        check_seed(seed)
    check_budgets(max_env_step, max_train_iter, max_time_s)
    cfg = compile_config(input_cfg)
    if model_path is None:
        model_path = cfg.policy.model_path  # LightZero's config key; None: from scratch
    if model_path is not None:  # before check_env_config builds an env
        check_checkpoint_exists(model_path, "a MuZero checkpoint (model_path)")
    check_env_config(cfg)
    replay = None if is_board(cfg) else episode_replay_dir(cfg)
    if replay:
        warnings.warn(
            f"main_config.env.{replay[0]}={replay[1]!r}: a training run records no episodes "
            "(the evaluation entries, eval_muzero and lzero eval, save every evaluation "
            "episode there)",
            UserWarning,
            stacklevel=2,
        )
    exp = Path(cfg.exp_name if resume is None else resume)
    last_path, last = None, None
    if resume is None:
        check_fresh_exp(exp)
    else:
        last_path = last_checkpoint(exp)
        last = read_checkpoint(last_path, cfg, "resume")
        cfg.exp_name = str(exp)  # config.json records where the run is
    seed = run_seed(seed, None if last is None else last.get("seed"))
    seed_everything(seed)
    policy = make_policy(cfg, model)
    if model_path is not None:
        load_checkpoint(policy, model_path, cfg)
    resumed = None if last is None else resume_state(policy, last_path, last)
    try:
        (exp / "ckpt").mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(
            f"exp_name: expected a directory it can create, got {str(exp)!r} ({err.strerror})"
        ) from err
    collector = make_collector(cfg, policy, seed)
    evaluator_env = None
    try:
        if is_board(cfg):
            evaluator = MuZeroBoardEvaluator(
                policy, cfg.create_env, cfg.env, bots=cfg.policy.eval_bots, seed=seed + 1000
            )
        else:
            evaluator_env = make_env_manager(cfg, cfg.env.evaluator_env_num, is_train=False)
            evaluator_env.seed(seed + 1000, dynamic_seed=True)
            evaluator_env.launch()
            evaluator = MuZeroEvaluator(evaluator_env, policy)
        limits = (max_train_iter, max_env_step, max_time_s)
        return _train_loop(cfg, policy, collector, evaluator, exp, seed, limits, resumed)
    finally:
        collector.close()
        if evaluator_env is not None:
            evaluator_env.close()


def make_collector(cfg, policy: MuZeroPolicy, seed: int):
    """The collector of a compiled config: self-play in Ray actors
    (``main_config.env.manager.self_play_actors``), else a :class:`MuZeroCollector` over a
    launched env manager in this process. ``close()`` ends either."""
    if cfg.env.manager.get("self_play_actors"):
        from lzero.worker.ray_muzero_collector import RayMuZeroCollector

        return RayMuZeroCollector(policy, cfg, seed)
    manager = make_env_manager(cfg, cfg.env.collector_env_num, is_train=True)
    manager.seed(seed)
    manager.launch()
    return make_muzero_collector(cfg, manager, policy, seed)


def resume_state(policy: MuZeroPolicy, path: Path, state: dict) -> dict:
    """Loads ``state``, the checkpoint read from ``path`` (a run's ``ckpt_last``), into
    ``policy``; returns the run's counters (``env_step``, ``best``, ``wall_time``).

    Raises:
        ConfigError: a checkpoint that does not fit the configured model.
    """
    apply_checkpoint(policy, state, path, "resume")
    return {
        "env_step": int(state.get("env_step", 0)),
        "best": float(state.get("best_eval_return", -np.inf)),
        "wall_time": float(state.get("wall_time", 0.0)),
        # the train_iter of its last logged evaluation (-1: none; absent in older checkpoints,
        # whose resume evaluates first)
        "last_eval": None if state.get("last_eval", -1) < 0 else int(state["last_eval"]),
        "run_state": state.get("run_state"),  # None: mid-iteration, or older checkpoints
    }


def _restore_run_state(packed, buffer, collector, evaluator, row: dict, where: Path) -> tuple:
    """Puts a checkpoint's run state back (buffer, episodes in flight, envs, every random
    stream; the pending progress row into ``row``); returns its ``last_eval``,
    ``logged_eval`` and ``last_ckpt``.

    Raises:
        ConfigError: a run state of another format, or one that does not fit the config.
    """
    check_run_state_format(packed, where)
    state = unpack(packed)
    try:
        buffer.load_state_dict(state["buffer"])
        if "collector" in state and hasattr(collector, "load_state_dict"):
            collector.load_state_dict(state["collector"])
        if "evaluator" in state and hasattr(getattr(evaluator, "env", None), "load_state_dict"):
            evaluator.env.load_state_dict(state["evaluator"])
    except ValueError as err:
        raise ConfigError(f"resume: {where} does not fit the config: {err}") from err
    set_global_rng_state(state["global"])
    row.update(state["row"])
    return state["last_eval"], state["logged_eval"], int(state["last_ckpt"])


def _train_loop(cfg, policy, collector, evaluator, exp, seed, limits, resumed):
    max_train_iter, max_env_step, max_time_s = limits
    pc = cfg.policy
    with_consistency = consistency_loss_on(pc)
    buffer = MuZeroGameBuffer(
        replay_buffer_size=pc.replay_buffer_size,
        segment_length=pc.game_segment_length,
        num_unroll_steps=pc.num_unroll_steps,
        td_steps=pc.td_steps,
        discount_factor=pc.discount_factor,
        observation_shape=observation_size(cfg),
        action_space_size=pc.model.action_space_size,
        seed=seed,
        symmetries=board_symmetries(policy),
        consistency_targets=with_consistency or pc.reanalyze_ratio > 0,  # reanalysis: too
    )
    reanalysis = pc.reanalyze_ratio > 0
    two_player = is_board(cfg) and cfg.env.get("battle_mode") == "self_play_mode"
    bots = list(getattr(evaluator, "bots", ()))
    log = TrainLog(
        exp,
        COLUMNS
        + (("consistency_loss",) if with_consistency else ())
        + (("reanalyze_s",) if reanalysis else ())
        + tuple(f"{b}_{k}" for b in bots for k in ("win", "draw", "loss")),
        curves=(("eval_return_mean", "mean eval return"),)
        + tuple((f"{b}_win", f"win rate vs {b}") for b in bots),
        append=resumed is not None,
        resumed_at=None if resumed is None else (policy.train_iter, resumed["env_step"]),
        title=f"MuZero on {cfg.env.get('env_id') or cfg.create_env.type}, seed {seed}",
        stop_value=cfg.env.stop_value,
    )
    log.save_config(cfg)
    best, last_eval, last_ckpt = -np.inf, None, policy.train_iter
    logged_eval = None  # the last evaluation whose row is written
    start = time.time()
    if resumed is not None:
        collector.env_steps, best = resumed["env_step"], resumed["best"]
        start -= resumed["wall_time"]
        last_eval = logged_eval = resumed.get("last_eval")  # in the CSV: not again
    progress = Progress(max_env_step)
    ckpt = exp / "ckpt"
    row: dict = {}
    saved = resumed.get("run_state") if resumed is not None else None
    if saved is not None:
        last_eval, logged_eval, last_ckpt = _restore_run_state(
            saved, buffer, collector, evaluator, row, ckpt / "ckpt_last.pth.tar"
        )
    elif resumed is not None:
        progress.line(
            "resuming without a run state (a checkpoint written mid-iteration or before run "
            "states): the replay buffer refills from new self-play and the random streams "
            "start again from the seed"
        )
    whole = True  # between iterations: the run state can be saved as it is
    unsaved: list[str] = []  # what a run state leaves out (said once)

    def run_state() -> dict:
        envs = {}
        for name, part in (
            ("collector", collector),
            ("evaluator", getattr(evaluator, "env", None)),
        ):
            if part is None or not hasattr(part, "state_dict"):
                continue
            try:
                envs[name] = part.state_dict()
            except TypeError as err:  # Ray's actors, an env that does not pickle
                if name not in unsaved:
                    unsaved.append(name)
                    progress.line(
                        f"the run state leaves out the {name}'s envs ({err}): a resume starts "
                        "their episodes again"
                    )
        return pack({
            "format": RUN_STATE_FORMAT, "buffer": buffer.state_dict(), **envs,
            "global": global_rng_state(), "row": dict(row), "last_eval": last_eval,
            "logged_eval": logged_eval, "last_ckpt": last_ckpt,
        })  # fmt: skip

    def save_last() -> None:
        t0 = time.perf_counter()
        save_checkpoint(
            policy, ckpt / "ckpt_last.pth.tar", cfg, env_step=collector.env_steps,
            best_eval_return=best, wall_time=time.time() - start, seed=seed,
            last_eval=-1 if logged_eval is None else logged_eval,
            **({"run_state": run_state()} if whole else {}),
        )  # fmt: skip
        if whole:
            size = (ckpt / "ckpt_last.pth.tar").stat().st_size
            progress.line(
                f"saved ckpt_last.pth.tar with the run state: {size / 1e6:.1f} MB ({len(buffer)} "
                f"transitions of replay) in {time.perf_counter() - t0:.2f} s"
            )

    def evaluate() -> None:
        nonlocal best, last_eval
        returns = evaluator.eval(cfg.env.n_evaluator_episode)
        last_eval = policy.train_iter
        mean, std = float(returns.mean()), float(returns.std())
        row.update(eval_return_mean=mean, eval_return_std=std)
        results = getattr(evaluator, "results", {})
        for b, res in results.items():
            row.update({f"{b}_{k}": res[k] for k in ("win", "draw", "loss")})
        if mean > best:
            best = mean
            save_checkpoint(
                policy, ckpt / "ckpt_best.pth.tar", cfg, env_step=collector.env_steps,
                eval_return=best, seed=seed,
            )  # fmt: skip
        bots_text = "".join(
            f", {b} {r['win']:.2f}/{r['draw']:.2f}/{r['loss']:.2f}" for b, r in results.items()
        )
        progress.line(
            f"eval at iter {policy.train_iter}, {collector.env_steps} env steps: return "
            f"{mean:.2f} +- {std:.2f} (best {best:.2f}){bots_text}"
        )

    def write_row() -> None:
        nonlocal logged_eval
        if row:
            log.write(
                train_iter=policy.train_iter, env_step=collector.env_steps,
                wall_time=round(time.time() - start, 2), **row,
            )  # fmt: skip
            if row.get("eval_return_mean") is not None:
                logged_eval = policy.train_iter
                log.plot()
            row.clear()

    if last_eval is None:
        progress.evaluating_first(resumed is not None, f"{cfg.env.n_evaluator_episode} episodes")

    def budget_spent() -> str | None:
        if collector.env_steps >= max_env_step:
            return "max_env_step spent"
        if policy.train_iter >= max_train_iter:
            return "max_train_iter spent"
        if max_time_s is not None and time.time() - start >= max_time_s:
            return f"max_time_s {max_time_s:g} spent"
        return None

    reason = "max_train_iter"
    minutes = pc.save_ckpt_last_minutes
    last_write = time.time()
    try:
        with stopping_at_safe_points(progress.line) as stop:
            while True:
                stop.check()
                spent = budget_spent()  # then the run ends with an evaluation, in the same row
                due = last_eval is None or policy.train_iter - last_eval >= pc.eval_freq
                final = spent and last_eval != policy.train_iter and best < cfg.env.stop_value
                if due or final:
                    evaluate()
                    # The time may run out while evaluating: then this evaluation is the
                    # last. (Not rechecked otherwise: a run never ends without its final one.)
                    spent = spent or budget_spent()
                write_row()
                if best >= cfg.env.stop_value:
                    reason = (
                        f"stop value {cfg.env.stop_value} reached at env step {collector.env_steps}"
                    )
                    break
                if spent:
                    reason = spent
                    break
                if minutes is not None and time.time() - last_write >= 60 * minutes:
                    save_last()
                    last_write = time.time()
                stop.check()
                whole = False
                segments, stats = collector.collect(
                    pc.n_episode,
                    max_steps=max_env_step - collector.env_steps,
                    epsilon=policy.collect_epsilon(collector.env_steps),
                )
                buffer.push(segments)
                n_updates = pc.update_per_collect or max(
                    1, int(stats["env_steps"] * pc.replay_ratio)
                )
                n_updates = min(n_updates, max_train_iter - policy.train_iter)
                if len(buffer) == 0:  # a step budget can end a collect before any segment
                    n_updates = 0
                spent_reanalysing, losses = 0.0, []
                with policy.learning_threads():
                    for _ in range(n_updates):
                        batch = buffer.sample(pc.batch_size)
                        if reanalysis:
                            t0 = time.perf_counter()
                            policy.reanalyze(batch, pc.reanalyze_ratio, two_player=two_player)
                            spent_reanalysing += time.perf_counter() - t0
                        losses.append(policy.learn(batch))
                if reanalysis:  # its cost: seconds of this iteration's updates
                    row["reanalyze_s"] = round(spent_reanalysing, 3)
                row.update(
                    {k: float(np.mean([x[k] for x in losses])) for k in losses[0]} if losses else {}
                )
                # NaN when no episode ended in the collect: left empty, as every missing value
                ended = np.isfinite(stats["return_mean"])
                row["collect_return"] = stats["return_mean"] if ended else None
                if policy.train_iter - last_ckpt >= pc.save_ckpt_freq:
                    last_ckpt = policy.train_iter
                    save_checkpoint(
                        policy,
                        ckpt / f"iteration_{policy.train_iter}.pth.tar",
                        cfg,
                        env_step=collector.env_steps,
                        seed=seed,
                    )
                whole = True
                progress.status(collector.env_steps, policy.train_iter, row.get("total_loss"))
    except KeyboardInterrupt:
        reason = "interrupted"
        raise
    except Exception as err:  # the stop line names the failure; the error itself propagates
        reason = f"failed: {type(err).__name__}"
        raise
    finally:
        try:  # the checkpoint first: it is what a stopped run must leave
            save_last()
        finally:
            log.close()
        best_text = (
            f"best eval return {best:.2f} in {ckpt / 'ckpt_best.pth.tar'}"
            if best > -np.inf
            else "no evaluation"
        )
        progress.line(
            f"stopped ({reason}) after {policy.train_iter} iterations, {collector.env_steps} env "
            f"steps, {time.time() - start:.0f} s; {best_text}; last checkpoint "
            f"{ckpt / 'ckpt_last.pth.tar'}{'' if whole else MID_ITERATION}"
        )
    return policy
