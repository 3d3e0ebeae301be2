"""Checkpoint files that are not readable checkpoints give one clear ``ConfigError`` each."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from lzero.errors import ConfigError  # noqa: E402
from lzero.utils.checkpoint_file import load_checkpoint_file  # noqa: E402


def zip_of(path, name, data):
    """Writes a zip archive holding one file ``name`` with ``data``."""
    import zipfile

    with zipfile.ZipFile(path, "w") as z:
        z.writestr(name, data)


class _Opaque:  # a Python object: the safe loader refuses to unpickle it
    pass


def test_a_checkpoint_of_tensors_and_plain_values_loads(tmp_path):
    path = tmp_path / "ok.pth.tar"
    torch.save({"w": torch.ones(3), "env_step": 7, "game": {"name": "tictactoe"}}, path)
    state = load_checkpoint_file(path, "a checkpoint")
    assert state["env_step"] == 7 and state["w"].tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda p: None, r"'.*x\.pth\.tar' \(not found\)"),
        (lambda p: p.mkdir(), "which is a directory"),
        (lambda p: p.write_bytes(b""), "which is empty"),
        (lambda p: p.write_text("not a checkpoint"), "not a file torch.save writes"),
        (lambda p: p.write_bytes(bytes(range(7, 256))), "not a file torch.save writes"),
        (lambda p: zip_of(p, "a", b"x"), "a zip archive, but not one torch.save wrote"),
        (lambda p: torch.save({"o": _Opaque()}, p), "Python objects beyond tensors"),
        (
            lambda p: (torch.save({"w": torch.ones(1000)}, p), p.write_bytes(p.read_bytes()[:900])),
            "cut short",
        ),
    ],
    ids=["missing", "directory", "empty", "text", "bytes", "zip", "object", "truncated"],
)
def test_unreadable_files_are_refused_with_the_reason(tmp_path, make, match):
    path = tmp_path / "x.pth.tar"
    make(path)
    with pytest.raises(ConfigError, match=match) as err:
        load_checkpoint_file(path, "an AlphaZero checkpoint")
    assert "an AlphaZero checkpoint" in str(err.value)
    assert "weights_only" not in str(err.value)  # never torch's advice to load it unsafely


def test_an_alphazero_checkpoint_given_to_muzero_names_what_it_is(tmp_path):
    from lzero.agent import CHECKPOINT_KIND
    from lzero.entry.muzero_setup import read_checkpoint

    path = tmp_path / "az.pth.tar"
    torch.save({"kind": CHECKPOINT_KIND, "model": {}}, path)
    # model_path serves training and evaluation: the advice names both (it named evaluation
    # alone, also to a run about to train)
    with pytest.raises(
        ConfigError,
        match="an AlphaZero one: train on from it with an AlphaZero config's model_pa.*lzero eval --ckpt PATH",
    ):
        read_checkpoint(path, None)
    # Resuming, the advice is to resume it with its own config, not to evaluate it.
    with pytest.raises(
        ConfigError, match="resume: .*an AlphaZero one: resume it with its AlphaZero config$"
    ):
        read_checkpoint(path, None, "resume")


def test_a_muzero_checkpoint_given_to_alphazero_names_what_it_is(tmp_path):
    from lzero.agent import load_agent, read_checkpoint

    path = tmp_path / "mz.pth.tar"
    torch.save({"env": "CartPole-v0", "model": {}}, path)
    with pytest.raises(
        ConfigError,
        match=r"resume: expected an AlphaZero checkpoint .*, a MuZero checkpoint of 'CartPole-v0'$",
    ):
        read_checkpoint(path, "resume")
    torch.save({"kind": "other"}, path)
    with pytest.raises(
        ConfigError,
        match=r"^expected an AlphaZero .*, a checkpoint of kind 'other', not this project's$",
    ):
        read_checkpoint(path)
    torch.save({"weights": 1, "step": 2}, path)
    with pytest.raises(
        ConfigError, match=r", a dict of \['step', 'weights'\] without a kind, not this project's$"
    ):
        read_checkpoint(path)
    with pytest.raises(  # an agent takes MuZero checkpoints too, and says so (found by QA)
        ConfigError,
        match=r"expected an AlphaZero checkpoint .* or a MuZero one written by train_muzero, got",
    ):
        load_agent(path)
    # A MuZero checkpoint that records no env (LightZero's keys) was "not this project's",
    # though its config evaluates it
    torch.save({"model": {}, "target_model": {}, "optimizer": {}}, path)
    with pytest.raises(ConfigError, match=r"a MuZero one .* \(lzero eval CONFIG --ckpt PATH\)$"):
        read_checkpoint(path)
