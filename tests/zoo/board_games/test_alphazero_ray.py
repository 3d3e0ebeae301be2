"""Distributed AlphaZero self-play on TicTacToe: Ray actors play, the driver learns and writes
checkpoints; a killed actor is reported, replaced, and the others go on.

One local Ray (the ``local_ray`` fixture) serves the module."""

from __future__ import annotations

import copy
import re

import pytest

torch = pytest.importorskip("torch")
ray = pytest.importorskip("ray")
from lzero.entry import train_alphazero  # noqa: E402
from lzero.errors import ActorFailureWarning, ConfigError  # noqa: E402
from lzero.policy.alphazero_config import compile_alphazero_config  # noqa: E402
from lzero.worker.ray_alphazero_collector import RayAlphaZeroCollector  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_alphazero_sp_mode_config as sp  # noqa: E402

CREATE = copy.deepcopy(sp.create_config)

pytestmark = pytest.mark.usefixtures("local_ray")


def ray_main(exp_name, actor_num=2, **manager):
    # The actors' first start compiles their kernels (a fresh clone's cold cache): on a loaded
    # 2-core machine that took over the default 60 s.
    manager.setdefault("connect_timeout", 600)
    main = copy.deepcopy(sp.main_config)
    main.exp_name = str(exp_name)
    main.env.update(collector_env_num=4, n_evaluator_episode=2)
    main.env.manager = dict(type="ray", actor_num=actor_num, num_cpus_per_actor=1, **manager)
    main.policy.update(
        model=dict(observation_shape=(3, 3, 3), action_space_size=9, num_res_blocks=1, num_channels=8),
        update_per_collect=2, batch_size=16, n_episode=4, eval_freq=100, save_ckpt_freq=2,
        eval_bots=["rule"], torch_num_threads=1, mcts=dict(num_simulations=4),
    )  # fmt: skip
    return main


def test_distributed_run_survives_a_killed_actor_and_writes_checkpoints(
    tmp_path, monkeypatch, exits
):
    phases, pids, synced = [], {}, []
    collect = RayAlphaZeroCollector.collect

    def collect_and_kill(self, n_episode):
        if len(phases) == 1:  # after the first phase actor 0 dies, as in a crash
            pids["before"] = self.actor_pids
            ray.kill(self.actors[0])
        data = collect(self, n_episode)
        assert len(data["value"]) == len(data["planes"]) >= 5 * data["episodes"]  # 5+ moves
        assert len(data["draw"]) == len(data["value"])  # the draw flags travel with them
        phases.append(data["actors"])
        if len(phases) in (1, 4):  # actor 1's model is the driver's (no update since the
            # broadcast that started this collect; the call waits for its running phase)
            driver = self.policy.model.state_dict()
            mine = ray.get(
                self.actors[1].__ray_call__.remote(lambda a: a.policy.model.state_dict())
            )
            synced.append(all(torch.equal(driver[k], mine[k]) for k in driver))
        if [1] in phases and data["actors"] == [0, 1] and "after" not in pids:
            pids["after"] = self.actor_pids
        return data

    monkeypatch.setattr(RayAlphaZeroCollector, "collect", collect_and_kill)
    with pytest.warns(
        ActorFailureWarning, match=r"Ray self-play actor 0 \(games \[0, 1\]\) failed"
    ):
        policy = train_alphazero([ray_main(tmp_path / "run"), CREATE], seed=0, max_env_step=300)
    # a phase with actor 1's games only (the learner went on), then the replacement plays; a
    # phase of actor 0 that had finished before the kill still counts (its games are not lost)
    lost = phases.index([1])
    assert phases[0] == [0, 1] and lost in (1, 2) and [0, 1] in phases[lost + 1 :]
    before, after = pids["before"], pids["after"]
    assert after[1] == before[1] and after[0] != before[0] and exits(before[0])
    assert all(exits(pid) for pid in after)  # the run's end closed its actors
    assert ray.is_initialized()  # the test's Ray: used, not shut down by the run
    ckpt = tmp_path / "run" / "ckpt"
    assert (ckpt / "ckpt_last.pth.tar").is_file() and (ckpt / "iteration_2.pth.tar").is_file()
    assert policy.train_iter == 2 * len(phases)  # update_per_collect=2 after every phase
    assert synced == [True, True]  # the weights reached the actor, also after learning


