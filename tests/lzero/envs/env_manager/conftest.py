import os
import sys

import pytest

# Workers started with 'spawn' unpickle the env factories by module name.
sys.path.insert(0, os.path.dirname(__file__))

from manager_test_envs import CounterEnv  # noqa: E402


@pytest.fixture
def counter_env_cls():
    return CounterEnv
