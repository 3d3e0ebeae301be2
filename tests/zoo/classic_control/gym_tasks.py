"""Shared checks for the zoo's gym tasks (classic_control here, and box2d, which imports it)."""

from __future__ import annotations

import importlib
import pathlib
from importlib.metadata import entry_points

import numpy as np

from lzero.envs import create_env
from lzero.envs.get_wrapped_env import get_wrappered_env

ROOT = pathlib.Path(__file__).resolve().parents[3]
ENTRY_KEYS = ("continuous", "manually_discretization", "each_dim_disc_size")


def build(name: str, module: str, cfg: dict):
    """Builds a zoo env the LightZero way: ``create_config`` with ``import_names``."""
    return create_env(dict(type=name, import_names=[module]), cfg)


def config_modules(folder: str) -> list[str]:
    """Returns the dotted names of every ``*_config.py`` under ``zoo/<folder>``."""
    paths = sorted((ROOT / "zoo" / folder).glob("*/config/*_config.py"))
    return [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in paths]


def import_task_envs(config_module: str) -> None:
    """Imports the env modules of a config's task (``<task>/envs/*.py``), so they register
    even where the ``lzero.envs`` entry points are not installed."""
    task = config_module.rsplit(".config.", 1)[0]
    for path in sorted((ROOT / task.replace(".", "/") / "envs").glob("*_env.py")):
        importlib.import_module(f"{task}.envs.{path.stem}")


def check_config_matches_its_env(module: str) -> None:
    """The config's model sizes equal what the env built from its env keys returns,
    built both by the MuZero entry's path (get_wrappered_env) and by its create_config."""
    mod = importlib.import_module(module)
    import_task_envs(module)
    main, create = mod.main_config, mod.create_config
    env_cfg = main.env
    wrapper_cfg = {k: env_cfg[k] for k in ENTRY_KEYS if k in env_cfg}
    model = main.policy.model
    envs = [
        get_wrappered_env(dict(wrapper_cfg, is_train=True), env_cfg.env_id)(),
        create_env(create.env, env_cfg),
    ]
    for env in envs:
        obs = env.reset()
        assert obs["observation"].shape == (model.observation_shape,), module
        assert env.action_space.n == model.action_space_size, module
        assert np.array_equal(obs["action_mask"], np.ones(model.action_space_size, np.int8))
        env.close()
    assert create.policy.type in ("muzero", "gumbel_muzero") and create.env.type.endswith(
        "_lightzero"
    )


def check_entry_points(names: dict[str, str]) -> None:
    """Each of ``names`` is declared in the ``lzero.envs`` entry points (setup.py), pointing at
    the module that registers it."""
    declared = {ep.name: ep.value for ep in entry_points(group="lzero.envs")}
    assert {n: declared.get(n) for n in names} == names
