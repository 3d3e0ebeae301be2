"""lzero/'s import graph (with lzero_console.py and lzero_interrupts.py) has no circle and no
import from a lower layer up, function-level imports included (issue 77; STYLE: "An import
inside a function is still an import: it must obey the layers")."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The layers, lowest first: a module may import its own layer or a lower one, never a higher
#: one. A dotted entry names a module or a package with all its modules (the longest entry
#: wins); a top-level name names that one module, so a new module of lzero/ must be placed.
#: The package ``lzero`` itself (its ``__init__``, which stamps the kernels, registers the
#: gymnasium ids and holds ``__version__``) sits with the envs it registers. The envs sit below
#: the search, whose batched board kernels step them (``lzero.envs.board_step``). The command
#: line's subcommands and argument types sit below ``lzero.cli``, which registers them, and
#: ``lzero.cli_train`` above it: its ``run_as_main``, which the zoo's configs end with, runs
#: the whole command line.
LAYERS = (
    ("lzero_interrupts",),
    ("lzero.errors", "lzero.utils"),
    ("lzero", "lzero.envs"),
    ("lzero.mcts",),
    ("lzero.model",),
    ("lzero.policy",),
    ("lzero.worker",),
    ("lzero.entry",),
    ("lzero.agent", "lzero.pretrained"),
    ("lzero.cli_args", "lzero.cli_commands"),
    ("lzero.cli",),
    ("lzero.cli_train",),
    ("lzero_console",),
)

#: Imports up the LAYERS that no move removes, each with why; they are left out of both checks,
#: and one that is gone fails the test, so that the list cannot outlive its reason.
UPWARD_BY_NEED: dict[tuple[str, str], str] = {}

#: One edge is an import: (importer, imported module, line).
Edge = tuple[str, str, int]


def module_name(path: Path, root: Path = ROOT) -> str:
    """``lzero/envs/pool/__init__.py`` -> ``lzero.envs.pool``; ``lzero_console.py`` -> itself."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return getattr(test, "id", getattr(test, "attr", None)) == "TYPE_CHECKING"


