"""gymnasium.make_vec on our ids: the pool behind gymnasium's VectorEnv, with NEXT_STEP
autoreset, seeding, and gymnasium's own vector wrappers on top."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import lzero  # noqa: F401 - registers the ids
from lzero.envs import make
from lzero.envs.gymnasium_vector import PoolVectorEnv


def first_legal(mask):
    return np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in mask])


def make_vec(env_id, n, **kw):
    return gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kw)


def test_make_vec_is_the_pool_with_next_step_autoreset():
    vec = make_vec("lzero/Connect4-v0", 4)
    assert isinstance(vec.unwrapped, PoolVectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    pool = make(
        "connect4", env_type="gymnasium", num_envs=4, seed=1, battle_mode="play_with_bot_mode"
    )
    obs, _ = vec.reset(seed=1)
    ref, _ = pool.reset()
    ended = np.zeros(4, bool)
    for _ in range(30):
        actions = first_legal(obs["action_mask"])
        obs, reward, term, trunc, _ = vec.step(actions)
        ref, ref_reward, ref_term, _, _ = pool.step(actions)
        np.testing.assert_array_equal(obs["board"], ref["board"])
        np.testing.assert_array_equal(reward, ref_reward)
        if ended.any():  # the step after an episode's end starts a new one
            assert ((obs["board"] != 0).sum(axis=(1, 2))[ended] == 0).all()
        ended = term | trunc
    vec.close()
    pool.close()


def test_reset_seed_replays_and_wrappers_work():
    """``reset(seed=...)`` replays the random bot's games (seed 8 plays others), and
    gymnasium's episode statistics wrap the pool."""

    def run(seed):
        vec = RecordEpisodeStatistics(make_vec("lzero/TicTacToe-v0", 3, bot_action_type="random"))
        obs, _ = vec.reset(seed=seed)
        boards, returns = [], []
        for _ in range(12):
            obs, _, _, _, info = vec.step(first_legal(obs["action_mask"]))
            boards.append(obs["board"].copy())
            if "episode" in info:
                returns.append(info["episode"]["r"][info["_episode"]].tolist())
        vec.close()
        return np.array(boards), returns

    (boards, returns), (again, returns_again) = run(7), run(7)
    np.testing.assert_array_equal(boards, again)
    assert returns == returns_again and returns
    assert not np.array_equal(boards, run(8)[0])


def test_gymnasium_vector_wrappers_stack_on_make_vec():
    """A smoke run of gymnasium's own vector wrappers, stacked on the pool: observations
    filtered, flattened and normalised, rewards clipped and normalised, infos as lists, episode
    statistics; the flattened mask still gives legal moves, and the recorded returns are the
    clipped rewards summed."""
    from gymnasium.wrappers import vector as wrappers

    n = 3
    base = make_vec("lzero/TicTacToe-v0", n)
    flat = wrappers.FlattenObservation(
        wrappers.FilterObservation(base, ["action_mask", "observation"])
    )
    stats = wrappers.RecordEpisodeStatistics(wrappers.ClipReward(flat, -0.5, 0.5))
    env = wrappers.DictInfoToList(wrappers.NormalizeReward(stats))
    assert env.single_observation_space.shape == (9 + 27,)
    obs, infos = env.reset(seed=3)
    assert obs.shape == (n, 36) and isinstance(infos, list) and len(infos) == n
    returns = []
    for _ in range(30):
        mask = obs[:, :9]  # action_mask comes first in the flattened Dict
        obs, reward, term, trunc, infos = env.step(first_legal(mask))
        assert np.isfinite(reward).all()
        returns += [float(info["episode"]["r"]) for info in infos if "episode" in info]
    # TicTacToe against the bot returns -1, 0 or +1 once, at the end: clipped to +-0.5.
    assert returns and set(returns) <= {-0.5, 0.0, 0.5}
    normalised = wrappers.NormalizeObservation(flat)
    obs, _ = normalised.reset(seed=0)
    obs, *_ = normalised.step(first_legal(np.ones((n, 9))))
    assert obs.shape == (n, 36) and np.isfinite(obs).all()
    env.close()


