"""Without the Box2D wheel the box2d tasks say how to install it (no swig build needed)."""

import importlib.util

import pytest

from lzero.errors import LZeroError
from zoo.box2d.bipedalwalker.envs.bipedalwalker_lightzero_env import BipedalWalkerEnv
from zoo.box2d.lunarlander.envs.lunarlander_lightzero_env import LunarLanderEnv


@pytest.mark.parametrize("env_cls", [LunarLanderEnv, BipedalWalkerEnv])
def test_missing_box2d_is_a_clear_error_at_construction(env_cls, monkeypatch):
    # gymnasium's own message advises `pip install swig` and `gymnasium[box2d]`, a source
    # build; this project installs the Box2D wheel through its box2d extra.
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "Box2D" else real(name, *a)
    )
    with pytest.raises(
        ImportError, match=r"expected the Box2D wheel.*pip install -e '\.\[box2d\]'"
    ) as err:
        env_cls()
    assert isinstance(err.value, LZeroError)  # the lzero command prints it as one line
