"""MuZero policy: config checks, learning on a fixed batch, search output, checkpoints."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from lzero.errors import ConfigError  # noqa: E402
from lzero.mcts.buffer import EpisodeRecorder, MuZeroGameBuffer  # noqa: E402
from lzero.policy import MuZeroPolicy, policy_config  # noqa: E402

SMALL = dict(
    model=dict(
        observation_shape=3,
        action_space_size=2,
        latent_state_dim=16,
        hidden_size=32,
        head_hidden_size=16,
        support_scale=20,
    ),
    num_simulations=8,
    batch_size=32,
    num_unroll_steps=3,
    td_steps=3,
    game_segment_length=10,
)


def filled_buffer(seed=0, **buffer_options):
    cfg = policy_config(SMALL)
    buf = MuZeroGameBuffer(
        replay_buffer_size=1000,
        segment_length=10,
        num_unroll_steps=3,
        td_steps=3,
        discount_factor=cfg.discount_factor,
        observation_shape=3,
        action_space_size=2,
        seed=seed,
        **buffer_options,
    )
    rng = np.random.default_rng(seed)
    for _ in range(6):
        # Reward 1 for action 1, 0 for action 0; the observation is the step's noise.
        rec = EpisodeRecorder(rng.normal(size=3), segment_length=10, pad=6)
        for _ in range(20):
            a = int(rng.integers(2))
            rec.append(a, float(a), rng.normal(size=3), np.array([0.2, 0.8]), 0.0)
            buf.push(rec.ready_segments())
        buf.push(rec.final_segments(truncated=True))
    return buf


def test_loss_on_a_fixed_batch_falls():
    torch.manual_seed(0)
    policy = MuZeroPolicy(SMALL)
    batch = filled_buffer().sample(32)
    first = policy.learn(batch)
    for _ in range(60):
        last = policy.learn(batch)
    assert last["total_loss"] < 0.5 * first["total_loss"]
    assert last["reward_loss"] < first["reward_loss"]
    assert policy.train_iter == 61


def test_sgd_and_lightzeros_piecewise_learning_rate():
    # LightZero's MuZero defaults: SGD with momentum, the rate x1, x0.1 and x0.01 over the
    # thirds of threshold_training_steps_for_final_lr gradient steps.
    torch.manual_seed(0)
    policy = MuZeroPolicy(
        dict(
            SMALL, optim_type="SGD", momentum=0.5, learning_rate=0.2,
            piecewise_decay_lr_scheduler=True, threshold_training_steps_for_final_lr=6,
        )
    )  # fmt: skip
    assert type(policy.optimizer) is torch.optim.SGD
    assert policy.optimizer.defaults["momentum"] == 0.5
    batch = filled_buffer().sample(32)
    rates, losses = [], []
    for _ in range(7):
        losses.append(policy.learn(batch)["total_loss"])
        rates.append(policy.optimizer.param_groups[0]["lr"])
    assert rates == pytest.approx([0.2, 0.2, 0.02, 0.02, 0.002, 0.002, 0.002])
    assert losses[-1] < losses[0]
    plain = MuZeroPolicy(SMALL)  # Adam at a constant rate, as before
    assert type(plain.optimizer) is torch.optim.Adam
    plain.learn(batch)
    plain.learn(batch)
    assert plain.optimizer.param_groups[0]["lr"] == SMALL.get("learning_rate", 3e-3)


def _policy_entropy(policy, batch):
    with torch.no_grad():
        logits = policy.model.initial_inference(torch.as_tensor(batch["obs"])).policy_logits
        p = torch.softmax(logits, -1)
        return float(-(p * p.log()).sum(-1).mean())


@pytest.mark.parametrize(
    "key, value", [("policy_entropy_weight", 2.0), ("policy_label_smoothing", 0.9)]
)
def test_lightzeros_entropy_bonus_and_label_smoothing_widen_the_policy(key, value):
    # LightZero's MuZero loss terms (refused as unknown before). The buffer's targets put 0.8
    # on action 1; either term pulls the learnt policy towards uniform (entropy log 2).
    batch = filled_buffer().sample(32)
    entropies = {}
    for v in (0.0, value):
        torch.manual_seed(0)
        policy = MuZeroPolicy(dict(SMALL, **{key: v}))
        for _ in range(60):
            policy.learn(batch)
        entropies[v] = _policy_entropy(policy, batch)
    assert entropies[value] > entropies[0.0] + 0.05, entropies
    assert entropies[value] <= np.log(2) + 1e-6


def test_lightzeros_reanalysis_and_off_switch_keys_are_accepted():
    # ReZero's configs (policy type muzero) and LightZero's MuZero default_config set these;
    # at values that leave off what is not built here, they compile (with no effect).
    keys = dict(
        reanalyze_noise=True, reuse_search=True, collect_with_pure_policy=False,
        buffer_reanalyze_freq=1, multi_gpu=False, use_priority=False, priority_prob_alpha=0.6,
        priority_prob_beta=0.4, use_max_priority_for_new_data=True, ignore_done=False,
        random_collect_episode_num=0, sampled_algo=False, gumbel_algo=False,
    )  # fmt: skip
    cfg = policy_config(dict(SMALL, **keys))
    assert {k: cfg[k] for k in keys} == keys


def test_search_respects_mask_and_returns_distributions():
    torch.manual_seed(0)
    policy = MuZeroPolicy({**SMALL, "model": {**SMALL["model"], "action_space_size": 3}})
    obs = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    mask = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1], [0, 0, 1]], np.int8)
    rng = np.random.default_rng(0)
    for explore in (True, False):
        actions, dist, values = policy.search(obs, mask, rng=rng, explore=explore)
        assert mask[np.arange(4), actions].all()
        np.testing.assert_allclose(dist.sum(1), 1.0, rtol=1e-6)
        assert (dist[mask == 0] == 0).all() and values.shape == (4,)


def test_gumbel_muzero_plays_the_halving_winner_and_returns_the_improved_policy():
    """Type 'gumbel_muzero': the search is Gumbel MuZero's; its actions are the halving
    winners (no temperature), its policy the improved one (not the visit counts), and the
    same generator gives the same draws."""
    torch.manual_seed(0)
    cfg = {**SMALL, "type": "gumbel_muzero", "model": {**SMALL["model"], "action_space_size": 3}}
    policy = MuZeroPolicy(cfg)
    assert policy.cfg.gumbel_algo and policy.mcts.rule == 2
    obs = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    mask = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1], [0, 0, 1]], np.int8)
    calls = []
    search = policy.mcts.search
    policy.mcts.search = lambda *a, **k: calls.append((k, out := search(*a, **k))) or out
    for explore in (True, False):
        actions, dist, _ = policy.search(obs, mask, rng=np.random.default_rng(3), explore=explore)
        kwargs, out = calls[-1]
        assert kwargs["noise"] is None and (kwargs["gumbel"] is not None) == explore
        np.testing.assert_array_equal(actions, out.action)
        np.testing.assert_allclose(dist, out.improved_policy, rtol=1e-6)
        assert mask[np.arange(4), actions].all() and (dist[mask == 0] == 0).all()
    again, _, _ = policy.search(obs, mask, rng=np.random.default_rng(3), explore=True)
    np.testing.assert_array_equal(calls[0][1].action, again)


# LightZero's MountainCar MuZero config (zoo/classic_control/mountain_car/config/
# mtcar_muzero_config.py) turns epsilon-greedy collection on with these keys.
MOUNTAIN_CAR_EPS = dict(
    eps_greedy_exploration_in_collect=True, type="linear", start=1.0, end=0.05, decay=int(1e5)
)


@pytest.mark.parametrize(
    "eps, steps, expected",
    [
        # DI-engine's get_epsilon_greedy_fn, worked by hand.
        (MOUNTAIN_CAR_EPS, [0, 50_000, 100_000, 300_000], [1.0, 0.525, 0.05, 0.05]),
        (
            {**MOUNTAIN_CAR_EPS, "type": "exp", "start": 0.5, "end": 0.1, "decay": 1000},
            [0, 1000, 2000],
            [0.5, 0.1 + 0.4 / np.e, 0.1 + 0.4 / np.e**2],
        ),
        ({**MOUNTAIN_CAR_EPS, "eps_greedy_exploration_in_collect": False}, [0, 10], [None, None]),
    ],
)
def test_collect_epsilon_follows_lightzeros_schedule(eps, steps, expected):
    policy = MuZeroPolicy({**SMALL, "eps": eps})
    got = [policy.collect_epsilon(s) for s in steps]
    if expected[0] is None:
        assert got == expected
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_epsilon_greedy_search_takes_the_most_visited_or_a_uniform_legal_action():
    """epsilon 0: always the most visited action; epsilon 1: uniform over the legal ones
    (never an illegal one); the visit distribution (the policy target) is the search's
    either way."""
    torch.manual_seed(0)
    policy = MuZeroPolicy({**SMALL, "model": {**SMALL["model"], "action_space_size": 4}})
    obs = np.random.default_rng(0).normal(size=(1, 3)).astype(np.float32)
    obs = np.repeat(obs, 400, axis=0)
    mask = np.tile(np.array([1, 0, 1, 1], np.int8), (400, 1))
    a0, dist0, _ = policy.search(obs, mask, rng=np.random.default_rng(1), explore=True, epsilon=0)
    assert np.array_equal(a0, dist0.argmax(1))
    a1, dist1, _ = policy.search(obs, mask, rng=np.random.default_rng(1), explore=True, epsilon=1)
    counts = np.bincount(a1, minlength=4)
    assert counts[1] == 0 and (np.abs(counts[[0, 2, 3]] - 400 / 3) < 45).all(), counts
    np.testing.assert_allclose(dist1, dist0)  # same rng seed: same root noise, same search


def test_checkpoint_round_trips_with_weights_only(tmp_path):
    torch.manual_seed(0)
    a = MuZeroPolicy(SMALL)
    batch = filled_buffer().sample(32)
    for _ in range(3):
        a.learn(batch)
    path = tmp_path / "ckpt.pth.tar"
    torch.save(a.state_dict(), path)
    torch.manual_seed(1)
    b = MuZeroPolicy(SMALL)
    b.load_state_dict(torch.load(path, weights_only=True))
    assert b.train_iter == 3
    x = torch.randn(5, 3)
    for ma, mb in ((a.model, b.model), (a.target_model, b.target_model)):
        oa, ob = ma.initial_inference(x), mb.initial_inference(x)
        assert torch.equal(oa.value_logits, ob.value_logits) and torch.equal(
            oa.policy_logits, ob.policy_logits
        )
    # Training continues identically (same optimizer state).
    assert a.learn(batch)["total_loss"] == b.learn(batch)["total_loss"]


@pytest.mark.parametrize(
    ("user", "match"),
    [
        ({"lerning_rate": 0.1}, r"unknown key 'lerning_rate'; did you mean 'learning_rate'\?"),
        (
            {"model": {"latent_dim": 3}},
            r"unknown key 'latent_dim'; did you mean 'latent_state_dim'\?",
        ),
        (
            {"update_per_collect": 10, "replay_ratio": 0.5},
            "expected only one of update_per_collect and replay_ratio",
        ),
        ({"cuda": "yes"}, "expected cuda to be True or False, got 'yes'"),
        ({"use_wandb": True}, r"expected use_wandb=False \(runs log to TensorBoard .*got True"),
        (
            {"piecewise_decay_lr_scheduler": "yes"},
            r"expected piecewise_decay_lr_scheduler in \[None, False, True\], got 'yes'",
        ),
        ({"lr_piecewise_constant_decay": 1}, r"in \[False, True\], got 1"),
        ({"optim_type": "RMSprop"}, r"expected optim_type in \['SGD', 'Adam', 'AdamW'\]"),
        ({"momentum": -0.1}, "expected momentum to be a non-negative number, got -0.1"),
        # LightZero's switches of features not built here: named with the reason.
        ({"multi_gpu": True}, r"expected multi_gpu=False \(this build trains on one CPU\)"),
        ({"use_priority": True}, r"expected use_priority=False \(the replay samples unif"),
        ({"collect_with_pure_policy": True}, r"expected collect_with_pure_policy=False \(co"),
        ({"gumbel_algo": True}, r"gumbel_algo=True disagrees with type 'muzero'; expected gumbe"),
        ({"type": "gumbel_muzero", "max_num_considered_actions": 0}, "max_num_considered_act"),
        (
            {"type": "gumbel_muzero", "gumbel_scale": -1},
            "expected gumbel_scale a finite number >= 0",
        ),
        ({"random_collect_episode_num": 5}, r"expected random_collect_episode_num=0 \(rand"),
        ({"policy_entropy_weight": -0.1}, "expected policy_entropy_weight to be a non-negative"),
        ({"policy_label_smoothing": 1}, r"expected policy_label_smoothing in \[0, 1\), got 1"),
        ({"ignore_done": 0}, r"expected ignore_done=False \(an episode's end is its end"),
        (
            {"piecewise_decay_lr_scheduler": False, "lr_piecewise_constant_decay": True},
            "expected one of piecewise_decay_lr_scheduler .LightZero's other name of "
            "lr_piecewise_constant_decay. and lr_piecewise_constant_decay, or both equal",
        ),
        (
            {"model": {"discrete_action_encoding_type": "not_one_hot"}},
            r"expected model.discrete_action_encoding_type='one_hot' \(actions are encoded one",
        ),
        (
            {"model": {"value_head_hidden_channels": [8], "fc_value_layers": [16]}},
            "expected one of value_head_hidden_channels .* and fc_value_layers",
        ),
        (
            {"model": {"value_support_range": (-10.0, 10.0, 1.0)}},
            r"expected value_support_range \(start, stop, step\) = \(-s, s \+ 1, 1\)",
        ),
        (
            {"model": {"value_support_range": (-10, 11, 2)}},
            r"expected value_support_range \(start, stop, step\)",
        ),
        (
            {"model": {"value_support_range": (-10, 11, 1), "reward_support_range": (-5, 6, 1)}},
            "to give one support",
        ),
        (
            {"model": {"value_support_range": (-10, 11, 1), "support_scale": 300}},
            r"to give one support .*support_scale=300",
        ),
        ({"ssl_loss_weight": -1}, "expected ssl_loss_weight to be a number >= 0, got -1"),
        ({"model_path": 3}, "expected model_path to be a checkpoint path or None, got 3"),
        ({"num_simulations": 0}, "expected num_simulations to be a positive int, got 0"),
        ({"discount_factor": 1.5}, r"expected discount_factor to be a number in \(0, 1\], got 1.5"),
        # A string raised a TypeError from the comparison instead of saying what is allowed.
        (
            {"discount_factor": "0.99"},
            r"expected discount_factor to be a number in \(0, 1\], got '0.99'",
        ),
        # Neither set: the loop would crash computing 'env_steps * None' after a collect.
        (
            {"replay_ratio": None},
            "expected one of update_per_collect and replay_ratio, got neither",
        ),
        # A zero or negative count silently trained nothing (or a ratio's 'max(1, ...)').
        (
            {"update_per_collect": 0, "replay_ratio": None},
            "expected update_per_collect to be a positive int or None, got 0",
        ),
        ({"replay_ratio": -0.5}, "expected replay_ratio to be a positive number, got -0.5"),
        ({"replay_ratio": "0.25"}, "expected replay_ratio to be a positive number, got '0.25'"),
        # torch's own message ('Invalid learning rate: -1.0') came after the envs launched.
        ({"learning_rate": -1.0}, "expected learning_rate to be a positive number, got -1.0"),
        ({"weight_decay": -1e-4}, "expected weight_decay to be a non-negative number"),
        ({"model": {"model_type": "rnn"}}, r"expected model.model_type in \['mlp', 'conv'\]"),
        ({"env_type": "atari"}, r"expected env_type in \['not_board_games', 'board_games'\]"),
        ({"use_augmentation": True}, r"expected use_augmentation=False \(image .*got True"),
        ({"model": {"frame_stack_num": 4}}, r"expected model.frame_stack_num=1 \(an obs.*got 4"),
        ({"model": {"downsample": 1}}, r"expected model.downsample=False \(the conv .*got 1"),
        ({"model": {"norm_type": "LN"}}, r"expected model.norm_type='BN' \(the conv .*got 'LN'"),
        (
            {"unvisited_value": "parent"},
            r"expected unvisited_value in \['zero', 'mean_q'\], got 'parent'",
        ),
        (
            {"model": {"model_type": "conv", "observation_shape": 27}},
            r"expected model.observation_shape \(C, H, W\) for model_type 'conv', got 27",
        ),
        (
            {"model": {"support_scale": 10, "value_support_size": 601}},
            r"expected model.value_support_size = 2 \* support_scale \+ 1 = 21, got 601",
        ),
        (
            {"model": {"model_type": "conv", "observation_shape": [3, 3, 3], "image_channel": 4}},
            r"expected model.image_channel = observation_shape\[0\] = 3, got 4",
        ),
        ({"eps": {"type": "cosine"}}, r"expected eps.type in \['linear', 'exp'\], got 'cosine'"),
        ({"eps": {"end": 1.5}}, r"expected 0 <= eps.end <= 1, got 1.5"),
        ({"eps": {"decay": 0}}, r"expected eps.decay > 0 env steps, got 0"),
        ({"eps": {"eps_greedy": True}}, r"eps_greedy"),  # a misspelt key is unknown
        ({"torch_num_threads": 0}, "expected torch_num_threads to be a positive int, got 0"),
        ({"model": {"num_channels": 0}}, "model: expected num_channels to be a positive int"),
        ({"model": {"latent_state_dim": -8}}, "expected latent_state_dim to be a positive int"),
        ({"model": {"num_res_blocks": -1}}, "expected num_res_blocks to be an int >= 0, got -1"),
        (
            {"learn_torch_num_threads": 1.5},
            "expected learn_torch_num_threads to be a positive int or None, got 1.5",
        ),
    ],
)
def test_config_errors(user, match):
    with pytest.raises(ConfigError, match=match):
        policy_config(user)


# LightZero's own TicTacToe MuZero policy dict (zoo/board_games/tictactoe/config/
# tictactoe_muzero_bot_mode_config.py), but cuda: its keys are ours or documented as inert.
LIGHTZERO_TICTACTOE = dict(
    model=dict(
        observation_shape=(3, 3, 3), action_space_size=9, image_channel=3, frame_stack_num=1,
        downsample=False, representation_network_type="conv_res_blocks", num_res_blocks=1,
        num_channels=16, fc_reward_layers=[8], fc_value_layers=[8], fc_policy_layers=[8],
        support_scale=10, reward_support_size=21, value_support_size=21, model_type="conv",
    ),
    env_type="board_games", num_simulations=8, reanalyze_ratio=0.3, use_augmentation=False,
    game_segment_length=5, td_steps=9, num_unroll_steps=3, discount_factor=1,
    update_per_collect=50, replay_ratio=None, batch_size=16, manual_temperature_decay=True,
    lr_piecewise_constant_decay=False, optim_type="Adam", learning_rate=0.003,
    grad_clip_value=0.5, n_episode=8, eval_freq=2000, collector_env_num=8, evaluator_env_num=5,
    replay_buffer_size=int(1e5),
)  # fmt: skip


# LightZero's TicTacToe MuZero policy dict as its current configs write it (newer key names:
# zoo/board_games/tictactoe/config/tictactoe_muzero_bot_mode_config.py at 2026-08).
LIGHTZERO_TICTACTOE_NEWER = dict(
    model=dict(
        observation_shape=(3, 3, 3), action_space_size=9, image_channel=3, frame_stack_num=1,
        downsample=False, representation_network_type="conv_res_blocks", num_res_blocks=1,
        num_channels=16, reward_head_hidden_channels=[8], value_head_hidden_channels=[8],
        policy_head_hidden_channels=[8], reward_support_range=(-10.0, 11.0, 1.0),
        value_support_range=(-10.0, 11.0, 1.0), model_type="conv",
    ),
    model_path=None, cuda=True, env_type="board_games", action_type="varied_action_space",
    game_segment_length=5, num_simulations=8, reanalyze_ratio=0.0, use_augmentation=False,
    td_steps=9, num_unroll_steps=3, discount_factor=1, update_per_collect=50,
    replay_ratio=None, batch_size=16, manual_temperature_decay=True, optim_type="Adam",
    piecewise_decay_lr_scheduler=False, learning_rate=0.003, grad_clip_value=0.5,
    n_episode=8, eval_freq=2000, replay_buffer_size=int(1e5), collector_env_num=8,
    evaluator_env_num=5,
)  # fmt: skip


def test_lightzeros_newer_key_names_set_ours():
    with pytest.warns(UserWarning, match="cuda=True, but this build trains on the CPU only"):
        cfg = policy_config(LIGHTZERO_TICTACTOE_NEWER)
    m = cfg.model
    assert (m.fc_reward_layers, m.fc_value_layers, m.fc_policy_layers) == ([8], [8], [8])
    assert m.support_scale == 10 and cfg.lr_piecewise_constant_decay is False
    old = policy_config(LIGHTZERO_TICTACTOE)  # the older names: the same network
    torch.manual_seed(0)
    shapes = {k: v.shape for k, v in MuZeroPolicy(old).model.state_dict().items()}
    with pytest.warns(UserWarning):
        newer = MuZeroPolicy(LIGHTZERO_TICTACTOE_NEWER).model.state_dict()
    assert {k: v.shape for k, v in newer.items()} == shapes


@pytest.mark.parametrize(("shape", "kind"), [(4, "mlp"), ((3, 6, 7), "conv"), ([3, 3, 3], "conv")])
def test_model_type_follows_the_observation_shape_when_not_given(shape, kind):
    # LightZero's board-game MuZero configs leave model_type at its default, 'conv'.
    assert policy_config({"model": {"observation_shape": shape}}).model.model_type == kind


def test_update_per_collect_alone_wins_over_the_default_replay_ratio():
    # LightZero's CartPole config sets update_per_collect=100 and leaves replay_ratio at its
    # default; the compiled policy config compiles again (as the policy does with it).
    cfg = policy_config({"update_per_collect": 100})
    assert (cfg.update_per_collect, cfg.replay_ratio) == (100, None)
    assert policy_config(dict(cfg)).update_per_collect == 100


SSL = dict(
    SMALL,
    model=dict(SMALL["model"], self_supervised_learning_loss=True, proj_hid=24, proj_out=12,
               pred_hid=8, pred_out=12),
    ssl_loss_weight=2,
)  # fmt: skip


def reference_consistency_loss(model, batch):
    """EfficientZero's consistency loss from its definition, on ``model`` in training mode:
    for each sample ``b`` and unroll step ``k`` in the episode, minus the cosine between the
    prediction head's output on the ``k``-times unrolled latent and the projection of the
    representation of the observation at ``t + k``; summed over ``k``, divided by ``K``,
    averaged over ``b``. (The heads' batch norm sees the same batches as in the learner: all
    ``B * K`` unrolled latents at once, and all ``B * K`` observations at once.)"""
    model.train()
    obs, actions = torch.as_tensor(batch["obs"]), torch.as_tensor(batch["action"])
    b_size, k_steps = actions.shape
    with torch.no_grad():
        latent = model.initial_inference(obs).latent_state
        unrolled = []
        for k in range(k_steps):
            latent = model.recurrent_inference(latent, actions[:, k]).latent_state
            unrolled.append(latent)
        target_obs = torch.as_tensor(batch["target_obs"]).reshape(b_size * k_steps, -1)
        target = model.project(model.initial_inference(target_obs).latent_state, with_grad=False)
        predicted = model.project(torch.stack(unrolled, 1).reshape(b_size * k_steps, -1))
    p = predicted.numpy().reshape(b_size, k_steps, -1).astype(np.float64)
    q = target.numpy().reshape(b_size, k_steps, -1).astype(np.float64)
    total = 0.0
    for b in range(b_size):
        for k in range(k_steps):
            if batch["policy_mask"][b, k + 1]:
                cos = p[b, k] @ q[b, k] / (np.linalg.norm(p[b, k]) * np.linalg.norm(q[b, k]))
                total -= cos / k_steps
    return total / b_size


def test_consistency_loss_equals_its_definition_and_enters_the_total():
    torch.manual_seed(0)
    policy = MuZeroPolicy(SSL)
    batch = filled_buffer(consistency_targets=True).sample(32)
    assert batch["policy_mask"][:, 1:].min() == 0  # some unrolled steps past an episode's end
    expected = reference_consistency_loss(copy.deepcopy(policy.model), batch)
    torch.manual_seed(1)  # the same update without the loss: the total differs by 2 * it
    plain = MuZeroPolicy({**SMALL})
    plain.model.load_state_dict(
        {k: v for k, v in policy.model.state_dict().items() if "consistency" not in k}
    )
    got, without = policy.learn(batch), plain.learn(batch)
    assert got["consistency_loss"] == pytest.approx(expected, rel=1e-4, abs=1e-6)
    assert got["total_loss"] == pytest.approx(
        without["total_loss"] + 2 * got["consistency_loss"], rel=1e-5
    )
    assert "consistency_loss" not in without


def test_consistency_loss_trains_the_predicted_branch_only():
    """The observation's branch is a target: its projection is detached, so the loss moves
    the representation only through the unrolled latents (here detached too: no gradient
    reaches the representation, the projection's hidden layers get one through the
    predicted branch)."""
    torch.manual_seed(0)
    policy = MuZeroPolicy(SSL)
    batch = filled_buffer(consistency_targets=True).sample(16)
    t = {k: torch.as_tensor(v) for k, v in batch.items()}
    model = policy.model
    latent = model.initial_inference(t["obs"]).latent_state.detach()
    unrolled = []
    for k in range(t["action"].shape[1]):
        latent = model.recurrent_inference(latent, t["action"][:, k]).latent_state.detach()
        unrolled.append(latent)
    model.zero_grad()
    policy._consistency_loss(unrolled, t["target_obs"], t["policy_mask"]).mean().backward()
    assert all(p.grad is None for p in model.representation.parameters())
    heads = model.consistency_heads
    assert all(
        p.grad is not None and p.grad.abs().sum() > 0 for p in heads.prediction_head.parameters()
    )
    assert heads.projection[0].weight.grad.abs().sum() > 0


def test_consistency_loss_falls_on_a_fixed_batch():
    torch.manual_seed(0)
    policy = MuZeroPolicy(SSL)
    batch = filled_buffer(consistency_targets=True).sample(32)
    first = policy.learn(batch)["consistency_loss"]
    for _ in range(40):
        last = policy.learn(batch)["consistency_loss"]
    assert -1.0 <= last < first - 0.3


def test_consistency_loss_config_and_batch_errors():
    with pytest.raises(ConfigError, match="expected pred_out = proj_out .*pred_out=8, proj_out=12"):
        policy_config(dict(SSL, model=dict(SSL["model"], pred_out=8)))
    with pytest.raises(ConfigError, match="expected proj_hid"):
        policy_config(dict(SSL, model=dict(SSL["model"], proj_hid=0)))
    with pytest.warns(UserWarning, match="ssl_loss_weight=0 builds the consistency heads but"):
        cfg = policy_config(dict(SSL, ssl_loss_weight=0))
    assert cfg.model.self_supervised_learning_loss is True
    with pytest.warns(UserWarning, match="ssl_loss_weight=2 has no effect without model.self_"):
        policy_config(dict(SMALL, ssl_loss_weight=2))
    batch = filled_buffer().sample(8)  # no target_obs
    policy = MuZeroPolicy(SSL)
    before = copy.deepcopy(policy.model.state_dict())
    with pytest.raises(ValueError, match="expected a batch with target_obs"):
        policy.learn(batch)
    assert policy.train_iter == 0
    assert all(torch.equal(v, policy.model.state_dict()[k]) for k, v in before.items())
    with pytest.raises(RuntimeError, match="expected a model built with self_supervised_"):
        MuZeroPolicy(SMALL).model.project(torch.zeros(2, 16))


def test_lightzeros_cartpole_consistency_keys_build_the_heads_without_a_warning():
    # LightZero's CartPole and Pendulum MuZero configs set both (and nothing about widths).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cfg = policy_config(
            {"model": {"self_supervised_learning_loss": True}, "ssl_loss_weight": 2}
        )
    heads = MuZeroPolicy(cfg).model.consistency_heads
    assert [m.out_features for m in heads.projection if isinstance(m, torch.nn.Linear)] == [
        256, 256, 256
    ]  # fmt: skip


def random_tictactoe_games(*, seed, games, moves, two_player, **buffer_options):
    """A buffer (segments of 5, 3 unroll steps, a 9-step horizon) of ``games`` random games of
    ``moves`` moves with TicTacToe's shapes, won by the last mover; and the generator, for more
    draws."""
    rng = np.random.default_rng(seed)
    buf = MuZeroGameBuffer(
        replay_buffer_size=1000, segment_length=5, num_unroll_steps=3, td_steps=9,
        discount_factor=1.0, observation_shape=27, action_space_size=9, seed=seed,
        **buffer_options,
    )  # fmt: skip
    for _ in range(games):
        rec = EpisodeRecorder(rng.random(27), segment_length=5, pad=12)
        for t in range(moves):
            a = int(rng.integers(9))
            to_play = 1 + t % 2 if two_player else -1
            rec.append(a, float(t == moves - 1), rng.random(27), np.full(9, 1 / 9), 0.0, to_play)
            buf.push(rec.ready_segments())
        buf.push(rec.final_segments(truncated=False))
    return buf, rng


def test_conv_policy_on_board_planes_learns_a_fixed_batch_and_searches_two_player():
    torch.manual_seed(0)
    policy = MuZeroPolicy(LIGHTZERO_TICTACTOE)
    assert type(policy.model).__name__ == "MuZeroModel"
    buf, rng = random_tictactoe_games(seed=0, games=8, moves=7, two_player=True)
    batch = buf.sample(16)
    first = policy.learn(batch)
    for _ in range(40):
        last = policy.learn(batch)
    # The policy targets are uniform, so only the value and reward losses can fall.
    assert last["value_loss"] < 0.75 * first["value_loss"]
    assert last["reward_loss"] < 0.75 * first["reward_loss"]
    obs = rng.random((3, 27)).astype(np.float32)
    mask = np.zeros((3, 9), np.int8)
    mask[:, [0, 4, 8]] = 1
    actions, dist, values = policy.search(
        obs, mask, rng=rng, explore=True, to_play=np.array([1, 2, -1])
    )
    assert set(actions.tolist()) <= {0, 4, 8} and values.shape == (3,)
    np.testing.assert_allclose(dist.sum(1), 1.0, rtol=1e-6)


def test_conv_policy_with_the_consistency_loss_learns_under_symmetries():
    """Board planes: the heads project the flattened `[K, H, W]` latent; under the board's
    symmetries the unrolled observations turn with the sample (the buffer's test checks
    that), and the consistency loss falls."""
    from lzero.envs import ENV_REGISTRY
    from lzero.policy.board_game import BoardGame

    torch.manual_seed(0)
    cfg = dict(LIGHTZERO_TICTACTOE, ssl_loss_weight=2)
    cfg["model"] = dict(cfg["model"], self_supervised_learning_loss=True)
    policy = MuZeroPolicy(cfg)
    symmetries = BoardGame.from_env(ENV_REGISTRY.build("tictactoe")).symmetry_permutations()
    buf, _ = random_tictactoe_games(
        seed=0, games=8, moves=7, two_player=True, symmetries=symmetries,
        consistency_targets=True,
    )  # fmt: skip
    batch = buf.sample(16)
    assert batch["target_obs"].shape == (16, policy.cfg.num_unroll_steps, 27)
    first = policy.learn(batch)["consistency_loss"]
    for _ in range(30):
        last = policy.learn(batch)["consistency_loss"]
    assert last < first - 0.2


def test_only_bootstrapped_observations_reach_the_target_network():
    """The n-step value target reads the target network only where its coefficient is not 0:
    observations past an episode's end (NaN here) cannot change the update, and the target
    network is handed exactly the bootstrapped rows."""
    batch = filled_buffer().sample(32)
    coef = batch["bootstrap_coef"].reshape(-1)
    assert 0 < np.count_nonzero(coef) < coef.size  # both kinds of rows in this batch
    poisoned = dict(batch, bootstrap_obs=batch["bootstrap_obs"].copy())
    poisoned["bootstrap_obs"][batch["bootstrap_coef"] == 0] = np.nan
    torch.manual_seed(0)
    policy = MuZeroPolicy(SMALL)
    twin = copy.deepcopy(policy)
    seen = []
    inference = twin.target_model.initial_inference
    twin.target_model.initial_inference = lambda obs: seen.append(obs.clone()) or inference(obs)
    clean, dirty = policy.learn(batch), twin.learn(poisoned)
    assert np.isfinite(dirty["total_loss"]) and dirty == clean
    flat = batch["bootstrap_obs"].reshape(coef.size, -1)
    np.testing.assert_array_equal(torch.cat(seen).numpy(), flat[coef != 0])


def test_board_game_value_targets_need_no_target_network():
    """With the n-step horizon spanning the game (the zoo's board configs), every value target
    is the game's outcome: the target network is not run at all."""
    policy = MuZeroPolicy(LIGHTZERO_TICTACTOE)
    buf, _ = random_tictactoe_games(seed=1, games=4, moves=5, two_player=False)
    batch = buf.sample(8)
    assert not batch["bootstrap_coef"].any()
    calls = []
    policy.target_model.initial_inference = lambda obs: calls.append(obs) or 1 / 0
    assert np.isfinite(policy.learn(batch)["value_loss"]) and calls == []


def test_learning_threads_hold_for_the_block_only():
    policy = MuZeroPolicy(dict(SMALL, learn_torch_num_threads=2))
    assert torch.get_num_threads() == 1
    with policy.learning_threads():
        assert torch.get_num_threads() == 2
    assert torch.get_num_threads() == 1
    with pytest.raises(KeyError), policy.learning_threads():
        raise KeyError("an update failed")
    assert torch.get_num_threads() == 1  # back for the search after a failure too


@pytest.mark.parametrize("conv", [False, True])
def test_search_steps_equal_the_eager_model_and_follow_its_weights(conv):
    """The traced and frozen steps the search runs give the eager model's latent, scalar
    reward and value (``support_to_scalar``) and policy probabilities, and are rebuilt after
    an update changes the weights (a stale copy would keep the old outputs)."""
    from lzero.policy.scaling_transform import support_to_scalar

    torch.manual_seed(0)
    policy = MuZeroPolicy(LIGHTZERO_TICTACTOE if conv else SMALL)
    rng = np.random.default_rng(1)
    if conv:
        buf, _ = random_tictactoe_games(seed=0, games=8, moves=7, two_player=True)
        obs = torch.as_tensor((rng.random((5, 27)) < 0.3).astype(np.float32))
        actions = torch.as_tensor([0, 3, 4, 8, 2])
    else:
        buf = filled_buffer()
        obs = torch.as_tensor(rng.normal(size=(5, 3)).astype(np.float32))
        actions = torch.as_tensor([0, 1, 1, 0, 1])

    def check():
        initial, recurrent = policy.inference_steps()
        policy.model.eval()
        with torch.no_grad():
            ref = policy.model.initial_inference(obs)
            latent, value, probs = initial(obs)
            nxt = policy.model.recurrent_inference(ref.latent_state, actions)
            latent2, reward2, value2, probs2 = recurrent(ref.latent_state, actions)
        s = policy.support
        pairs = [
            (latent, ref.latent_state),
            (value, support_to_scalar(ref.value_logits, s)),
            (probs, torch.softmax(ref.policy_logits, -1)),
            (latent2, nxt.latent_state),
            (reward2, support_to_scalar(nxt.reward_logits, s)),
            (value2, support_to_scalar(nxt.value_logits, s)),
            (probs2, torch.softmax(nxt.policy_logits, -1)),
        ]
        for got, want in pairs:
            np.testing.assert_allclose(got.numpy(), want.numpy(), atol=1e-5)
        return value.clone()

    before = check()
    assert policy.inference_steps() is policy.inference_steps()  # no rebuild without a change
    for _ in range(3):
        policy.learn(buf.sample(16))
    after = check()
    assert not torch.allclose(before, after)


def tictactoe_game():
    from lzero.envs.registry import ENV_REGISTRY
    from lzero.policy.board_game import BoardGame

    return BoardGame.from_env(ENV_REGISTRY.build("tictactoe", {}))


def test_root_rules_need_a_board_game_and_valid_settings():
    with pytest.raises(ConfigError, match=r"expected a board game \(MuZeroPolicy\(\.\.\., game"):
        MuZeroPolicy(dict(LIGHTZERO_TICTACTOE, mcts=dict(tactics=True)))
    with pytest.raises(ConfigError, match="expected three_depth to be an int >= 0, and 0 unless"):
        policy_config(dict(LIGHTZERO_TICTACTOE, mcts=dict(three_depth=2)))
    with pytest.raises(ConfigError, match="expected radius to be an int >= 0, got -1"):
        policy_config(dict(LIGHTZERO_TICTACTOE, mcts=dict(radius=-1)))
    with pytest.raises(ConfigError, match="unknown key 'depth'"):
        policy_config(dict(LIGHTZERO_TICTACTOE, mcts=dict(depth=2)))


def test_root_rules_narrow_the_searched_moves_to_the_win_and_the_blocks():
    """An untrained model with ``mcts.tactics`` takes the one winning move and otherwise only
    searches moves that leave the opponent no win at once (read from the planes, in either
    mover's colour); without it the search spreads over the legal moves."""
    game = tictactoe_game()
    boards = np.array(
        [
            [[1, 1, 0], [2, 2, 0], [0, 0, 0]],  # X to move wins at 2
            [[1, 1, 0], [0, 2, 0], [0, 0, 0]],  # O to move must block at 2
            [[2, 0, 0], [0, 1, 0], [0, 0, 1]],  # O to move: 4-8 threatens nothing yet
        ],
        np.int8,
    )
    to_play = np.array([1, 2, 2])
    obs = game.planes(boards, to_play).reshape(3, -1)
    mask = (boards.reshape(3, -1) == 0).astype(np.int8)
    torch.manual_seed(0)
    plain = MuZeroPolicy(LIGHTZERO_TICTACTOE)
    _, dist, _ = plain.search(obs, mask, rng=None, explore=False, to_play=to_play)
    assert (np.count_nonzero(dist[:2], axis=1) > 1).all()
    torch.manual_seed(0)
    policy = MuZeroPolicy(dict(LIGHTZERO_TICTACTOE, mcts=dict(tactics=True)), game=game)
    actions, dist, _ = policy.search(obs, mask, rng=None, explore=False, to_play=to_play)
    assert actions[:2].tolist() == [2, 2]
    assert dist[0, 2] == dist[1, 2] == 1.0
    # The third position has no threat: every legal move stays.
    assert set(np.flatnonzero(dist[2])) <= set(np.flatnonzero(mask[2]))
    assert np.count_nonzero(dist[2]) > 1
    rng = np.random.default_rng(0)
    actions, dist, _ = policy.search(obs, mask, rng=rng, explore=True, to_play=to_play)
    assert actions[:2].tolist() == [2, 2]  # root noise cannot bring back a dropped move
    # A one-player tree (the agent against the env's bot) reads the mover from the planes.
    actions, _, _ = policy.search(obs, mask, rng=None, explore=False, to_play=np.full(3, -1))
    assert actions[:2].tolist() == [2, 2]


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        (dict(fast_search_prob=1.0, fast_search_simulations=2),
         r"policy config: expected fast_search_prob in \[0, 1\) \(0: off\), got 1.0"),
        (dict(fast_search_prob=0.5),
         r"fast_search_prob > 0 needs fast_search_simulations, an int from 1 to \d+ \(fewer "
         r"than num_simulations=\d+\), got None"),
        (dict(save_ckpt_last_minutes=0),
         "policy config: expected save_ckpt_last_minutes to be a number > 0 or None, got 0"),
    ],
)  # fmt: skip
def test_playout_cap_and_save_interval_settings_are_checked(keys, message):
    with pytest.raises(ConfigError, match=message):
        policy_config(dict(SMALL, **keys))


