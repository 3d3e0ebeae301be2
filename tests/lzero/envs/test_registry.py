import textwrap

import pytest

from lzero.envs import ENV_REGISTRY, Registry, create_env
from lzero.errors import ConfigError


def test_register_get_build_and_names(walk_env_cls):
    reg = Registry("env")
    reg.register("walk")(walk_env_cls)
    assert reg.get("walk") is walk_env_cls and "walk" in reg and reg.names() == ["walk"]
    env = reg.build("walk", {"size": 4})
    assert env._cfg.size == 4


def test_unknown_name_lists_names_and_closest(walk_env_cls):
    reg = Registry("env")
    reg.register("connect4")(walk_env_cls)
    reg.register("gomoku")(walk_env_cls)
    with pytest.raises(
        KeyError,
        match=r"unknown env 'conect4'; did you mean 'connect4'\?.*\['connect4', 'gomoku'\]",
    ):
        reg.get("conect4")


def test_a_name_cannot_be_taken_twice(walk_env_cls):
    reg = Registry("env")
    reg.register("walk")(walk_env_cls)
    reg.register("walk")(walk_env_cls)  # the same class again (module re-import) is fine
    with pytest.raises(ValueError, match="already registered"):
        reg.register("walk")(type("Other", (walk_env_cls,), {}))


def test_di_engines_registry_calls(walk_env_cls):
    # DI-engine's Registry: register(name, cls), register() under the class's own name,
    # force_overwrite, reg[name], keys(), query(), len; each raised TypeError here.
    reg = Registry("env")
    assert reg.register("walk", walk_env_cls) is walk_env_cls
    named = reg.register()(type("Named", (walk_env_cls,), {}))
    assert reg["Named"] is named and reg["walk"] is walk_env_cls
    other = type("Other", (walk_env_cls,), {})
    assert reg.register("walk", other, force_overwrite=True) is other and reg["walk"] is other
    assert reg.keys() == reg.query() == sorted(reg) == ["Named", "walk"] and len(reg) == 2
    with pytest.raises(KeyError, match="unknown env 'walc'; did you mean 'walk'"):
        reg["walc"]
    with pytest.raises(ValueError, match="register: expected a name"):
        reg.register()(object())


