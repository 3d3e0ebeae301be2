"""Distributed MuZero self-play: Ray actors play TicTacToe (and CartPole), the driver learns and
writes checkpoints; a killed actor is reported, replaced, and the others go on; the env-step
budget holds; the keys are checked.

One local Ray (the ``local_ray`` fixture) serves the module."""

from __future__ import annotations

import copy

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ray = pytest.importorskip("ray")
from lzero.entry import train_muzero  # noqa: E402
from lzero.entry.config import compile_config  # noqa: E402
from lzero.errors import ActorFailureWarning, ConfigError  # noqa: E402
from lzero.worker.ray_muzero_collector import RayMuZeroCollector  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_muzero_sp_mode_config as sp  # noqa: E402

CREATE = copy.deepcopy(sp.create_config)

pytestmark = pytest.mark.usefixtures("local_ray")


def ray_main(exp_name, actor_num=2, **manager):
    # The actors' first start compiles their kernels (a fresh clone's cold cache): on a loaded
    # 2-core machine that took over the default 60 s.
    manager.setdefault("connect_timeout", 600)
    main = copy.deepcopy(sp.main_config)
    main.exp_name = str(exp_name)
    main.env.update(collector_env_num=4, n_evaluator_episode=2)
    main.env.manager = dict(
        type="ray", self_play_actors=True, actor_num=actor_num, num_cpus_per_actor=1, **manager
    )
    main.policy.update(
        num_simulations=4, batch_size=16, eval_freq=1000, eval_bots=["rule"], n_episode=4,
        save_ckpt_freq=1,
    )  # fmt: skip
    return main


def _state(model):
    return {k: v.clone() for k, v in model.state_dict().items()}


def test_distributed_run_survives_a_killed_actor_and_writes_checkpoints(
    tmp_path, monkeypatch, exits
):
    phases, pids, synced = [], {}, []
    collect = RayMuZeroCollector.collect

    def collect_and_kill(self, n_episode, *, max_steps=None, **kwargs):
        if len(phases) == 1:  # after the first phase actor 0 dies, as in a crash
            pids["before"] = self.actor_pids
            ray.kill(self.actors[0])
        segments, stats = collect(self, n_episode, max_steps=max_steps, **kwargs)
        if max_steps >= 4 * 9:  # no budget cut: each actor that answered played its 2 games
            # (of 5 to 9 moves), and the segments hold every step but those of running games
            games = 2 * len(stats["actors"])
            assert stats["episodes"] >= games and stats["env_steps"] >= 5 * games
            assert sum(s.n_valid for s in segments) >= stats["env_steps"] - 4 * 9
        phases.append(stats["actors"])
        if len(phases) in (1, 4):  # actor 1's model is the driver's (no update since the
            # broadcast that started this collect; the call waits for its running phase)
            driver = self.policy.model.state_dict()
            mine = ray.get(
                self.actors[1].__ray_call__.remote(lambda a: a.policy.model.state_dict())
            )
            synced.append(all(torch.equal(driver[k], mine[k]) for k in driver))
        if [1] in phases and stats["actors"] == [0, 1] and "after" not in pids:
            pids["after"] = self.actor_pids
        return segments, stats

    monkeypatch.setattr(RayMuZeroCollector, "collect", collect_and_kill)
    with pytest.warns(
        ActorFailureWarning, match=r"Ray self-play actor 0 \(games \[0, 1\]\) failed"
    ):
        policy = train_muzero([ray_main(tmp_path / "run"), CREATE], seed=0, max_env_step=150)
    lost = phases.index([1])
    assert phases[0] == [0, 1] and lost in (1, 2) and [0, 1] in phases[lost + 1 :]
    before, after = pids["before"], pids["after"]
    assert after[1] == before[1] and after[0] != before[0] and exits(before[0])
    assert all(exits(pid) for pid in after)  # the run's end closed its actors
    assert ray.is_initialized()  # the test's Ray: used, not shut down by the run
    ckpt = tmp_path / "run" / "ckpt"
    assert (ckpt / "ckpt_last.pth.tar").is_file() and policy.train_iter > 0
    assert any(p.name.startswith("iteration_") for p in ckpt.iterdir())
    assert synced == [True, True]  # the weights reached the actor, also after learning


