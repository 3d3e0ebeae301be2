"""The README's Python snippets run as written (the training one is only compiled: it needs a
training run, which the entries' own tests cover)."""

import os
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _snippets():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_snippets_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    snippets = _snippets()
    assert len(snippets) >= 5
    namespace: dict = {}
    for code in snippets:
        if "train_muzero_with_gym_env(" in code:  # a training run
            compile(code, "README.md", "exec")
            continue
        exec(compile(code, "README.md", "exec"), namespace)
    assert namespace["timestep"].reward.shape == (1,)
    assert namespace["obs"]["action_mask"].shape == (1024, 7)
    assert namespace["env"].action_space.n == 11
    assert 0 <= namespace["action"] < 7
    assert namespace["result"].action_visits.sum() > 0
    assert namespace["best"] in range(9)
    assert namespace["move"] in range(7) and namespace["view"].action == namespace["move"]
    assert abs(namespace["probs"].sum() - 1) < 1e-6


def test_readme_commands_use_the_extras_setup_declares():
    text = README.read_text()
    assert 'pip install -e ".[train]" && lzero train zoo.classic_control.cartpole' in text
    assert (
        'pip install -e ".[test,train]" && python -m pytest -q -n auto --maxprocesses 8 --dist loadfile'
        in text
    )
    ci = (README.parent / ".ci" / "run").read_text()
    assert 'pip install -q -e ".[test,train]"' in ci
    assert "python -m pytest -q -p no:cacheprovider -n auto --maxprocesses 8 --dist loadfile" in ci
