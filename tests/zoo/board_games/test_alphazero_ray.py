"""Distributed AlphaZero self-play on TicTacToe: Ray actors play, the driver learns and writes
checkpoints; a killed actor is reported, replaced, and the others go on.

One local Ray serves the module (starting one costs seconds)."""

from __future__ import annotations

import copy
import os
import time

import pytest

torch = pytest.importorskip("torch")
ray = pytest.importorskip("ray")
from lzero.entry import train_alphazero  # noqa: E402
from lzero.errors import ActorFailureWarning, ConfigError  # noqa: E402
from lzero.policy.alphazero import AlphaZeroPolicy  # noqa: E402
from lzero.policy.alphazero_config import compile_alphazero_config  # noqa: E402
from lzero.policy.board_game import BoardGame  # noqa: E402
from lzero.worker.ray_alphazero_collector import RayAlphaZeroCollector  # noqa: E402
from zoo.board_games.tictactoe.config import tictactoe_alphazero_sp_mode_config as sp  # noqa: E402

CREATE = copy.deepcopy(sp.create_config)


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="error")
    yield
    ray.shutdown()


def ray_main(exp_name, actor_num=2, **manager):
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


def _dead(pid, wait=15.0):
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_distributed_run_writes_checkpoints(tmp_path):
    # one actor: each costs seconds to start (torch, numba caches) on a loaded 2-core machine
    main = ray_main(tmp_path / "run", actor_num=1)
    policy = train_alphazero([main, CREATE], seed=0, max_env_step=60)
    ckpt = tmp_path / "run" / "ckpt"
    assert (ckpt / "ckpt_last.pth.tar").is_file() and (ckpt / "iteration_2.pth.tar").is_file()
    assert policy.train_iter >= 4  # at least two collect phases were learned from
    assert ray.is_initialized()  # the test's Ray: used, not shut down by the run


def test_killed_actor_is_reported_and_replaced_while_the_other_plays_on():
    cfg = compile_alphazero_config([ray_main("unused", weight_sync_freq=1), CREATE])
    from lzero.envs.registry import create_env

    game = BoardGame.from_env(create_env(cfg.create, cfg.env))
    policy = AlphaZeroPolicy(cfg.policy, game, seed=0)
    collector = RayAlphaZeroCollector(policy, cfg, seed=0)
    first = collector.collect(4)
    assert first["actors"] == [0, 1] and first["episodes"] >= 4
    assert len(first["value"]) == len(first["planes"]) >= 5 * first["episodes"]  # 5+ moves a game
    pids = collector.actor_pids
    ray.kill(collector.actors[0])
    with pytest.warns(
        ActorFailureWarning, match=r"Ray self-play actor 0 \(games \[0, 1\]\) failed"
    ):
        second = collector.collect(4)
        if second["actors"] == [0, 1]:  # its phase had finished before the kill: not lost
            second = collector.collect(4)
    assert second["actors"] == [1] and second["episodes"] >= 2  # the learner keeps going
    third = collector.collect(4)
    assert third["actors"] == [0, 1]  # the replacement plays
    new = collector.actor_pids
    assert new[1] == pids[1] and new[0] != pids[0] and _dead(pids[0])
    collector.close()
    assert all(_dead(pid) for pid in new)


def test_ray_keys_are_checked():
    with pytest.raises(ConfigError, match="expected weight_sync_freq to be a positive int, got 0"):
        compile_alphazero_config([ray_main("x", weight_sync_freq=0), CREATE])
    with pytest.raises(ConfigError, match="unknown key 'actors_num'"):
        compile_alphazero_config([ray_main("x", actors_num=2), CREATE])
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
