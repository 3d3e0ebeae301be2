"""Config loading for ``lzero train``/``lzero eval``: a misspelled config names the real one."""

import importlib.util
from pathlib import Path

import pytest

from lzero.cli_train import load_config_module
from lzero.errors import ConfigError

REAL = "zoo.board_games.connect4.config.connect4_alphazero_sp_mode_config"


@pytest.mark.parametrize(
    ("spec", "hint"),
    [
        (REAL.replace("sp_mode", "sp_mod"), REAL),
        (REAL.replace("connect4_alpha", "connect4_alhpa"), REAL),
        (REAL.replace(".connect4.", ".conect4."), "zoo.board_games.connect4"),
        (REAL.replace(".config.", ".configs."), "zoo.board_games.connect4.config"),
    ],
)
def test_a_misspelled_module_names_the_closest_real_one(spec, hint):
    with pytest.raises(ConfigError, match="expected an importable config module") as err:
        load_config_module(spec)
    assert str(err.value).endswith(f"did you mean {hint!r}?")
    assert importlib.util.find_spec(hint) is not None  # the hint imports


@pytest.mark.parametrize(
    "spec", ["no_such_top_level_package.config", REAL.rsplit(".", 1)[0] + ".zzzzzz_qqq"]
)
def test_nothing_close_gets_no_hint(spec):
    with pytest.raises(ConfigError) as err:
        load_config_module(spec)
    assert "did you mean" not in str(err.value)


def test_a_missing_import_inside_the_config_is_not_blamed_on_its_name(tmp_path, monkeypatch):
    package = tmp_path / "my_configs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "run_config.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError, match="no_such_dependency_xyz") as err:
        load_config_module("my_configs.run_config")
    assert "did you mean" not in str(err.value)


def test_a_misspelled_file_names_the_closest_file_in_its_folder(tmp_path):
    (tmp_path / "cartpole_muzero_config.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    with pytest.raises(ConfigError, match="existing .py file") as err:
        load_config_module(str(tmp_path / "cartpole_muzero_confg.py"))
    assert f"did you mean 'cartpole_muzero_config.py' (in {tmp_path})?" in str(err.value)
    with pytest.raises(ConfigError) as err:
        load_config_module(str(Path(tmp_path) / "no_folder" / "x_config.py"))
    assert "did you mean" not in str(err.value)


CARTPOLE = "zoo.classic_control.cartpole.config.cartpole_muzero_config"


def test_eval_errors_name_the_option_not_the_entry_argument(tmp_path, capsys):
    from lzero.cli import main
    from lzero.entry import eval_muzero_with_gym_env

    missing = str(tmp_path / "nothing.pth.tar")
    assert main(["eval", CARTPOLE, "--ckpt", missing]) == 2
    err = capsys.readouterr().err
    assert "expected --ckpt to be a checkpoint file" in err and "model_path" not in err
    module = load_config_module(CARTPOLE)
    with pytest.raises(ConfigError, match="expected model_path to be a checkpoint file"):
        eval_muzero_with_gym_env([module.main_config, module.create_config], model_path=missing)

    # An AlphaZero config: the message does not take the checkpoint for an AlphaZero one.
    assert main(["eval", REAL, "--ckpt", missing]) == 2
    err = capsys.readouterr().err
    assert "expected a MuZero config, got an AlphaZero one" in err
    assert "an AlphaZero checkpoint" not in err


def test_train_errors_name_the_option_and_keep_sentences(tmp_path, capsys):
    from lzero.cli import main
    from lzero.cli_train import TRAIN_OPTIONS, _as_options

    assert main(["train", CARTPOLE, "--resume", str(tmp_path)]) == 2
    assert "error: --resume: expected an experiment directory" in capsys.readouterr().err
    with pytest.raises(ConfigError) as err, _as_options(TRAIN_OPTIONS):
        raise ConfigError("seed: expected the resumed run's own seed 3 (or none), got 4")
    assert str(err.value) == "--seed: expected the resumed run's own seed 3 (or none), got 4"
    assert isinstance(err.value.__cause__, ConfigError)
    with pytest.raises(ConfigError) as err, _as_options(TRAIN_OPTIONS):
        raise ConfigError("a message with no label")
    assert err.value.__cause__ is None


def test_a_file_that_is_not_python_is_refused(tmp_path):
    notes = tmp_path / "README.md"
    notes.write_text("# not a config\n")
    with pytest.raises(ConfigError, match=r"existing \.py file, got .*README\.md.*does not end in"):
        load_config_module(str(notes))


def test_a_module_name_of_a_file_in_the_current_folder_names_its_path(tmp_path, monkeypatch):
    """LightZero's users run configs from their folder: lzero train my_cfg (a file there) said
    only "No module named 'my_cfg'", as the command imports from sys.path, not the folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_cfg_here.py").write_text("main_config = create_config = {}\n")
    with pytest.raises(ConfigError, match=r"'my_cfg_here.py' is a file in the current folder: pas"):
        load_config_module("my_cfg_here")
