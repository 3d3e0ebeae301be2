"""numba's on-disk kernel cache, invalidated by any change to the package's sources.

numba stamps a cached kernel with its own source file only. Our kernels inline kernels of
other files (the searches inline ``lzero.mcts.tactics``, the bots the games' rules), so after
an edit or an upgrade in place, a kernel whose own file did not change would load machine code
built from the old version of the files it inlines. :func:`stamp_kernels` makes every kernel
under a package directory carry the stamps (relative path, size, modification time) of all
``.py`` files of that directory and of the directories it names: any change to them recompiles
the kernels when they are next loaded, and each kernel's index is rewritten in place, so no old
entries pile up. ``lzero`` stamps its own kernels on import; ``zoo`` its own with ``lzero``'s.

The stamps are read once per process (a walk of the directories, a few milliseconds).
"""

from __future__ import annotations

import hashlib
import os

from numba.core import caching

__all__ = ["stamp_kernels"]

_DEPENDS: dict[str, tuple[str, ...]] = {}  # package directory -> the directories it stamps with
_TREE_STAMPS: dict[str, str] = {}  # directory -> the stamp of its .py files (once a process)


def _tree_stamp(root: str) -> str:
    if root not in _TREE_STAMPS:
        entries = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith(".py"):
                    path = os.path.join(dirpath, name)
                    st = os.stat(path)
                    entries.append((os.path.relpath(path, root), st.st_size, st.st_mtime_ns))
        _TREE_STAMPS[root] = hashlib.sha256(repr(entries).encode()).hexdigest()
    return _TREE_STAMPS[root]


def _owner(py_file: str) -> str | None:
    """The stamped package directory that holds ``py_file``, if any."""
    path = os.path.realpath(py_file)
    for root in _DEPENDS:
        if path.startswith(root + os.sep):
            return root
    return None


class _TreeStamped:
    """Mixin over a numba locator: claims only the stamped packages' files, and adds their
    directories' stamps to the file's own."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if _owner(py_file) is None:
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        trees = tuple(_tree_stamp(d) for d in _DEPENDS[_owner(self._py_file)])
        return (super().get_source_stamp(), trees)


def _locator(name: str):
    # numba >= 0.62 names the locators without the leading underscore
    return getattr(caching, name, None) or getattr(caching, "_" + name)


def _install() -> None:
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    classes = impl._locator_classes
    if any(issubclass(c, _TreeStamped) for c in classes):
        return
    ours = [
        type(f"TreeStamped{base.__name__.lstrip('_')}", (_TreeStamped, base), {})
        for base in map(
            _locator, ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator")
        )
    ]
    classes[:0] = ours  # in place: CacheImpl's subclasses share the list


def stamp_kernels(package_dir: str, *depends_on: str) -> None:
    """Stamps the cached numba kernels of the files under ``package_dir`` with all ``.py``
    files under it and under ``depends_on`` (the directories of packages whose kernels they
    inline). Call it before the package's kernels are defined (numba picks a kernel's cache
    when it is decorated)."""
    root = os.path.realpath(package_dir)
    _DEPENDS[root] = (root, *(os.path.realpath(d) for d in depends_on))
    _install()
