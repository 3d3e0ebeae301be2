"""Exact resume of ``train_muzero_with_gym_env``: a run of 2N iterations equals N, a stop, a
resume and N more, bit for bit in ``progress.csv`` (all but the wall time) and in the weights,
the optimizer and the run state (replay buffer, episodes in flight, the envs, every random
stream), on a gym task (CartPole, whose episodes run on across collect phases) and on a board
game in self-play, with PUCT and with Gumbel MuZero, with fast searches and reanalysis."""

from __future__ import annotations

import copy
import csv

import pytest

torch = pytest.importorskip("torch")
from lzero.entry import train_muzero_with_gym_env  # noqa: E402

HALF = 8  # iterations before the stop: a multiple of the updates a collect and of eval_freq
CARTPOLE = dict(
    env=dict(
        env_id="CartPole-v0", collector_env_num=2, evaluator_env_num=2, n_evaluator_episode=2,
        stop_value=1e9,
    ),
    policy=dict(
        model=dict(
            observation_shape=4, action_space_size=2, latent_state_dim=16, hidden_size=32,
            head_hidden_size=16, support_scale=20,
        ),
        num_simulations=4, batch_size=16, num_unroll_steps=3, td_steps=3,
        game_segment_length=10, n_episode=2,
    ),
)  # fmt: skip


def cartpole(exp):
    main = copy.deepcopy(CARTPOLE)
    main["exp_name"] = str(exp)
    create = dict(
        env_manager=dict(type="base"),
        policy=dict(type="muzero", import_names=["lzero.policy.muzero"]),
    )
    return main, create


def board(module_name):
    def build(exp):
        import importlib

        module = importlib.import_module(f"zoo.board_games.tictactoe.config.{module_name}")
        main = copy.deepcopy(module.main_config)
        main.exp_name = str(exp)
        main.env.update(collector_env_num=4, n_evaluator_episode=2)
        main.policy.update(num_simulations=4, batch_size=16, eval_bots=["rule"])
        return main, copy.deepcopy(module.create_config)

    return build


def cartpole_fast(exp):
    """CartPole with playout cap randomisation: the fast searches' stream is saved too."""
    main, create = cartpole(exp)
    main["policy"].update(fast_search_prob=0.5, fast_search_simulations=2)
    return main, create


def tictactoe_reanalyze(exp):
    """Reanalysis (its searches from stored boards, legal moves by the rules) and fast
    searches on a board game in self-play."""
    main, create = board("tictactoe_muzero_sp_mode_config")(exp)
    main.policy.update(reanalyze_ratio=0.5, fast_search_prob=0.5, fast_search_simulations=2)
    return main, create


CASES = {
    "cartpole": cartpole,
    "cartpole_fast": cartpole_fast,
    # The plain TicTacToe self-play run is tictactoe_reanalyze without its two options: the
    # reanalysis case resumes everything it does and more, so it alone runs (18 s less).
    "tictactoe_gumbel": board("tictactoe_gumbel_muzero_sp_mode_config"),
    "tictactoe_reanalyze": tictactoe_reanalyze,
}


def config(case, exp):
    main, create = CASES[case](exp)
    main["policy"].update(update_per_collect=4, eval_freq=HALF, torch_num_threads=1)
    main["policy"].pop("replay_ratio", None)
    return [main, create]


def rows(exp):
    with open(exp / "progress.csv") as f:
        timings = ("wall_time", "reanalyze_s")  # the only columns a resumed run may change
        return [{k: v for k, v in r.items() if k not in timings} for r in csv.DictReader(f)]


def last(exp):
    return torch.load(exp / "ckpt" / "ckpt_last.pth.tar", weights_only=True)


def assert_same(a, b, where=""):
    if isinstance(a, torch.Tensor):
        assert torch.equal(a, b), where
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            assert_same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}/{i}")
    else:
        assert a == b, where


def without_envs(run_state):
    """The run state less the pickled envs: the same env need not pickle to the same bytes
    (its scratch buffers, the pickler's memo), so the envs are compared by what they play."""
    state = dict(run_state)
    for part in ("collector", "evaluator"):
        if part in state:
            state[part] = dict(state[part])
            if part == "collector":
                state[part]["envs"] = {k: v for k, v in state[part]["envs"].items() if k != "envs"}
            else:
                state[part].pop("envs")
    return state


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_stopped_and_resumed_run_equals_one_that_never_stopped(tmp_path, case):
    whole, split = tmp_path / "whole", tmp_path / "split"
    train_muzero_with_gym_env(config(case, whole), seed=3, max_train_iter=2 * HALF)
    train_muzero_with_gym_env(config(case, split), seed=3, max_train_iter=HALF)
    assert last(split)["train_iter"] == HALF and "run_state" in last(split)
    train_muzero_with_gym_env(config(case, split), max_train_iter=2 * HALF, resume=split)
    assert rows(whole) == rows(split) and len(rows(whole)) >= 2
    if case == "tictactoe_reanalyze":  # its cost, logged per iteration
        with open(whole / "progress.csv") as f:
            spent = [float(r["reanalyze_s"]) for r in csv.DictReader(f) if r["reanalyze_s"]]
        assert spent and min(spent) > 0
    a, b = last(whole), last(split)
    for key in ("model", "target_model", "optimizer", "train_iter", "env_step"):
        assert_same(a[key], b[key], key)
    assert_same(without_envs(a["run_state"]), without_envs(b["run_state"]), "run_state")
    # The envs: both runs go on from their last saves, episodes in flight and all, the same.
    for exp in (whole, split):
        train_muzero_with_gym_env(config(case, exp), max_train_iter=3 * HALF, resume=exp)
    assert rows(whole) == rows(split)
    a, b = last(whole), last(split)
    assert a["train_iter"] == 3 * HALF
    for key in ("model", "target_model", "optimizer", "env_step"):
        assert_same(a[key], b[key], key)


def test_a_run_state_of_another_format_is_refused(tmp_path):
    from lzero.errors import ConfigError

    exp = tmp_path / "run"
    train_muzero_with_gym_env(config("cartpole", exp), seed=0, max_train_iter=4)
    state = last(exp)
    state["run_state"]["format"] = 0
    torch.save(state, exp / "ckpt" / "ckpt_last.pth.tar")
    with pytest.raises(ConfigError, match=r"run state of format 0 \(older than this version.s 1\)"):
        train_muzero_with_gym_env(config("cartpole", exp), max_train_iter=8, resume=exp)