def _walk(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node below ``tree``, function bodies included, but for the bodies of ``if
    TYPE_CHECKING:`` (their ``else`` runs, and is walked)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                yield child
                yield from _walk(child)
            continue
        yield node
        yield from _walk(node)


def raw_imports(source: str, name: str, is_package: bool) -> list[tuple[str, str | None, int]]:
    """``(module, imported name or None, line)`` of every import in ``source`` (the module
    ``name``), relative ones resolved: ``import a.b`` gives ``('a.b', None, line)``, ``from a
    import b, c`` gives ``('a', 'b', line)`` and ``('a', 'c', line)``."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    found = []
    for node in _walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, None, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found += [(base, alias.name, node.lineno) for alias in node.names]
    return found


def face_exports(source: str) -> dict[str, str] | None:
    """What a package face (an ``__init__.py`` that only re-exports) binds: name -> the dotted
    name it comes from. None if ``source`` does more than re-export: it calls something, or
    defines a class or a function other than a lazy ``__getattr__``."""
    exports: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and not node.level and node.module != "__future__":
            for alias in node.names:
                exports[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            for target in node.targets:  # an alias: ``train_muzero = train_muzero_with_gym_env``
                if node.value.id in exports and isinstance(target, ast.Name):
                    exports[target.id] = exports[node.value.id]
        elif isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            continue
        elif isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant):
            return None
        elif not isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.Expr)):
            return None
    return exports


def build_graph(sources: dict[str, tuple[str, bool]]) -> list[Edge]:
    """The imports between the modules of ``sources`` (name -> (source, is_package)), each
    once per importer, module and line.

    ``from pkg import name`` is an import of ``pkg.name`` if that is a module; through a
    package face, an import of the module the face takes ``name`` from. Imports of modules
    outside ``sources`` are left out.
    """
    faces = {
        name: exports
        for name, (source, is_package) in sources.items()
        if is_package and (exports := face_exports(source)) is not None
    }

    def resolve(module: str, name: str | None) -> str | None:
        if name is not None and f"{module}.{name}" in sources:
            return f"{module}.{name}"
        if name is not None and name in faces.get(module, {}):
            origin, _, attr = faces[module][name].rpartition(".")
            return resolve(origin, attr)
        while module and module not in sources:
            module = module.rpartition(".")[0]
        return module or None

    edges = set()
    for importer, (source, is_package) in sources.items():
        for module, name, line in raw_imports(source, importer, is_package):
            target = resolve(module, name)
            if target is not None and target != importer:
                edges.add((importer, target, line))
    return sorted(edges)


def circles(edges: list[Edge]) -> list[list[Edge]]:
    """The edges inside each strongly connected component of more than one module (Tarjan's
    algorithm), a list per component."""
    graph: dict[str, set[str]] = {}
    for a, b, _ in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = {stack.pop()}
            while node not in component:
                component.add(stack.pop())
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [[e for e in edges if e[0] in c and e[1] in c] for c in components]


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> int:
    """The index in ``layers`` of the longest entry that is ``module`` or, if dotted, a package
    above it.

    Raises:
        KeyError: no entry covers ``module``.
    """
    best, rank = "", None
    for i, entries in enumerate(layers):
        for entry in entries:
            covers = module == entry or ("." in entry and module.startswith(entry + "."))
            if covers and len(entry) > len(best):
                best, rank = entry, i
    if rank is None:
        raise KeyError(f"expected a module of one of the LAYERS, got {module!r}, which none covers")
    return rank


def upward(edges: list[Edge], layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[Edge]:
    """The edges from a module to one of a higher layer."""
    return [e for e in edges if layer_of(e[0], layers) < layer_of(e[1], layers)]


def repository_sources(root: Path = ROOT) -> dict[str, tuple[str, bool]]:
    """Every module of lzero/ and lzero_console.py: name -> (source, is_package)."""
    paths = sorted((root / "lzero").rglob("*.py"))
    paths += [root / "lzero_console.py", root / "lzero_interrupts.py"]
    return {module_name(p, root): (p.read_text(), p.name == "__init__.py") for p in paths}


def _listing(edges: Iterable[Edge]) -> str:
    return "\n".join(f"  {a} -> {b} (line {line})" for a, b, line in edges)


@pytest.fixture(scope="module")
def graph() -> list[Edge]:
    """The repository's import graph, without the imports of ``UPWARD_BY_NEED``."""
    return [e for e in build_graph(repository_sources()) if e[:2] not in UPWARD_BY_NEED]


def test_no_import_circles(graph):
    found = circles(graph)
    report = "\n".join(f"circle of {sorted({e[0] for e in c})}:\n{_listing(c)}" for c in found)
    assert not found, f"expected no import circles, got {len(found)}:\n{report}"


def test_no_import_from_a_lower_layer_up(graph):
    found = upward(graph)
    assert not found, f"expected imports down the LAYERS only, got:\n{_listing(found)}"


def test_every_module_has_a_layer():
    unplaced = []
    for name in repository_sources():
        try:
            layer_of(name)
        except KeyError:
            unplaced.append(name)
    assert not unplaced, f"expected every module in the LAYERS, got {unplaced} in none"


def test_the_imports_up_by_need_are_still_there():
    pairs = {e[:2] for e in build_graph(repository_sources())}
    gone = [pair for pair in UPWARD_BY_NEED if pair not in pairs]
    assert not gone, f"expected each import of UPWARD_BY_NEED to exist, got {gone} gone"


# The checker itself, on small made-up packages.


def _sources(**modules: str) -> dict[str, tuple[str, bool]]:
    """``pkg__init__='...'`` is the package ``pkg``; ``pkg__a='...'`` its module ``pkg.a``."""
    out = {}
    for key, source in modules.items():
        parts = key.split("__")
        is_package = parts[-1] == "init"
        out[".".join(parts[:-1] if is_package else parts)] = (source, is_package)
    return out


def test_a_circle_through_a_function_level_import_is_found():
    sources = _sources(
        lzero__init="",
        lzero__a="import os\nfrom lzero.b import f\n",
        lzero__b="def f():\n    from lzero import a\n    return a\n",
        lzero__c="from lzero.a import f\n",
    )
    assert circles(build_graph(sources)) == [[("lzero.a", "lzero.b", 2), ("lzero.b", "lzero.a", 2)]]


def test_an_upward_import_is_found_with_its_line():
    sources = _sources(
        lzero__init="",
        lzero__utils__init="",
        lzero__utils__x="def f():\n    from lzero.entry.y import g\n    return g\n",
        lzero__entry__init="",
        lzero__entry__y="from lzero.utils.x import f\ng = f\n",
    )
    edges = build_graph(sources)
    assert upward(edges) == [("lzero.utils.x", "lzero.entry.y", 2)]
    assert circles(edges) == [
        [("lzero.entry.y", "lzero.utils.x", 1), ("lzero.utils.x", "lzero.entry.y", 2)]
    ]


def test_relative_imports_submodules_and_faces_are_resolved():
    sources = _sources(
        lzero__init="",
        lzero__policy__init='"""Policies."""\nfrom lzero.policy.muzero import P\n__all__ = ["P"]\n',
        lzero__policy__muzero="P = 1\n",
        lzero__envs__init="",
        lzero__envs__x="from ..policy import P\nfrom . import y\nfrom .y import z\n",
        lzero__envs__y="z = 1\n",
    )
    assert build_graph(sources) == [
        ("lzero.envs.x", "lzero.envs.y", 2),
        ("lzero.envs.x", "lzero.envs.y", 3),
        ("lzero.envs.x", "lzero.policy.muzero", 1),
        ("lzero.policy", "lzero.policy.muzero", 2),
    ]


def test_type_checking_imports_and_outside_modules_are_left_out():
    source = (
        "from typing import TYPE_CHECKING\nimport numpy\n"
        "if TYPE_CHECKING:\n    from lzero.entry import y\nelse:\n    from lzero.errors import E\n"
    )
    sources = _sources(
        lzero__init="", lzero__utils__x=source, lzero__entry="", lzero__errors="E = 1\n"
    )
    assert build_graph(sources) == [("lzero.utils.x", "lzero.errors", 6)]


def test_a_package_that_does_more_than_re_export_is_no_face():
    source = "from lzero.x import y\nregister(y)\n"
    assert face_exports(source) is None
    assert face_exports("from lzero.x import y\n__all__ = ['y']\nz = y\n") == {
        "y": "lzero.x.y",
        "z": "lzero.x.y",
    }


def test_a_module_outside_the_layers_is_refused():
    with pytest.raises(KeyError, match="'lzero.new_module', which none covers"):
        layer_of("lzero.new_module")
    assert layer_of("lzero.envs.pool.board_pool") == layer_of("lzero") == 2
