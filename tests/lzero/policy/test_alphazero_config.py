"""AlphaZero's config takes LightZero's own AlphaZero configs: their keys, with the meaning
they have there (hidden widths of the heads as lists, the newer names of renamed keys, a
starting checkpoint in ``policy.model_path``), or accepted and inert where stated."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from lzero.entry import train_alphazero  # noqa: E402
from lzero.errors import ConfigError  # noqa: E402
from lzero.model.alphazero_model import AlphaZeroModel  # noqa: E402
from lzero.policy.alphazero_config import compile_alphazero_config  # noqa: E402

# The policy part of LightZero's zoo/board_games/tictactoe/config/
# tictactoe_alphazero_sp_mode_config.py (2026-08), key for key.
LIGHTZERO_TICTACTOE_POLICY = dict(
    mcts_ctree=True,
    simulation_env_id="tictactoe",
    simulation_env_config_type="self_play",
    model=dict(
        observation_shape=(3, 3, 3),
        action_space_size=9,
        num_res_blocks=1,
        num_channels=16,
        value_head_hidden_channels=[8],
        policy_head_hidden_channels=[8],
    ),
    cuda=True,
    board_size=3,
    update_per_collect=50,
    batch_size=256,
    optim_type="Adam",
    piecewise_decay_lr_scheduler=False,
    learning_rate=0.003,
    grad_clip_value=0.5,
    value_weight=1.0,
    entropy_weight=0.0,
    n_episode=8,
    eval_freq=2000,
    mcts=dict(num_simulations=25),
    collector_env_num=8,
    evaluator_env_num=5,
)
# Its create config, with the collector and evaluator entries LightZero's configs carry.
LIGHTZERO_TICTACTOE_CREATE = dict(
    env=dict(type="tictactoe", import_names=["zoo.board_games.tictactoe.envs.tictactoe_env"]),
    env_manager=dict(type="subprocess"),
    policy=dict(type="alphazero", import_names=["lzero.policy.alphazero"]),
    collector=dict(type="episode_alphazero", import_names=["lzero.worker.alphazero_collector"]),
    evaluator=dict(type="alphazero", import_names=["lzero.worker.alphazero_evaluator"]),
)


def compile_with(policy: dict, **main) -> object:
    return compile_alphazero_config([dict(main, policy=policy), LIGHTZERO_TICTACTOE_CREATE])


def test_lightzeros_tictactoe_config_compiles_and_builds_its_heads():
    with pytest.warns(UserWarning, match="cuda=True, but this build trains on the CPU only"):
        cfg = compile_with(LIGHTZERO_TICTACTOE_POLICY)
    m = cfg.policy.model
    model = AlphaZeroModel(
        m.observation_shape, m.action_space_size, m.num_res_blocks, m.num_channels,
        m.value_head_hidden_channels, m.policy_head_hidden_channels,
    )  # fmt: skip
    linear = [(k, tuple(v.shape)) for k, v in model.state_dict().items() if k.endswith("weight")]
    # policy: 2 planes x 9 cells -> 8 -> 9 logits; value: 1 plane x 9 cells -> 8 -> 1
    assert [s for k, s in linear if k.startswith("policy_fc")] == [(8, 18), (9, 8)]
    assert [s for k, s in linear if k.startswith("value_fc")] == [(8, 9), (1, 8)]
    logits, value = model(torch.zeros(2, 3, 3, 3))
    assert logits.shape == (2, 9) and value.shape == (2, 1)


def test_our_int_width_builds_the_same_network_as_a_one_element_list():
    a = AlphaZeroModel((3, 3, 3), 9, 1, 16, 8).state_dict()
    b = AlphaZeroModel((3, 3, 3), 9, 1, 16, [8], []).state_dict()
    assert {k: v.shape for k, v in a.items()} == {k: v.shape for k, v in b.items()}


def test_the_newer_name_of_the_lr_schedule_sets_it():
    policy = dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False, piecewise_decay_lr_scheduler=True)
    assert compile_with(policy).policy.lr_piecewise_constant_decay is True
    with pytest.raises(ConfigError, match="expected one of piecewise_decay_lr_scheduler"):
        compile_with(dict(policy, lr_piecewise_constant_decay=False))


def test_lightzeros_replay_ratio_sets_the_update_ratio():
    # LightZero's AlphaZero names it replay_ratio now (model_update_ratio before).
    policy = dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False, update_per_collect=None)
    assert compile_with(dict(policy, replay_ratio=0.25)).policy.model_update_ratio == 0.25
    assert compile_with(policy).policy.model_update_ratio == 0.1  # ours when neither is set
    with pytest.raises(ConfigError, match="expected one of replay_ratio .LightZero's other"):
        compile_with(dict(policy, replay_ratio=0.25, model_update_ratio=0.5))


def test_lightzeros_older_head_names_and_collector_key_are_taken():
    # LightZero's AlphaZero configs before the rename (opendilab/LightZero at f5faac8) name the
    # heads fc_value_layers and fc_policy_layers, some with collector.get_train_sample: they
    # were refused as unknown keys.
    model = dict(LIGHTZERO_TICTACTOE_POLICY["model"])
    del model["value_head_hidden_channels"], model["policy_head_hidden_channels"]
    policy = dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False)
    older = dict(policy, model=dict(model, fc_value_layers=[8], fc_policy_layers=[8]))
    create = dict(LIGHTZERO_TICTACTOE_CREATE)
    create["collector"] = dict(create["collector"], get_train_sample=False)
    m = compile_alphazero_config([dict(policy=older), create]).policy.model
    current = compile_with(policy).policy.model
    assert (m.value_head_hidden_channels, m.policy_head_hidden_channels) == ([8], [8])
    assert (current.value_head_hidden_channels, current.policy_head_hidden_channels) == ([8], [8])
    with pytest.raises(ConfigError, match="expected one of fc_value_layers .LightZero's other"):
        compile_with(
            dict(policy, model=dict(model, fc_value_layers=[8], value_head_hidden_channels=[4]))
        )


def test_manager_key_typos_are_named_with_the_managers_keys():
    # shared_memory (a manager key, no effect on the pool) was left out of the hint.
    policy = dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False)
    with pytest.raises(ConfigError, match="'shared_memroy'; did you mean 'shared_memory'"):
        compile_with(policy, env=dict(manager=dict(shared_memroy=False)))
    cfg = compile_with(policy, env=dict(manager=dict(shared_memory=False)))
    assert "shared_memory" not in cfg.trainer.manager


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        ("gumbel_algo", True, r"gumbel_algo=True disagrees with type 'alphazero'; expected gu"),
        ("multi_gpu", True, r"expected multi_gpu=False \(this build trains on one CPU\)"),
        ("env_type", "not_board_games", "expected env_type 'board_games'"),
        ("action_type", "any", "expected action_type in"),
        ("model_path", 3, "expected model_path to be a checkpoint path or None, got 3"),
        ("cuda", 1, "expected cuda to be True or False, got 1"),
        # 'no' was taken and turned the decay on.
        ("lr_piecewise_constant_decay", "no", "expected lr_piecewise_constant_decay to be Tr"),
        ("piecewise_decay_lr_scheduler", "yes", "expected piecewise_decay_lr_scheduler to be"),
        ("symmetry_augmentation", 1, "expected symmetry_augmentation to be True or False"),
    ],
)
def test_lightzero_policy_keys_out_of_range_are_refused(key, value, match):
    with pytest.raises(ConfigError, match=match):
        policy = {**LIGHTZERO_TICTACTOE_POLICY, "cuda": False}
        if key == "lr_piecewise_constant_decay":
            del policy["piecewise_decay_lr_scheduler"]  # else the two names disagree first
        compile_with({**policy, key: value})


@pytest.mark.parametrize("widths", [[0], [8, -1], "8", [True], 0])
def test_head_widths_other_than_positive_ints_are_refused(widths):
    model = dict(LIGHTZERO_TICTACTOE_POLICY["model"], policy_head_hidden_channels=widths)
    with pytest.raises(ConfigError, match="expected policy_head_hidden_channels to be a posi"):
        compile_with(dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False, model=model))


def test_the_configs_model_path_is_the_starting_checkpoint(tmp_path):
    # LightZero's entry takes model_path as an argument; its configs also carry
    # policy.model_path. With the argument None, the config's is loaded, before any env starts.
    missing = tmp_path / "nothing.pth.tar"
    policy = dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False, model_path=str(missing))
    with pytest.raises(ConfigError, match="nothing.pth.tar"):
        train_alphazero(
            [dict(exp_name=str(tmp_path / "run"), policy=policy), LIGHTZERO_TICTACTOE_CREATE],
            max_env_step=1,
        )


def test_lightzeros_positional_call_reads_model_path_fourth(tmp_path):
    """LightZero's order is (input_cfg, seed, model, model_path, max_train_iter,
    max_env_step); ours put the budgets third, so train_alphazero(cfg, 0, None, path) said
    max_env_step: expected a positive int, got the path."""
    missing = tmp_path / "nothing.pth.tar"
    policy = dict(LIGHTZERO_TICTACTOE_POLICY, cuda=False)
    cfg = [dict(exp_name=str(tmp_path / "run"), policy=policy), LIGHTZERO_TICTACTOE_CREATE]
    with pytest.raises(ConfigError, match=r"nothing\.pth\.tar"):
        train_alphazero(cfg, 0, None, str(missing), int(1e10), 1)
    with pytest.raises(ConfigError, match="model: expected None"):
        train_alphazero(cfg, 0, object())


def compile_gumbel(policy: dict, **main) -> object:
    create = dict(LIGHTZERO_TICTACTOE_CREATE, policy=dict(type="gumbel_alphazero"))
    return compile_alphazero_config([dict(main, policy=policy), create])


def test_gumbel_alphazero_compiles_with_its_keys_and_target():
    """Type 'gumbel_alphazero' (LightZero's name): gumbel_algo and the improved-policy target
    follow from the type, the Gumbel keys are read under mcts, and what only PUCT has is
    refused."""
    cfg = compile_gumbel(dict(mcts=dict(max_num_considered_actions=4, gumbel_scale=0.5)))
    assert (cfg.policy.type, cfg.policy.gumbel_algo) == ("gumbel_alphazero", True)
    assert cfg.policy.policy_target == "completed_q"
    assert (cfg.policy.mcts.max_num_considered_actions, cfg.policy.mcts.gumbel_scale) == (4, 0.5)
    assert compile_gumbel(dict(gumbel_algo=True)).policy.gumbel_algo is True
    bad = [
        (dict(gumbel_algo=False), "gumbel_algo=False disagrees with type 'gumbel_alphazero'"),
        (dict(policy_target="visit_count"), "expected policy_target 'completed_q' .or none"),
        (dict(collect_fpu_reduction=0.2), r"\['collect_fpu_reduction'\] apply to the PUCT"),
        (dict(collect_forced_playouts=2.0), r"\['collect_forced_playouts'\] apply to the PUCT"),
        (dict(mcts=dict(max_num_considered_actions=0)), "max_num_considered_actions"),
        (dict(mcts=dict(value_scale=-1)), "expected value_scale a finite number >= 0, got -1"),
        (dict(type="alphazero"), "expected type 'gumbel_alphazero' .create_config.policy's"),
    ]
    for policy, match in bad:
        with pytest.raises(ConfigError, match=match):
            compile_gumbel(policy)
    with pytest.raises(ConfigError, match=r"expected type in \['alphazero', 'gumbel_alphaz"):
        compile_alphazero_config(
            [dict(policy={}), dict(LIGHTZERO_TICTACTOE_CREATE, policy=dict(type="gumbel"))]
        )
