"""Every zoo ``*_muzero_config.py`` compiles, and under ``python -m`` behaves as ``lzero train``."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
import lzero.entry  # noqa: E402
from lzero.entry.config import compile_config  # noqa: E402

ZOO = Path(__file__).resolve().parents[2] / "zoo"
CONFIGS = sorted(
    ".".join(p.relative_to(ZOO.parent).with_suffix("").parts)
    for p in ZOO.rglob("config/*_muzero_config.py")
)


def test_the_zoo_has_muzero_configs():
    assert "zoo.classic_control.cartpole.config.cartpole_muzero_config" in CONFIGS
    assert len(CONFIGS) >= 7


@pytest.mark.parametrize("name", CONFIGS)
def test_config_compiles(name):
    module = __import__(name, fromlist=["main_config"])
    cfg = compile_config([module.main_config, module.create_config])
    assert cfg.policy.type in ("muzero", "gumbel_muzero")


def _run_main(name, monkeypatch, argv, train):
    monkeypatch.setattr(lzero.entry, "train_muzero_with_gym_env", train)
    monkeypatch.setattr(sys, "argv", [name, *argv])
    monkeypatch.delitem(sys.modules, name, raising=False)  # as a fresh `python -m` has it
    try:
        runpy.run_module(name, run_name="__main__")
    except KeyboardInterrupt:
        pytest.fail(f"python -m {name}: Ctrl-C escaped as a KeyboardInterrupt traceback")


@pytest.mark.parametrize("name", CONFIGS)
def test_ctrl_c_under_python_m_exits_without_traceback(name, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as exit_info:
        _run_main(name, monkeypatch, [], interrupted)
    assert exit_info.value.code == 130
    err = capsys.readouterr().err
    assert "interrupted" in err
    assert "Traceback" not in err


def test_python_m_takes_the_train_options(monkeypatch, tmp_path, capsys):
    calls = []

    class Policy:
        train_iter = 7

    def train(cfg, **kwargs):
        calls.append((cfg[0].exp_name, kwargs))
        return Policy()

    name = "zoo.classic_control.cartpole.config.cartpole_muzero_config"
    argv = ["--seed", "3", "--max-env-step", "50", "--exp-name", str(tmp_path / "x")]
    with pytest.raises(SystemExit) as exit_info:
        _run_main(name, monkeypatch, argv, train)
    assert exit_info.value.code == 0
    [(exp_name, kwargs)] = calls
    assert exp_name == str(tmp_path / "x")
    assert kwargs["seed"] == 3 and kwargs["max_env_step"] == 50
    # the entry's own stop line is the run's last (here the entry is replaced: nothing after)
    assert capsys.readouterr().out == ""
