"""Registries of env and wrapper classes, and building envs from LightZero-style configs."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from importlib.metadata import entry_points
from typing import Any

from easydict import EasyDict

from lzero.envs.config import unknown_name_message
from lzero.errors import ConfigError

#: Entry-point group through which installed packages (our ``zoo`` among them) declare
#: ``name = module`` pairs, so ``ENV_REGISTRY`` finds an env by name without ``lzero``
#: importing the package that defines it.
ENTRY_POINT_GROUP = "lzero.envs"


class Registry:
    """A name -> class (or factory) map with a ``register`` decorator, and DI-engine's
    ``Registry`` calls: ``register(name, cls)``, ``register(force_overwrite=True)``,
    ``register()`` (the class's own name), ``registry[name]``, ``keys()``, ``query()``, ``len``,
    ``in`` and iteration (the names, declared ones included).

    Args:
        kind: what is registered, for error messages (``'env'``).
        entry_point_group: entry-point group scanned for ``name = module`` declarations of
            names not registered yet; None disables the lookup.
        listing: where to see every name; an unknown name's error then names only the close
            ones and this (see ``unknown_name_message``).
    """

    def __init__(
        self,
        kind: str,
        entry_point_group: str | None = None,
        *,
        listing: str | None = None,
        home: str | None = None,
    ) -> None:
        self._kind, self._listing = kind, listing
        self._group = entry_point_group
        self._items: dict[str, Any] = {}
        self._home = home

    def __reduce_ex__(self, protocol):
        """A registry with a ``home`` (its name in this module: ENV_REGISTRY's) pickles and
        copies as a reference to it: the copy is the receiving process's own registry, into
        which its modules register when imported (a copy by value, as Ray ships a factory's
        globals, would never see them: every declared env not yet imported was unknown)."""
        if self._home is None:
            return super().__reduce_ex__(protocol)
        return (_registry_named, (self._home,))

    def register(
        self, name: str | None = None, module: Any = None, force_overwrite: bool = False
    ) -> Any:
        """Registers ``module`` under ``name`` and returns it, or, without ``module``, returns a
        decorator that registers its argument (under ``name``, or its ``__name__``), as
        DI-engine's ``Registry.register(module_name, module, force_overwrite)``.

        Raises:
            ValueError: ``name`` is already taken by another object (the same class again, a
                module imported twice, is fine), unless ``force_overwrite``. A name an
                installed package declares (the zoo's) counts as taken by its class.
        """

        def decorator(obj: Any) -> Any:
            key = name if name is not None else getattr(obj, "__name__", None)
            if not isinstance(key, str) or not key:
                raise ValueError(
                    f"register: expected a name (or an object with a __name__), got {key!r}"
                )
            declared = self._declared().get(key)
            if key not in self._items and declared and getattr(obj, "__module__", "") != declared:
                # A name an installed package declares: its module registers the name when
                # imported, which would then clash with this one (or take it over), so it is
                # imported first and the rule below decides (one that cannot be imported here,
                # for want of an optional package, registers nothing to clash with).
                try:
                    self._import_declared(declared)
                except ImportError:
                    pass
            old = self._items.get(key)
            if old is not None and _qualname(old) != _qualname(obj) and not force_overwrite:
                raise ValueError(
                    f"{self._kind} {key!r} is already registered to {_qualname(old)} (pass "
                    "force_overwrite=True to replace it)"
                )
            self._items[key] = obj
            return obj

        return decorator if module is None else decorator(module)

    @staticmethod
    def _import_declared(module: str) -> None:
        """Imports the module an entry point declares for a name (it registers the name)."""
        importlib.import_module(module)

    def _declared(self) -> dict[str, str]:
        """The names installed packages declare for this registry (entry points), and their
        modules: read once per process (reading them takes tens of ms, and every module of the
        zoo registers on import), so a package installed later is seen after a restart."""
        if not hasattr(self, "_declared_cache"):
            group = self._group
            found = [] if group is None else list(entry_points(group=group))
            # ``name = module`` or ``name = module:Class``; the class names the env where it
            # is not imported yet (a board game's gymnasium id, ``lzero/Othello-v0``).
            self._declared_cache = {ep.name: ep.value.partition(":")[0].strip() for ep in found}
            self._declared_attrs = {
                ep.name: ep.value.partition(":")[2].strip() for ep in found if ":" in ep.value
            }
        return self._declared_cache

    def declared_class_name(self, name: str) -> str | None:
        """The class name an entry point declares for ``name`` (``module:Class``), or None."""
        self._declared()
        return self._declared_attrs.get(name) or None

    def get(self, name: str) -> Any:
        """Returns what is registered under ``name``, importing its declared module if needed.

        Raises:
            KeyError: ``name`` is unknown; the message lists the names and the closest one.
        """
        declared = self._declared().get(name)
        if name not in self._items and declared:
            self._import_declared(declared)
        if name not in self._items:
            message = unknown_name_message(self._kind, name, self.names(), listing=self._listing)
            raise KeyError(message)
        return self._items[name]

    def build(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Returns ``self.get(name)(*args, **kwargs)``."""
        return self.get(name)(*args, **kwargs)

    def names(self) -> list[str]:
        """Returns the sorted registered names, including declared but not yet imported ones."""
        return sorted(set(self._items) | set(self._declared()))

    def __contains__(self, name: str) -> bool:
        return name in self._items or name in self._declared()

    def __getitem__(self, name: str) -> Any:
        return self.get(name)

    def keys(self) -> list[str]:
        """The names (:meth:`names`), as DI-engine's dict-based registry has them."""
        return self.names()

    def query(self) -> list[str]:
        """DI-engine's name for :meth:`names`."""
        return self.names()

    def __iter__(self):
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())


def _qualname(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"


def _registry_named(name: str) -> Registry:
    """This process's registry ``name`` of this module (what a home registry unpickles to)."""
    return globals()[name]


ENV_REGISTRY = Registry(
    "env",
    ENTRY_POINT_GROUP,
    listing="`lzero envs` (or ENV_REGISTRY.names()) lists them all.",
    home="ENV_REGISTRY",
)
ENV_WRAPPER_REGISTRY = Registry("env wrapper", home="ENV_WRAPPER_REGISTRY")


def import_module_names(names: Iterable[str]) -> None:
    """Imports each module in ``names`` (LightZero's ``import_names``), so it can register.

    Raises:
        ConfigError: a module cannot be imported; the message names it.
    """
    for name in names or ():
        try:
            importlib.import_module(name)
        except ImportError as err:
            raise ConfigError(f"import_names: cannot import {name!r}: {err}") from err


def create_env(create_cfg: Mapping, env_cfg: Mapping | None = None) -> Any:
    """Builds an env from a LightZero-style ``create_config`` and an env config.

    Args:
        create_cfg: either the whole ``create_config`` (with an ``env`` entry) or its ``env``
            part, e.g. ``dict(type='connect4', import_names=['zoo.board_games...'])``.
        env_cfg: the env's config (``main_config.env``), or None for its defaults. Keys of
            ``create_cfg``'s env part other than ``type`` and ``import_names`` are added below
            it, as DI-engine's ``compile_config`` does (unknown keys are an error either way).

    Returns:
        The env instance.

    Raises:
        ConfigError: ``create_cfg`` or ``env_cfg`` is not a mapping, or ``create_cfg`` has no
            ``type``.
        KeyError: the type is not registered.
    """
    _check_mapping(create_cfg, "create_env: expected create_cfg", "create_config, or its env "
                   "part such as dict(type='connect4')", "create_env(dict(type={!r}), env_cfg)")  # fmt: skip
    if env_cfg is not None:
        _check_mapping(env_cfg, "create_env: expected env_cfg", "main_config.env, or None")
    spec = create_cfg.get("env", create_cfg)
    _check_mapping(spec, "create_env: expected create_cfg['env']", "dict(type='connect4')",
                   "dict(env=dict(type={!r}))")  # fmt: skip
    if "type" not in spec:
        raise ConfigError(f"create_config.env: expected a 'type' key, got keys {sorted(spec)}")
    import_module_names(spec.get("import_names", ()))
    # DI-engine's compile_config merges create_config.env's other keys into the env config,
    # below main_config.env's; they were ignored here (a misspelt key too).
    extra = {k: v for k, v in spec.items() if k not in ("type", "import_names")}
    # an EasyDict, as DI-engine's envs get it (LightZero's read cfg.key)
    return ENV_REGISTRY.build(spec["type"], EasyDict({**extra, **dict(env_cfg or {})}))


def _check_mapping(value: Any, what: str, example: str, by_name: str = "") -> None:
    """Raises ConfigError unless ``value`` is a mapping; a str (an env's name) is answered with
    ``by_name`` filled in with it."""
    if isinstance(value, Mapping):
        return
    hint = f" (by name: {by_name.format(value)})" if by_name and isinstance(value, str) else ""
    raise ConfigError(
        f"{what} to be a mapping ({example}), got the {type(value).__name__} {value!r}{hint}"
    )


def get_env_cls(cfg: Mapping) -> type:
    """DI-engine's ``get_env_cls``: the registered env class of ``cfg.type``, after importing
    ``cfg.import_names``.

    Raises:
        ConfigError: no ``type``, or a module of ``import_names`` cannot be imported.
        KeyError: the type is not registered.
    """
    _check_mapping(cfg, "get_env_cls: expected cfg", "an env config such as "
                   "dict(type='connect4')", "get_env_cls(dict(type={!r}))")  # fmt: skip
    if not cfg.get("type"):
        raise ConfigError(f"env config: expected a 'type' key, got keys {sorted(cfg)}")
    import_module_names(cfg.get("import_names", ()))
    return ENV_REGISTRY.get(cfg["type"])


def get_vec_env_setting(
    cfg: Mapping, collect: bool = True, eval_: bool = True
) -> tuple[type, list | None, list | None]:
    """DI-engine's ``get_vec_env_setting``: ``(env class, collector env configs, evaluator env
    configs)`` of an env config holding ``type`` and ``import_names`` (``main_config.env``
    with ``create_config.env`` merged in, as DI-engine's ``compile_config`` leaves it); the
    configs come from the class's ``create_collector_env_cfg`` and ``create_evaluator_env_cfg``
    (None for a side not asked for)."""
    env_fn = get_env_cls(cfg)
    collector = env_fn.create_collector_env_cfg(cfg) if collect else None
    evaluator = env_fn.create_evaluator_env_cfg(cfg) if eval_ else None
    return env_fn, collector, evaluator
