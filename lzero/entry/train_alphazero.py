"""``train_alphazero``: AlphaZero self-play training on a board game, and ``eval_alphazero``.

The loop: evaluate against the env's bots every ``eval_freq`` training iterations (win, draw
and loss per bot into ``progress.csv`` and ``learning_curve.png``; a new best mean score is
saved as ``ckpt/ckpt_best.pth.tar``), play ``n_episode`` self-play games into the replay
buffer, then take ``update_per_collect`` gradient steps (or ``model_update_ratio`` per new
position). It stops at ``stop_value`` (the score, win minus loss, against the first bot),
``max_env_step`` or ``max_train_iter``, and always writes ``ckpt/ckpt_last.pth.tar``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import torch

from lzero.entry.config import check_board_eval_env
from lzero.entry.muzero_setup import check_budgets, check_seed, run_seed, seed_everything
from lzero.entry.train_log import Progress, TrainLog, check_fresh_exp, last_checkpoint
from lzero.envs.registry import create_env
from lzero.errors import ConfigError
from lzero.mcts.buffer.alphazero_buffer import AlphaZeroReplayBuffer
from lzero.policy.alphazero import AlphaZeroPolicy
from lzero.policy.alphazero_checkpoint import load_policy, read_checkpoint, save_checkpoint
from lzero.policy.alphazero_config import compile_alphazero_config
from lzero.policy.board_game import BoardGame
from lzero.utils.replay_io import check_replay_dir
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
from lzero.worker.alphazero_collector import make_alphazero_collector
from lzero.worker.alphazero_evaluator import (
    check_mcts_bot_simulations,
    check_opening_moves,
    eval_bots,
    evaluate_against_bots,
    lightzero_eval_bot,
    play_games,
    record_game_gif,
)
from lzero.worker.board_agents import FROM_CONFIG, Agent, load_alphazero_agent

_BASE_COLUMNS = (
    "train_iter", "env_step", "wall_time", "collect_return", "eval_return_mean", "eval_score_mean",
    "total_loss", "policy_loss", "value_loss", "policy_entropy", "positions_per_s", "search_share",
)  # fmt: skip


def _setup(cfg, seed: int):
    env = create_env(cfg.create, cfg.env)  # the env class checks its config here
    game = BoardGame.from_env(env)
    m = cfg.policy.model
    if tuple(m.observation_shape) != game.observation_shape:
        raise ConfigError(
            f"main_config.policy.model.observation_shape: expected {game.observation_shape} (the "
            f"env's planes), got {tuple(m.observation_shape)}"
        )
    if m.action_space_size != game.action_size:
        raise ConfigError(
            f"main_config.policy.model.action_space_size: expected {game.action_size} (the env's "
            f"action count), got {m.action_space_size}"
        )
    bots = eval_bots(env, cfg.policy.eval_bots, "main_config.policy.eval_bots")
    env.close()
    return game, bots


class LearnerThread(threading.Thread):
    """``learn(updates)`` in a thread (``overlap_learning``), its exception raised by
    :meth:`join`. Torch's operations release the GIL, so its gradient steps run on one core
    while self-play runs on the other."""

    def __init__(self, learn, updates: int) -> None:
        super().__init__(name="learner", daemon=True)
        self._learn, self._updates = learn, updates
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._learn(self._updates)
        except BaseException as err:  # handed to the training loop, which raises it
            self.error = err

    def join(self, timeout: float | None = None) -> None:
        super().join(timeout)
        if self.error is not None:
            raise self.error


def _restore_run_state(packed, buffer, collector, policy, rng, ckpt_dir) -> tuple[int, dict]:
    """Puts a checkpoint's run state back (buffer, games in flight, every random stream);
    returns its ``last_save`` and ``losses``.

    Raises:
        ConfigError: a run state of another format, or one that does not fit the config.
    """
    where = ckpt_dir / "ckpt_last.pth.tar"
    check_run_state_format(packed, where)
    state = unpack(packed)
    try:
        buffer.load_state_dict(state["buffer"])
        if state["collector"] is not None and hasattr(collector, "load_state_dict"):
            collector.load_state_dict(state["collector"])
    except ValueError as err:
        raise ConfigError(f"resume: {where} does not fit the config: {err}") from err
    policy.search.set_rng_state(state["search"])
    rng.bit_generator.state = state["trainer_rng"]
    set_global_rng_state(state["global"])
    return int(state["last_save"]), dict(state["losses"])


def eval_curves(bots) -> tuple[tuple[str, str], ...]:
    """The learning curve's lines: the win and the loss rate against each evaluation bot
    (draws are the rest), so a run that goes from losing half its games against the perfect
    bot to drawing them all shows it, which win rates alone do not."""
    return tuple((f"{b}_{r}", f"{r} rate vs {b}") for b in bots for r in ("win", "loss"))


def train_alphazero(
    input_cfg: Sequence[Mapping],
    seed: int | None = None,
    model: None = None,
    model_path: str | None = None,
    max_train_iter: int = int(1e10),
    max_env_step: int = int(1e10),
    *,
    max_time_s: float | None = None,
    resume: str | Path | None = None,
) -> AlphaZeroPolicy:
    """Trains AlphaZero on ``create_config.env.type`` (the loop is in the module docstring).

    The positional order is LightZero's (``input_cfg, seed, model, model_path,
    max_train_iter, max_env_step``), as ``train_muzero_with_gym_env``'s.

    Args:
        input_cfg: ``[main_config, create_config]`` as LightZero's AlphaZero configs.
        seed: seed of the envs, the network, the search and the sampling (default 0; a
            resumed run keeps its own, and another one is refused).
        model: LightZero's prebuilt-model argument; must be None (the network is the
            config's ``policy.model``).
        model_path: start from this AlphaZero checkpoint's weights (None: the config's
            ``policy.model_path``, LightZero's key; None there too: from scratch).
        max_train_iter: gradient-step budget.
        max_env_step: env-step budget (moves played in self-play).
        max_time_s: wall-clock budget in seconds (checked between collect phases; a resumed
            run's earlier time included).
        resume: an experiment directory to continue from its ``ckpt/ckpt_last.pth.tar``
            (network, optimizer, counters and, where the run stopped between iterations, its
            run state: the replay buffer, the games in flight and every random stream), as
            if it had not stopped; ``progress.csv`` is appended to. With Ray self-play the
            actors' games in flight and streams are not saved, nor the subtrees of
            ``collect_reuse_tree``.

    Returns:
        The trained policy.

    Raises:
        ConfigError: a bad config, a checkpoint of another kind or game, or a seed other than
            the resumed run's.
    """
    cfg = compile_alphazero_config(input_cfg)
    if seed is not None:
        check_seed(seed)
    check_budgets(max_env_step, max_train_iter, max_time_s)
    if model is not None:
        raise ConfigError(
            "model: expected None (the network is the config's policy.model), got a "
            f"{type(model).__name__}"
        )
    exp = Path(cfg.exp_name if resume is None else resume)
    ckpt_dir = exp / "ckpt"
    resumed = None
    if resume is None:
        check_fresh_exp(exp)
    else:
        resumed = read_checkpoint(last_checkpoint(exp), "resume")
    seed = run_seed(seed, None if resumed is None else resumed.get("seed"))
    seed_everything(seed)
    torch.set_num_threads(cfg.policy.torch_num_threads)
    game, bots = _setup(cfg, seed)
    opening, cells = cfg.policy.eval_opening_moves, game.height * game.width
    check_opening_moves(opening, cells, "main_config.policy.eval_opening_moves")  # before files
    stop_value = float(cfg.trainer.stop_value)
    policy = AlphaZeroPolicy(cfg.policy, game, seed=seed)
    if model_path is None:
        model_path = cfg.policy.model_path  # LightZero's config key; None: from scratch
    if model_path is not None:
        loaded, _ = load_policy(model_path)
        if loaded.game[2:] != game[2:] or loaded.game.name != game.name:
            raise ConfigError(
                f"model_path: expected a checkpoint of {game.name}, got one of {loaded.game.name}"
            )
        try:
            policy.load_state_dict({"model": loaded.model.state_dict()})  # and the average
        except RuntimeError as err:  # another tower, or with/without line_features
            raise ConfigError(
                f"model_path: {model_path} does not fit the configured model (policy.model): "
                f"{str(err).splitlines()[-1].strip()}"
            ) from err
    pcfg = cfg.policy
    if resumed is not None:
        if resumed["game"]["name"] != game.name:
            raise ConfigError(
                f"resume: expected a run of {game.name}, got one of {resumed['game']['name']}"
            )
        mode = (resumed["game"].get("env_config") or {}).get("battle_mode")
        if mode is not None and mode != cfg.env.battle_mode:  # the run goes on as it was
            raise ConfigError(
                f"resume: expected the run's battle_mode {mode!r}, got {cfg.env.battle_mode!r} "
                "in the config (resume with the run's own config; to train on from its "
                "checkpoint in another mode, start a new run with policy.model_path)"
            )
        cfg.exp_name = str(exp)  # config.json records where the run is
        try:
            policy.load_state_dict(resumed)
        except RuntimeError as err:
            raise ConfigError(
                f"resume: {ckpt_dir / 'ckpt_last.pth.tar'} does not fit the configured model: "
                f"{str(err).splitlines()[-1].strip()}"
            ) from err
    # In-process, or Ray actors: started before the run's files are written, so that a run
    # whose Ray cannot start (not installed, a bad address, too few CPUs) leaves no folder
    # that would then be neither a fresh run's nor a run to resume.
    collector = make_alphazero_collector(policy, cfg, seed)
    try:
        ckpt_dir.mkdir(parents=True, exist_ok=True)
        columns = _BASE_COLUMNS + (("draw_loss",) if pcfg.model.draw_head else ())
        columns += tuple(f"{b}_{r}" for b in bots for r in ("win", "draw", "loss"))
        log = TrainLog(
            exp, columns=columns, curves=eval_curves(bots), ylabel="share of games (draws: the rest)",
            title=f"AlphaZero on {cfg.create.env.type}, seed {seed}", append=resumed is not None,
            resumed_at=None if resumed is None else (policy.train_iter, int(resumed["env_step"])),
        )  # fmt: skip
        log.save_config(cfg)
    except BaseException:
        collector.close()
        raise
    buffer = AlphaZeroReplayBuffer(
        pcfg.other.replay_buffer.replay_buffer_size, game, augment=pcfg.symmetry_augmentation
    )
    act = Agent(policy, pcfg.eval_num_simulations or pcfg.mcts.num_simulations).act_batch
    rng = np.random.default_rng(seed)
    progress = Progress(max_env_step)
    env_step, best, last_eval, last_save, losses = 0, -math.inf, None, policy.train_iter, {}
    start = time.perf_counter()
    if resumed is not None:
        env_step, best = int(resumed["env_step"]), float(resumed.get("best_score", -math.inf))
        last_eval = resumed.get("last_eval")  # its evaluation is in the CSV: not again
        start -= float(resumed.get("wall_time", 0.0))
        if "run_state" in resumed:
            last_save, losses = _restore_run_state(
                resumed["run_state"], buffer, collector, policy, rng, ckpt_dir
            )
        else:
            progress.line(
                "resuming without a run state (a checkpoint written mid-iteration or before "
                "run states): the replay buffer refills from new self-play and the random "
                "streams start again from the seed"
            )
    whole = True  # the loop is between iterations: the run state can be saved as it is
    overlap = bool(pcfg.overlap_learning)
    pending = 0  # with overlap_learning: the updates the last collect's positions are owed
    if resumed is not None and "run_state" in resumed:
        pending = int(resumed["run_state"].get("pending_updates", 0))

    def save(name: str, with_state: bool = False) -> None:
        extra = {}
        if with_state:
            extra["run_state"] = pack({
                "format": RUN_STATE_FORMAT, "buffer": buffer.state_dict(),
                "collector": collector.state_dict() if hasattr(collector, "state_dict") else None,
                "search": policy.search.rng_state(), "trainer_rng": rng.bit_generator.state,
                "global": global_rng_state(), "last_save": last_save, "losses": losses,
                "pending_updates": pending,
            })  # fmt: skip
        save_checkpoint(
            ckpt_dir / name, policy, cfg.create.env, cfg.env, env_step=env_step, best_score=best,
            wall_time=time.perf_counter() - start, last_eval=last_eval, seed=seed, **extra,
        )  # fmt: skip

    def save_last() -> None:
        t0 = time.perf_counter()
        save("ckpt_last.pth.tar", with_state=True)
        size = (ckpt_dir / "ckpt_last.pth.tar").stat().st_size
        kept = sum(a.nbytes for a in buffer.state_dict().values() if isinstance(a, np.ndarray))
        progress.line(
            f"saved ckpt_last.pth.tar with the run state: {size / 1e6:.1f} MB ({kept / 1e6:.1f} "
            f"MB of replay, {len(buffer)} positions) in {time.perf_counter() - t0:.2f} s"
        )

    def learn(updates: int) -> None:
        """Takes ``updates`` gradient steps (fewer at the ``max_train_iter`` budget)."""
        nonlocal losses, last_save
        for _ in range(min(updates, max_train_iter - policy.train_iter)):
            losses = policy.learn(*buffer.sample(pcfg.batch_size, rng))
            if policy.train_iter - last_save >= pcfg.save_ckpt_freq:
                last_save = policy.train_iter
                save(f"iteration_{policy.train_iter}.pth.tar")

    def evaluate() -> bool:
        nonlocal best, last_eval
        results = evaluate_against_bots(
            act, cfg.create, cfg.env, bots, cfg.trainer.n_evaluator_episode, seed + 1_000_003,
            pcfg.eval_opening_moves,
        )  # fmt: skip
        score = float(np.mean([r["score"] for r in results.values()]))
        row = {f"{b}_{k}": results[b][k] for b in bots for k in ("win", "draw", "loss")}
        log.write(
            train_iter=policy.train_iter, env_step=env_step, wall_time=round(time.perf_counter() - start, 2),
            eval_return_mean=results[bots[0]]["score"], eval_score_mean=score, **row,
        )  # fmt: skip
        last_eval = policy.train_iter  # done and logged: a resume need not evaluate it again
        log.plot()
        text = ", ".join(
            f"{b} {r['win']:.2f}/{r['draw']:.2f}/{r['loss']:.2f}" for b, r in results.items()
        )
        progress.line(
            f"eval at iter {policy.train_iter}, {env_step} env steps: win/draw/loss {text}"
        )
        if score > best:
            best = score
            save("ckpt_best.pth.tar")
        return results[bots[0]]["score"] >= stop_value

    if last_eval is None:
        games = cfg.trainer.n_evaluator_episode
        progress.evaluating_first(
            resumed is not None, f"{games} games against each of {', '.join(bots)}"
        )
    reason = "max_train_iter spent"  # worded as the MuZero entry's stop lines
    minutes = pcfg.save_ckpt_last_minutes
    last_write = time.perf_counter()
    learner: LearnerThread | None = None
    try:
        with stopping_at_safe_points(progress.line) as stop:
            while True:
                stop.check()
                if last_eval is None or policy.train_iter - last_eval >= pcfg.eval_freq:
                    if evaluate():
                        reason = f"stop value {stop_value} reached against {bots[0]}"
                        break
                    stop.check()
                if env_step >= max_env_step:
                    reason = "max_env_step spent"
                    break
                if max_time_s is not None and time.perf_counter() - start >= max_time_s:
                    reason = f"max_time_s {max_time_s:g} spent"
                    break
                if policy.train_iter >= max_train_iter:
                    break
                whole = False
                policy.forward_seconds = 0.0
                policy.clear_nn_caches()  # what the evaluation cached: as after a resume
                t0 = time.perf_counter()
                if overlap and pending:  # the last collect's updates, beside this collect
                    learner = LearnerThread(learn, pending)
                    with policy.snapshot():  # self-play keeps the weights of the start
                        learner.start()
                        data = collector.collect(pcfg.n_episode)
                    learner.join()  # its error, if any, raised here
                else:
                    data = collector.collect(pcfg.n_episode)
                collect_seconds = time.perf_counter() - t0
                buffer.push(data["planes"], data["policy"], data["value"], data["draw"])
                env_step += data["env_steps"]
                updates = pcfg.update_per_collect or max(
                    1, round(len(data["value"]) * pcfg.model_update_ratio)
                )
                if not len(buffer):  # fast searches only so far (fast_search_prob)
                    updates = 0
                if overlap:  # taken while the next collect plays
                    pending = updates
                else:
                    learn(updates)
                log.write(
                    train_iter=policy.train_iter, env_step=env_step, wall_time=round(time.perf_counter() - start, 2),
                    collect_return=float(np.mean(data["returns"])),
                    positions_per_s=round(data["env_steps"] / collect_seconds, 1),
                    search_share=round(1 - policy.forward_seconds / collect_seconds, 3), **losses,
                )  # fmt: skip
                whole = True
                progress.status(env_step, policy.train_iter, losses.get("total_loss"))
                if minutes is not None and time.perf_counter() - last_write >= 60 * minutes:
                    save_last()
                    last_write = time.perf_counter()
            if last_eval != policy.train_iter and reason.endswith(" spent"):
                evaluate()
    except KeyboardInterrupt:
        reason = "interrupted"
        raise
    except Exception as err:  # the stop line names the failure; the error itself propagates
        reason = f"failed: {type(err).__name__}"
        raise
    finally:
        if learner is not None and learner.is_alive():  # a stop inside a collect: the
            threading.Thread.join(learner)  # weights are saved once its step is done
            if learner.error is not None:
                progress.line(f"the learner thread failed too: {learner.error!r}")
        if whole:
            save_last()
        else:  # a stop inside an iteration: newer weights, but no state to continue exactly
            save("ckpt_last.pth.tar")
        log.plot()
        log.close()
        collector.close()
        progress.line(
            f"stopped ({reason}) after {policy.train_iter} iterations, {env_step} env steps, "
            f"{time.perf_counter() - start:.0f} s; checkpoints in {ckpt_dir}"
            f"{'' if whole else MID_ITERATION}"
        )
    return policy


def eval_alphazero(
    checkpoint: str | Sequence[Mapping] | None = None,
    seed: int = 0,
    model: None = None,
    model_path: str | None = None,
    num_episodes_each_seed: int = 1,
    print_seed_details: bool = False,
    *,
    bots: Sequence[str] | None = None,
    num_games: int = 20,
    num_simulations: int | None = None,
    opening_moves: int = 0,
    reuse_tree: bool = False,
    fpu_reduction: float | str | None = FROM_CONFIG,
    inference_dtype: str | None = None,
    state: dict | None = None,
    replay_path: str | None = None,
    print_results: bool = False,
    input_cfg: Sequence[Mapping] | None = None,
    mcts_bot_simulations: int | None = None,
) -> dict[str, dict[str, float]]:
    """Win, draw and loss rates of a checkpoint against bots (both colours); the checkpoint
    records its game, so no config is needed.

    Called as LightZero's ``eval_alphazero(input_cfg, seed, model, model_path,
    num_episodes_each_seed, print_seed_details)`` (a ``[main_config, create_config]`` pair
    first), it plays as LightZero's does instead: ``num_episodes_each_seed`` rounds of
    ``env.n_evaluator_episode`` games, the agent first, against the config's
    ``env.bot_action_type``, and returns ``(mean return, returns)`` (+1, 0, -1 per game);
    ``model`` must be None and ``model_path`` a checkpoint of the config's game.

    Args:
        checkpoint: an AlphaZero checkpoint (or ``model_path`` instead), or LightZero's config
            pair.
        seed: seed of the envs and bots.
        bots: bots to play (default: rule, mcts and, on TicTacToe, alpha_beta).
        num_games: games per bot.
        num_simulations: simulations per move (default: the checkpoint's eval setting); 0 plays
            the raw network.
        opening_moves: random moves opening each game, the same for both colours of a pair.
        reuse_tree: the agent keeps its searches' subtrees between moves
            (``lzero.agent.Agent``).
        fpu_reduction, inference_dtype: the agent's (``lzero.agent.load_agent``); by
            default the checkpoint's config's.
        state: the checkpoint as already read from ``model_path`` and checked by
            ``lzero.agent.check_alphazero_state``; None: read it (once).
        replay_path: a folder: after the evaluation, one more game of the agent (first)
            against the first bot is saved there as a GIF, and its path printed
            (``lzero eval --gif DIR``); None: none.
        print_results: print the results, a line per bot, when the games are over (before
            the replay's path; ``lzero eval``).
        input_cfg: LightZero's name of the config pair, for its keyword call
            (``eval_alphazero(input_cfg=[main_config, create_config], ...)``).
        mcts_bot_simulations: the MCTS bot's rollouts a move (ours; default: the checkpoint's
            env config's ``mcts_bot_num_simulations``); needs ``mcts`` among the bots.
    """
    if input_cfg is not None:
        if checkpoint is not None:
            raise ConfigError(
                "eval_alphazero: expected a checkpoint or LightZero's input_cfg, got both"
            )
        checkpoint = input_cfg
    if isinstance(checkpoint, (list, tuple)):
        ours = dict(
            bots=bots is not None, num_games=num_games != 20, opening_moves=opening_moves != 0,
            num_simulations=num_simulations is not None, reuse_tree=reuse_tree is not False,
            fpu_reduction=fpu_reduction is not FROM_CONFIG, state=state is not None,
            inference_dtype=inference_dtype is not None, replay_path=replay_path is not None,
            print_results=print_results is not False,
            mcts_bot_simulations=mcts_bot_simulations is not None,
        )  # fmt: skip
        if any(ours.values()):
            raise ConfigError(
                f"eval_alphazero: expected a checkpoint path with {[k for k, v in ours.items() if v]}"
                " (LightZero's call, with a config pair, plays the config's settings)"
            )
        return _eval_alphazero_lightzero(
            checkpoint, seed, model, model_path, num_episodes_each_seed, print_seed_details
        )
    if num_episodes_each_seed != 1 or print_seed_details:
        raise ConfigError(
            "eval_alphazero: num_episodes_each_seed and print_seed_details are LightZero's, "
            "for a [main_config, create_config] pair first; with a checkpoint path, use "
            "num_games"
        )
    if model is not None:
        raise ConfigError(f"model: expected None, got a {type(model).__name__}")
    if (checkpoint is None) == (model_path is None):
        raise ConfigError(
            "eval_alphazero: expected a checkpoint path, either first or as model_path, got "
            + ("none" if checkpoint is None else "both")
        )
    model_path = checkpoint if model_path is None else model_path
    state = read_checkpoint(model_path) if state is None else state
    g = state["game"]
    check_mcts_bot_simulations(mcts_bot_simulations, None)  # before it goes to the env
    env_config = dict(g["env_config"])
    if mcts_bot_simulations is not None:
        env_config["mcts_bot_num_simulations"] = int(mcts_bot_simulations)
    env = create_env(g["create_env"], env_config)
    try:  # the asked-for games first, before the network is built
        bots = eval_bots(env, bots, "bots (lzero eval --bots)")
        check_mcts_bot_simulations(mcts_bot_simulations, bots)
        check_opening_moves(
            opening_moves, g["height"] * g["width"], "opening_moves (lzero eval --openings)"
        )
    finally:
        env.close()
    if replay_path is not None:
        check_replay_dir(replay_path, "replay_path (lzero eval --gif)")
    agent = load_alphazero_agent(
        model_path, num_simulations, inference_dtype=inference_dtype,
        fpu_reduction=fpu_reduction, reuse_tree=reuse_tree, state=state,
    )  # fmt: skip
    results = evaluate_against_bots(
        agent.act_batch, g["create_env"], env_config, bots, num_games, seed, opening_moves
    )
    if print_results:
        opening = f", {opening_moves}-move random openings" if opening_moves else ""
        print(f"{model_path}: {num_games} games per bot, colours alternate{opening}")
        if "mcts" in bots:
            print(f"  (the mcts bot: {env.mcts_bot_num_simulations} rollouts a move)")
        for bot, r in results.items():
            print(f"  vs {bot:>10}: win {r['win']:.2f}  draw {r['draw']:.2f}  loss {r['loss']:.2f}")
    if replay_path is not None:
        gif = record_game_gif(
            agent.act_batch, g["create_env"], env_config, bots[0], seed, replay_path
        )
        print(f"replay GIF: {gif}")
    return results


def _eval_alphazero_lightzero(
    input_cfg: Sequence[Mapping],
    seed: int,
    model: None,
    model_path: str | None,
    rounds: int,
    print_seed_details: bool,
) -> tuple[float, np.ndarray]:
    """:func:`eval_alphazero` called with LightZero's signature (see there)."""
    cfg = compile_alphazero_config(input_cfg)
    every_game = check_board_eval_env(cfg.env, "eval_alphazero")
    if model is not None:
        raise ConfigError(
            "model: expected None (the checkpoint at model_path records its network), got a "
            f"{type(model).__name__}"
        )
    if model_path is None:
        model_path = cfg.policy.model_path  # LightZero's config key
    if model_path is None:
        raise ConfigError(
            "model_path: expected an AlphaZero checkpoint to evaluate (the argument or the "
            "config's policy.model_path), got None (an untrained network is not evaluated here)"
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ConfigError(f"expected num_episodes_each_seed to be a positive int, got {rounds!r}")
    check_seed(seed)
    state = read_checkpoint(model_path)
    g = state["game"]
    if g["create_env"]["type"] != cfg.create.env.type:
        raise ConfigError(
            f"model_path: expected a checkpoint of {cfg.create.env.type}, got one of "
            f"{g['create_env']['type']}"
        )
    bot, bot_random = lightzero_eval_bot(cfg.create.env, cfg.env)
    agent = load_alphazero_agent(model_path, state=state)
    games = rounds * int(cfg.trainer.n_evaluator_episode)
    returns = play_games(
        agent.act_batch, g["create_env"], g["env_config"], bot, games, seed,
        agent_first_only=True, replay=every_game, bot_random=bot_random,
    )  # fmt: skip
    if print_seed_details:
        print(f"In seed {seed}, returns: {returns}")
        print(
            f"win rate: {np.mean(returns == 1):.2f}, draw rate: {np.mean(returns == 0):.2f}, "
            f"lose rate: {np.mean(returns == -1):.2f}"
        )
    return float(returns.mean()), returns