def test_ray_keys_are_checked():
    with pytest.raises(ConfigError, match="expected weight_sync_freq to be a positive int, got 0"):
        compile_alphazero_config([ray_main("x", weight_sync_freq=0), CREATE])
    with pytest.raises(ConfigError, match="unknown key 'actors_num'"):
        compile_alphazero_config([ray_main("x", actors_num=2), CREATE])
    main = ray_main("x")
    main.env.manager.num_cpus_per_actor = float("nan")  # it crashed after Ray had started
    with pytest.raises(ConfigError, match="expected num_cpus_per_actor, a number >= 0, got nan"):
        compile_alphazero_config([main, CREATE])
    # Ray's keys with self-play in this process would be ignored: refused, as MuZero does.
    for manager, keys in (
        (dict(type="base", actor_num=2), "['actor_num']"),
        (dict(type="subprocess", weight_sync_freq=2), "['weight_sync_freq']"),
    ):
        main = ray_main("x")
        main.env.manager = manager
        with pytest.raises(ConfigError, match=rf"{re.escape(keys)} apply to self-play in Ray"):
            compile_alphazero_config([main, CREATE])
    main = ray_main("x")
    create = copy.deepcopy(CREATE)
    create.env_manager = dict(type="subprocess")
    with pytest.raises(
        ConfigError, match="expected type 'subprocess' as create_config.env_manager says"
    ):
        compile_alphazero_config([main, create])


def test_without_ray_the_ray_manager_names_the_extra(monkeypatch, tmp_path):
    import sys

    from lzero.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    with pytest.raises(MissingExtraError, match=r'Ray self-play .* pip install -e "\.\[ray\]"'):
        train_alphazero([ray_main(tmp_path / "run"), CREATE], seed=0, max_env_step=10)
    # No run folder is left behind: it would be neither a new run's nor one to resume.
    assert not (tmp_path / "run").exists()


def test_actors_that_cannot_start_for_want_of_free_cpus_are_an_error_not_a_wait(tmp_path):
    """Another job's actors hold the cluster's CPUs: Ray self-play had waited for them without
    a word (the check against the cluster's total CPUs passes), where RayEnvManager raised
    after connect_timeout. Now it raises too, names the key, and leaves no actor running."""

    @ray.remote(num_cpus=2)
    class Hog:
        def ready(self):
            return True

    hog = Hog.remote()
    ray.get(hog.ready.remote())  # both CPUs of the module's local Ray are taken
    try:
        main = ray_main(tmp_path / "run", actor_num=1, connect_timeout=3)
        with pytest.raises(
            RuntimeError,
            match=r"expected 1 actors to start within main_config\.env\.manager\.connect_timeout"
            r" 3 s, got fewer \(Ray may lack the free CPUs",
        ):
            train_alphazero([main, CREATE], seed=0, max_env_step=10)
    finally:
        ray.kill(hog)
    import time

    end = time.monotonic() + 30  # ray.kill is asynchronous
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < end:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2  # the waiting actor was killed too
    with pytest.raises(ConfigError, match="expected connect_timeout, a positive number"):
        compile_alphazero_config([ray_main("x", connect_timeout=0), CREATE])


def test_a_replacement_actor_that_cannot_start_is_an_error_not_a_wait(tmp_path, monkeypatch):
    """An actor dies and another job takes the CPU it freed: its replacement had waited for it
    without a word (only the first start had a timeout)."""

    @ray.remote(num_cpus=1)
    class Hog:
        def ready(self):
            return True

    hogs = []
    collect = RayAlphaZeroCollector.collect

    def collect_and_kill(self, n_episode):
        if not hogs:
            ray.kill(self.actors[0])
            hogs.append(Hog.remote())  # asked for before the replacement: it gets the CPU
            self._connect_timeout = 3  # the replacement's (the first start had 600 s)
        return collect(self, n_episode)

    monkeypatch.setattr(RayAlphaZeroCollector, "collect", collect_and_kill)
    main = ray_main(tmp_path / "run", actor_num=2)
    try:
        with (
            pytest.warns(ActorFailureWarning, match="actor 0"),
            pytest.raises(RuntimeError, match=r"expected 1 actors to start within .*connect_"),
        ):
            train_alphazero([main, CREATE], seed=0, max_env_step=400)
    finally:
        for hog in hogs:
            ray.kill(hog)
