"""The codebase stays ruff-clean (lint and format), as configured in pyproject.toml."""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff(*args):
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it is in the test extra)")
    cmd = [sys.executable, "-m", "ruff", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_is_clean():
    proc = _ruff("check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_clean():
    proc = _ruff("format", "--check", "--no-cache", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


# Where lzero/ imports a module it is given by name, or touches ``sys.modules``: its plugin
# mechanisms, whose names come from the user, a config or an entry point, never from the
# library itself. Anywhere else such a lookup is a back door to a higher layer.
PLUGIN_LOADERS = {
    ("lzero/envs/registry.py", "_import_declared"): "the module an entry point declares",
    ("lzero/envs/registry.py", "import_module_names"): "LightZero's import_names of a config",
    ("lzero/cli.py", "_load_adder"): "subcommands of packages built on lzero (entry points)",
    ("lzero/cli_args.py", "load_config_module"): "the config module or file the user names",
    ("lzero/cli_args.py", "_module_near_miss"): "a package above the config name the user typed",
    ("lzero/envs/wrappers/replay.py", "check_replay_format"): "optional video codecs present",
}
_DYNAMIC_IMPORTS = {
    "import_module",
    "__import__",
    "find_spec",
    "spec_from_file_location",
    "module_from_spec",
}


def _callee_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def layer_offences(label: str, source: str) -> list[str]:
    """The lines of ``source`` (the file ``label`` of lzero/) that import the zoo, name it in a
    dynamic import, or look modules up by a computed name or in ``sys.modules`` outside the
    ``PLUGIN_LOADERS``."""
    offences = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = child.name
            what = None
            if isinstance(child, ast.Import):
                if any(a.name.split(".")[0] == "zoo" for a in child.names):
                    what = "imports zoo"
            elif isinstance(child, ast.ImportFrom):
                if (child.module or "").split(".")[0] == "zoo":
                    what = "imports zoo"
            elif isinstance(child, ast.Call) and _callee_name(child) in _DYNAMIC_IMPORTS:
                names = [a.value for a in child.args if isinstance(a, ast.Constant)]
                if any(str(n).split(".")[0] == "zoo" for n in names):
                    what = "imports zoo by name"
                elif len(names) < len(child.args) and (label, function) not in PLUGIN_LOADERS:
                    what = f"{_callee_name(child)} of a computed name"
            elif (
                isinstance(child, ast.Attribute)
                and child.attr == "modules"
                and getattr(child.value, "id", None) == "sys"
                and (label, function) not in PLUGIN_LOADERS
            ):
                what = "looks modules up in sys.modules"
            if what:
                offences.append(f"{label}:{child.lineno} ({function}): {what}")
            visit(child, inner)

    visit(ast.parse(source), "<module>")
    return offences


def test_library_never_reaches_into_the_zoo():
    """``lzero`` never imports ``zoo``: not by an import statement, nor by ``importlib`` or
    ``sys.modules`` (STYLE: "Layers are honest"); the game hands its functions over."""
    offenders = []
    for path in sorted((ROOT / "lzero").rglob("*.py")):
        label = path.relative_to(ROOT).as_posix()
        offenders += layer_offences(label, path.read_text())
    assert not offenders, "lzero/ must not reach into zoo/:\n" + "\n".join(offenders)


# board_pool.py as it was: it found the env class's kernels through its module.
_OLD_BOARD_POOL = """
import sys

def _class_function(env_cls, name):
    for klass in env_cls.__mro__:
        fn = getattr(sys.modules.get(klass.__module__), name, None)
        if fn is not None:
            return fn
    raise ConfigError(f"{env_cls.__name__}: expected its module to use a kernel {name!r}")
"""


@pytest.mark.parametrize(
    "source, offence",
    [
        (_OLD_BOARD_POOL, "(_class_function): looks modules up in sys.modules"),
        ("import zoo.board_games\n", "(<module>): imports zoo"),
        ("from zoo.board_games import common\n", "(<module>): imports zoo"),
        ("import importlib\nimportlib.import_module('zoo.board_games')\n", "imports zoo by name"),
        ("def f(name):\n    return __import__(name)\n", "(f): __import__ of a computed name"),
        ("import sys\nGAMES = sys.modules['zoo']\n", "looks modules up in sys.modules"),
    ],
)
def test_the_layer_check_catches_back_doors(source, offence):
    offences = layer_offences("lzero/envs/pool/board_pool.py", source)
    assert len(offences) == 1 and offence in offences[0], offences


def test_the_layer_check_passes_plugin_loaders_and_fixed_names():
    assert not layer_offences(
        "lzero/cli.py", "import importlib\nimportlib.import_module('lzero.x')\n"
    )
    source = "import importlib\ndef _load_adder(spec):\n    return importlib.import_module(spec)\n"
    assert not layer_offences("lzero/cli.py", source)
    assert layer_offences("lzero/other.py", source)
