"""The BaseEnv contract, checked on every env the installed packages declare, with its defaults.

A new env is covered as soon as it is declared (by an ``lzero.envs`` entry point in setup.py),
so none can be added without passing ``check_env``. Envs that tests register on the fly are
not part of the product and are left out.
"""

import os
from importlib.metadata import entry_points

import pytest

from lzero.envs import ENV_REGISTRY, check_env
from lzero.envs.registry import ENTRY_POINT_GROUP

DECLARED = sorted(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_the_registry_knows_the_zoo():
    expected = {"tictactoe", "connect4", "gomoku", "cartpole_lightzero", "lunarlander_lightzero"}
    assert expected <= set(DECLARED) <= set(ENV_REGISTRY.names())


@pytest.mark.parametrize("name", DECLARED)
def test_every_registered_env_keeps_the_contract(name):
    env = ENV_REGISTRY.build(name, {})
    check_env(env, seed=3)