def test_create_env_imports_import_names(tmp_path, monkeypatch):
    (tmp_path / "my_walk_env.py").write_text(
        textwrap.dedent("""
        from lzero.envs import ENV_REGISTRY
        from gymnasium import spaces
        import numpy as np
        from lzero.envs import BaseEnv

        @ENV_REGISTRY.register('my_walk_for_test')
        class MyEnv(BaseEnv):
            config = dict(size=3)
            reset = step = close = lambda self, *a: None
            observation_space = action_space = reward_space = None
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    create_cfg = dict(env=dict(type="my_walk_for_test", import_names=["my_walk_env"]))
    env = create_env(create_cfg, {"size": 7, "collector_env_num": 2})
    assert type(env).__name__ == "MyEnv" and env._cfg.size == 7
    # create_config.env's other keys go below the env config, as DI-engine's compile_config
    # merges them (they were ignored); an unknown one is an error as in the env config.
    create_cfg["env"]["size"] = 5
    assert create_env(create_cfg)._cfg.size == 5
    assert create_env(create_cfg, {"size": 7})._cfg.size == 7
    create_cfg["env"]["sise"] = 5
    with pytest.raises(ConfigError, match="did you mean 'size'"):
        create_env(create_cfg)


def test_create_env_errors():
    with pytest.raises(ConfigError, match="expected a 'type' key"):
        create_env(dict(env=dict(import_names=[])))
    with pytest.raises(ConfigError, match="cannot import 'no_such_module_xyz'"):
        create_env(dict(type="x", import_names=["no_such_module_xyz"]))


def test_global_registry_declares_the_board_games():
    assert {"connect4", "gomoku", "tictactoe"} <= set(ENV_REGISTRY.names())


def test_a_long_list_of_names_is_not_printed(walk_env_cls):
    from lzero.envs import make

    with pytest.raises(KeyError) as info:
        make("CartPol-v1")  # every gymnasium id is a task id here
    message = info.value.args[0]
    assert message.startswith("unknown task id 'CartPol-v1'; close matches: ['CartPole-v1'")
    assert message.endswith("lzero.envs.list_all_envs() lists them all.")
    assert "FrozenLake-v1" not in message and len(message) < 300
    reg = Registry("env", listing="see `lzero envs`.")
    reg.register("connect4")(walk_env_cls)
    reg.register("gomoku")(walk_env_cls)
    with pytest.raises(
        KeyError, match=r"^\"unknown env 'tetris'; nothing close. see `lzero envs`.\"$"
    ):
        reg.get("tetris")
    with pytest.raises(KeyError, match=r"unknown env 'Gomoku'; close matches: \['gomoku'\]. see"):
        reg.get("Gomoku")


def test_a_pickled_or_copied_env_registry_is_the_receivers_own():
    """Ray ships a factory's globals by value: a copy of ENV_REGISTRY could build no env that
    was not imported before the copy ("unknown env 'tictactoe'; close matches:
    ['tictactoe']"). A copy now is the receiving process's registry, declared envs included."""
    import copy
    import pickle
    import subprocess
    import sys

    from lzero.envs import ENV_REGISTRY

    assert pickle.loads(pickle.dumps(ENV_REGISTRY)) is ENV_REGISTRY
    assert copy.deepcopy(ENV_REGISTRY) is ENV_REGISTRY
    send = "import pickle, sys; from lzero.envs import ENV_REGISTRY; sys.stdout.buffer.write(pickle.dumps(ENV_REGISTRY))"
    blob = subprocess.run([sys.executable, "-c", send], capture_output=True, check=True).stdout
    build = "import pickle, sys; r = pickle.loads(sys.stdin.buffer.read()); print(type(r.build('connect4', {})).__name__)"
    out = subprocess.run([sys.executable, "-c", build], input=blob, capture_output=True, check=True)
    assert out.stdout.strip() == b"Connect4Env"


def test_a_declared_name_is_taken_before_its_module_is_imported():
    """``connect4`` is declared (an entry point) before its module is imported: registering
    another class under it had been accepted, and importing the zoo's Connect4 module then
    failed. It is refused as taken; with ``force_overwrite`` the zoo module still imports.
    In a fresh interpreter, where nothing has imported the zoo's Connect4 yet."""
    import subprocess
    import sys

    script = textwrap.dedent("""
        import sys
        from lzero.envs import ENV_REGISTRY
        assert "zoo.board_games.connect4.envs.connect4_env" not in sys.modules
        class MyEnv:
            pass
        try:
            ENV_REGISTRY.register("connect4")(MyEnv)
        except ValueError as e:
            print("refused:", e)
        ENV_REGISTRY.register("connect4", force_overwrite=True)(MyEnv)
        import zoo.board_games.connect4.envs.connect4_env
        print("taken by:", ENV_REGISTRY.get("connect4").__name__)
        ENV_REGISTRY.register("my_new_name")(MyEnv)
        print("new name:", ENV_REGISTRY.get("my_new_name").__name__)
    """)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "refused: env 'connect4' is already registered to "
        "zoo.board_games.connect4.envs.connect4_env.Connect4Env (pass force_overwrite=True to "
        "replace it)",
        "taken by: MyEnv",
        "new name: MyEnv",
    ]


def test_create_env_names_a_config_that_is_not_a_mapping():
    # A name in place of the create config had failed with "'str' object has no attribute 'get'".
    with pytest.raises(ConfigError, match=r"expected create_cfg to be a mapping .*got the str "
                       r"'connect4' \(by name: create_env\(dict\(type='connect4'\), env_cfg\)"):  # fmt: skip
        create_env("connect4", {"battle_mode": "self_play_mode"})
    with pytest.raises(ConfigError, match=r"expected env_cfg to be a mapping .*got the list"):
        create_env({"type": "connect4"}, ["self_play_mode"])
    # One level down: "type" in 'connect4' had been a substring test, and None a TypeError.
    with pytest.raises(ConfigError, match=r"expected create_cfg\['env'\] to be a mapping .*"
                       r"by name: dict\(env=dict\(type='connect4'\)\)"):  # fmt: skip
        create_env({"env": "connect4"})
    with pytest.raises(ConfigError, match=r"expected create_cfg\['env'\] .*got the NoneType"):
        create_env({"env": None})
    from lzero.envs.registry import get_env_cls

    with pytest.raises(ConfigError, match=r"get_env_cls: expected cfg to be a mapping .*str"):
        get_env_cls("connect4")
    assert create_env({"type": "connect4"}, {"battle_mode": "self_play_mode"}).reset()