def test_the_env_step_budget_holds_within_one_collect(tmp_path):
    """Phases run ahead of the learner, yet no phase is promised steps past max_env_step."""
    main = ray_main(tmp_path / "budget")
    main.policy.eval_freq = 10_000
    state = {}
    collect = RayMuZeroCollector.collect

    def record(self, n_episode, *, max_steps=None, **kwargs):
        out = collect(self, n_episode, max_steps=max_steps, **kwargs)
        state["steps"] = self.env_steps
        return out

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(RayMuZeroCollector, "collect", record)
        train_muzero([main, CREATE], seed=1, max_env_step=37)
    # each actor steps its 2 envs together, so it may pass its budget by one step
    assert 37 <= state["steps"] <= 37 + 2


def test_actor_envs_play_the_seeds_of_the_in_process_manager(tmp_path):
    """Actor ``a`` steps envs ``chunk[a]`` seeded as the driver's manager seeds them, and the
    same run seed gives the same segments."""
    cfg = compile_config([ray_main(tmp_path / "seeds"), CREATE])
    from lzero.policy.muzero import MuZeroPolicy

    def run():
        torch.manual_seed(0)
        policy = MuZeroPolicy(cfg.policy)
        collector = RayMuZeroCollector(policy, cfg, seed=7)
        try:
            assert collector.chunks == [[0, 1], [2, 3]]
            seeds = ray.get(
                [
                    a.__ray_call__.remote(lambda x: x.collector.env._seeds)
                    for a in collector.actors.actors
                ]
            )
            segments, _ = collector.collect(4)
            # Epsilon reaches the actors. A phase starts as the one before it comes in, and
            # episodes carry over from phase to phase, so each epsilon is asked for three
            # times and the third phase is checked.
            greedy = []
            for epsilon in (0.0, 0.0, 0.0, 1.0, 1.0, 1.0):
                phase, _ = collector.collect(4, epsilon=epsilon)
                greedy.append(
                    np.mean(np.concatenate([s.action == s.policy.argmax(1) for s in phase]))
                )
            return seeds, [s.action.tolist() for s in segments], greedy
        finally:
            collector.close()

    seeds, first, greedy = run()
    assert seeds == [[7, 8], [9, 10]]
    assert greedy[2] == 1.0 and greedy[5] < 0.7, greedy  # most visited; uniform legal moves
    assert run()[1] == first


def test_ray_self_play_keys_are_checked():
    with pytest.raises(ConfigError, match="expected weight_sync_freq to be a positive int, got 0"):
        compile_config([ray_main("x", weight_sync_freq=0), CREATE])
    with pytest.raises(ConfigError, match="unknown key 'actors_num'"):
        compile_config([ray_main("x", actors_num=2), CREATE])
    main = ray_main("x")
    main.env.manager.type = "subprocess"
    with pytest.raises(ConfigError, match="expected type 'ray' with self_play_actors=True"):
        compile_config([main, CREATE])
    main = ray_main("x")
    main.env.manager = dict(type="ray", weight_sync_freq=2)
    with pytest.raises(ConfigError, match="weight_sync_freq applies to self-play in Ray actors"):
        compile_config([main, CREATE])
    main.env.manager = dict(type="ray", self_play_actors="yes")
    with pytest.raises(ConfigError, match="expected self_play_actors to be a bool, got 'yes'"):
        compile_config([main, CREATE])
    # defaults filled in, and the envs-in-actors mode still builds without the flag
    cfg = compile_config([ray_main("x"), CREATE])
    assert cfg.env.manager.weight_sync_freq == 1 and cfg.env.manager.self_play_actors is True
    main.env.manager = dict(type="ray", actor_num=1)
    assert "self_play_actors" not in compile_config([main, CREATE]).env.manager


def test_without_ray_self_play_names_the_extra(monkeypatch, tmp_path):
    import sys

    from lzero.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(MissingExtraError, match=r'Ray self-play .* pip install -e "\.\[ray\]"'):
        train_muzero([ray_main(tmp_path / "run"), CREATE], seed=0, max_env_step=10)
