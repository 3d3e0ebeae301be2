"""The BaseEnv contract, checked on every env the registry knows, with its default config.

A new env is covered as soon as it is registered (by an entry point in setup.py), so none can
be added without passing ``check_env``.
"""

import os

import pytest

from lzero.envs import ENV_REGISTRY, check_env

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def test_the_registry_knows_the_zoo():
    assert {"tictactoe", "connect4", "gomoku", "cartpole_lightzero", "lunarlander_lightzero"} <= set(
        ENV_REGISTRY.names()
    )


@pytest.mark.parametrize("name", ENV_REGISTRY.names())
def test_every_registered_env_keeps_the_contract(name):
    env = ENV_REGISTRY.build(name, {})
    check_env(env, seed=3)