def test_reset_takes_gymnasiums_seed_list_and_refuses_others_without_breaking_the_env():
    vec = make_vec("lzero/Connect4-v0", 3, bot_action_type="random")  # the seeds show
    seeds = [9, 6, 5]
    obs, _ = vec.reset(seed=seeds)
    singles = [
        make(
            "connect4",
            env_type="gymnasium",
            num_envs=1,
            seed=s,
            battle_mode="play_with_bot_mode",
            bot_action_type="random",
        )
        for s in seeds
    ]
    single_obs = [p.reset()[0] for p in singles]
    for _ in range(6):  # env i plays as a pool of its own seeded with seeds[i] (the bot's draws)
        actions = first_legal(obs["action_mask"])
        obs, *_ = vec.step(actions)
        for i, pool in enumerate(singles):
            single_obs[i], *_ = pool.step(actions[i : i + 1])
            np.testing.assert_array_equal(obs["board"][i], single_obs[i]["board"][0])
    for seed in ([5, 6], [5, None, 7], "5", [1.5, 2, 3]):
        with pytest.raises(ValueError, match="a list of 3 ints, one per env"):
            vec.reset(seed=seed)
    obs, _ = vec.reset(seed=[None, None, None])  # the env is still open and usable
    assert obs["board"].shape == (3, 6, 7)
    vec.close()


def test_reset_mask_resets_those_envs_alone_and_returns_the_whole_batch():
    vec = make_vec("lzero/Connect4-v0", 3)
    obs, _ = vec.reset(seed=2)
    for _ in range(3):
        obs, *_, info = vec.step(first_legal(obs["action_mask"]))
    assert info["elapsed_step"].tolist() == [3, 3, 3]
    before = {k: np.array(v, copy=True) for k, v in obs.items()}
    mask = np.array([False, True, False])
    after, info = vec.reset(options={"reset_mask": mask})
    for key in before:  # the other envs' rows as they were; the returned arrays not changed
        np.testing.assert_array_equal(after[key][~mask], before[key][~mask])
        np.testing.assert_array_equal(obs[key], before[key])
    assert info["_elapsed_step"].tolist() == [False, True, False]
    assert info["env_id"][1] == 1 and info["elapsed_step"][1] == 0
    _, *_, info = vec.step(first_legal(after["action_mask"]))
    assert info["elapsed_step"].tolist() == [4, 1, 4]
    for options in (
        {"bogus": 1},
        {"reset_mask": [True, False, False]},
        {"reset_mask": ~mask & mask},
    ):
        try:
            vec.reset(options=options)
        except ValueError as err:
            assert "reset_mask" in str(err)
        else:
            raise AssertionError(f"options {options!r} were accepted")
    try:
        vec.reset(seed=1, options={"reset_mask": mask})
    except ValueError as err:
        assert "no seed with options['reset_mask']" in str(err)
    else:
        raise AssertionError("a seed with a mask was accepted")
    vec.close()


@pytest.mark.parametrize(
    ("env_id", "kw"),
    [("lzero/Connect4-v0", dict(bot_action_type="random")), ("lzero/CartPoleLightZero-v0", {})],
)
def test_row_i_of_make_vec_seeded_s_is_make_seeded_s_plus_i(env_id, kw):
    """As in gymnasium's sync and async vector envs: ``make_vec(id).reset(seed=s)``'s env ``i``
    plays as ``make(id).reset(seed=s + i)`` (the single env seeded its zoo env from a number
    drawn from ``np_random`` instead, so the two differed)."""
    vec = make_vec(env_id, 2, **kw)
    obs, _ = vec.reset(seed=10)
    singles = [gymnasium.make(env_id, **kw) for _ in range(2)]
    firsts = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    done = np.zeros(2, bool)
    for _ in range(12):
        for i, single_obs in enumerate(firsts):
            if not done[i]:
                for key, value in single_obs.items():
                    np.testing.assert_array_equal(obs[key][i], value, err_msg=f"env {i} {key}")
        actions = first_legal(obs["action_mask"]) if "action_mask" in obs else np.zeros(2, int)
        obs, _, term, trunc, _ = vec.step(actions)
        for i, env in enumerate(singles):
            if not done[i]:
                firsts[i], _, t, u, _ = env.step(int(actions[i]))
        done |= term | trunc
    vec.close()


def test_num_envs_is_checked_not_rounded():
    """``make_vec``'s ``num_envs`` is checked as ``lzero.envs.make`` checks it."""
    for bad in (2.5, "2", 0, True):
        with pytest.raises(ValueError, match="num_envs: expected a positive int"):
            make_vec("lzero/Connect4-v0", bad)


def test_unseeded_vector_envs_play_other_games_as_gymnasiums_do():
    """Without a seed, each vector env draws its own (gymnasium's vector envs take fresh
    entropy); with one, they replay."""

    def first_games(**kw):
        vec = make_vec("lzero/TicTacToe-v0", 4, bot_action_type="random")
        obs, _ = vec.reset(**kw)
        boards = []
        for _ in range(3):
            obs, *_ = vec.step(np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]))
            boards.append(obs["observation"].copy())
        vec.close()
        return np.stack(boards)

    assert np.array_equal(first_games(seed=3), first_games(seed=3))
    runs = [first_games() for _ in range(3)]
    assert not (np.array_equal(runs[0], runs[1]) and np.array_equal(runs[1], runs[2]))
