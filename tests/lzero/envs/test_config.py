import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lzero.envs import deep_merge_dicts, merge_config
from lzero.errors import ConfigError

flat = st.dictionaries(st.sampled_from("abcdef"), st.integers(), max_size=6)


@given(flat, flat)
def test_deep_merge_user_wins_and_keeps_default_keys(default, user):
    merged = deep_merge_dicts(default, user)
    assert set(merged) == set(default) | set(user)
    for key, value in merged.items():
        assert value == (user[key] if key in user else default[key])


def test_deep_merge_merges_nested_dicts_without_mutating_inputs():
    default = {"a": {"x": 1, "y": 2}, "b": [1]}
    user = {"a": {"y": 3}}
    merged = deep_merge_dicts(default, user)
    assert merged == {"a": {"x": 1, "y": 3}, "b": [1]}
    merged.a.x = 99
    merged.b.append(2)
    assert default == {"a": {"x": 1, "y": 2}, "b": [1]} and user == {"a": {"y": 3}}


def test_merge_config_names_key_closest_and_valid_set():
    with pytest.raises(
        ConfigError,
        match=r"unknown key 'battle_mod'; did you mean 'battle_mode'\?"
        r".*\['battle_mode', 'render_mode'\]",
    ):
        merge_config({"battle_mode": 1, "render_mode": None}, {"battle_mod": 2})


def test_merge_config_checks_nested_keys_but_not_open_ones():
    default = {"model": {"latent_state_dim": 64}, "wrapper": {}}
    with pytest.raises(ConfigError, match=r"cfg\.model: unknown key 'latent_dim'"):
        merge_config(default, {"model": {"latent_dim": 3}}, where="cfg")
    merged = merge_config({"opts": {"a": 1}}, {"opts": {"b": 2}}, open_keys=("opts",))
    assert merged.opts == {"a": 1, "b": 2}


@given(st.sets(st.sampled_from(["lr", "batch", "seed", "mcts.depth", "mcts.noise"]), min_size=1))
def test_merge_config_names_every_unknown_key_at_once(typos):
    default = {"learning_rate": 1, "batch_size": 2, "mcts": {"num_simulations": 3}}
    user = {"mcts": {}}
    for typo in typos:
        if typo.startswith("mcts."):
            user["mcts"][typo[5:]] = 0
        else:
            user[typo] = 0
    with pytest.raises(ConfigError) as err:
        merge_config(default, user, where="cfg")
    named = set(re.findall(r"cfg\.?(\w*): unknown key '(\w+)'", str(err.value)))
    expected = {("mcts" if t.startswith("mcts.") else "", t.split(".")[-1]) for t in typos}
    assert named == expected
    if len(typos) > 1:
        assert str(err.value).startswith(f"{len(typos)} unknown keys:")


def test_merge_config_rejects_a_non_dict():
    with pytest.raises(ConfigError, match="expected a dict, got list"):
        merge_config({"a": 1}, [("a", 2)])


def test_message_without_a_close_match_still_reads_as_sentences():
    with pytest.raises(ConfigError, match=r"unknown key 'zzz'\. Valid keys: \['alpha'\]"):
        merge_config({"alpha": 1}, {"zzz": 2})


@pytest.mark.parametrize("bad", [0, -3, 2.0, "4", None, True])
def test_check_positive_ints_names_the_key_and_value(bad):
    from lzero.envs.config import check_positive_ints

    check_positive_ints({"a": 1, "b": 7}, ("a", "b"), where="cfg")
    with pytest.raises(ConfigError, match=rf"cfg: expected b to be a positive int, got {bad!r}"):
        check_positive_ints({"a": 1, "b": bad}, ("a", "b"), where="cfg")


@given(
    st.sets(
        st.sampled_from(["create.polcy", "main.exp_nam", "main.policy.lr", "main.env.idd"]),
        min_size=1,
    ),
    st.booleans(),
)
def test_merge_config_pair_names_unknown_keys_of_both_configs_at_once(typos, env_open):
    """One error names every typo of the create and the main config (nested ones too), except
    in the sections ``main_open_keys`` leaves to another class; a clean pair merges."""
    from lzero.envs.config import merge_config_pair

    create_defaults = {"env": {"type": None}, "policy": {"type": "p"}}
    main_defaults = {"exp_name": "x", "env": {"env_id": None}, "policy": {"learning_rate": 1}}
    create, main = {"env": {"type": "t"}}, {"env": {}, "policy": {}}
    for typo in typos:
        *path, key = typo.split(".")
        section = create if path[0] == "create" else main
        for name in path[1:]:
            section = section[name]
        section[key] = 0
    expected = {
        (("create_config" if t.startswith("create") else "main_config") + "".join(
            "." + p for p in t.split(".")[1:-1]
        ), t.split(".")[-1])
        for t in typos
        if not (env_open and t.startswith("main.env"))
    }  # fmt: skip
    open_keys = (lambda c: ("env",)) if env_open else (lambda c: ())
    if not expected:
        merge_config_pair([main, create], create_defaults, "p", main_defaults, open_keys)
        return
    with pytest.raises(ConfigError) as err:
        merge_config_pair([main, create], create_defaults, "p", main_defaults, open_keys)
    named = set(re.findall(r"(\w+(?:\.\w+)*): unknown key '(\w+)'", str(err.value)))
    assert named == expected


def test_another_algorithms_config_is_refused_by_its_type_not_by_its_keys():
    """Sampled MuZero's keys are not typos of MuZero's: the error names the policy type, which
    is checked before the keys (LightZero's Sampled and Stochastic configs)."""
    from lzero.envs.config import merge_config_pair

    create_defaults = {"env": {"type": None}, "policy": {"type": "muzero"}}
    main_defaults = {"policy": {"num_simulations": 1}}
    main = {"policy": {"num_of_sampled_actions": 2}}
    create = {"env": {"type": "t"}, "policy": {"type": "sampled_muzero"}}
    with pytest.raises(ConfigError, match="expected type 'muzero', got 'sampled_muzero'") as err:
        merge_config_pair([main, create], create_defaults, "muzero", main_defaults)
    assert "num_of_sampled_actions" not in str(err.value)
    with pytest.raises(ConfigError, match=r"expected type in \['muzero', 'gumbel_muzero'\]"):
        merge_config_pair([main, create], create_defaults, ("muzero", "gumbel_muzero"))
    create["policy"]["type"] = "muzero"  # the right type: now the key is named
    with pytest.raises(ConfigError, match="unknown key 'num_of_sampled_actions'"):
        merge_config_pair([main, create], create_defaults, "muzero", main_defaults)


def test_a_key_of_a_nested_section_is_named_with_its_section():
    """MuZero's num_simulations sits at the policy's top; AlphaZero's under policy.mcts: the
    message says where it goes rather than naming a look-alike (eval_num_simulations)."""
    default = {"eval_num_simulations": 1, "mcts": {"num_simulations": 1}}
    with pytest.raises(ConfigError) as err:
        merge_config(default, {"num_simulations": 5}, where="main_config.policy")
    assert str(err.value).startswith(
        "main_config.policy: unknown key 'num_simulations' here; it is a key of "
        "main_config.policy.mcts: set it there."
    )
    assert merge_config(default, {"mcts": {"num_simulations": 5}}).mcts.num_simulations == 5