def test_a_fast_search_spends_its_budget_without_root_noise():
    """``search(num_simulations=n, root_noise=False)``: n simulations a root, and the same
    result whatever the generator (no noise drawn; greedy so no sampling either)."""
    torch.manual_seed(0)
    policy = MuZeroPolicy({**SMALL, "model": {**SMALL["model"], "action_space_size": 3}})
    obs = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    mask = np.ones((4, 3), np.int8)
    runs = [
        policy.search(
            obs,
            mask,
            rng=np.random.default_rng(s),
            explore=True,
            epsilon=0.0,
            num_simulations=2,
            root_noise=False,
        )  # fmt: skip
        for s in (0, 1)
    ]
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert (policy.mcts.tree.node_visits[:, 0] == 3).all()  # the root's own visit and 2 more


def test_reanalysis_gives_the_first_samples_the_current_networks_search_targets():
    """``reanalyze(batch, share)``: the first ``share * B`` samples' policy targets at every
    step inside the episode become the visit distributions of searches from their stored
    observations (each equal to a search of that observation alone); the rest of the batch,
    and steps past the episode's end, stay as sampled."""
    torch.manual_seed(0)
    policy = MuZeroPolicy(SMALL)
    batch = filled_buffer(consistency_targets=True).sample(32)
    batch["episode_mask"][3, 2:] = 0  # as past an episode's end: left alone
    before = {k: v.copy() for k, v in batch.items()}
    inside = np.argwhere(batch["episode_mask"][:8] > 0)
    assert policy.reanalyze(batch, 0.25, two_player=False) == len(inside) > 20
    np.testing.assert_array_equal(batch["target_policy"][8:], before["target_policy"][8:])
    np.testing.assert_array_equal(batch["target_policy"][3, 2:], before["target_policy"][3, 2:])
    obs = np.concatenate([before["obs"][:, None], before["target_obs"]], axis=1)
    for b, k in inside[::5]:
        _, alone, _ = policy.search(obs[b, k][None], np.ones((1, 2)), rng=None, explore=False)
        np.testing.assert_allclose(batch["target_policy"][b, k], alone[0], atol=1e-6)
        assert batch["policy_mask"][b, k] == 1.0
    assert not np.allclose(batch["target_policy"][:8, 0], before["target_policy"][:8, 0])
    assert policy.reanalyze(batch, 0.0, two_player=False) == 0
    with pytest.raises(ValueError, match="expected a batch with target_obs and episode_mask"):
        policy.reanalyze(filled_buffer().sample(8), 0.5, two_player=False)
    with pytest.raises(ConfigError, match=r"expected reanalyze_ratio in \[0, 1\], got 1.5"):
        policy_config(dict(SMALL, reanalyze_ratio=1.5))
