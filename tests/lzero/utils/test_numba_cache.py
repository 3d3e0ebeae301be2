"""The kernel cache is rebuilt when a file a kernel inlines changes, not only its own file."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

RUN = (
    "import sys; import pkg.b as b; value = b.g(); "
    "print(value, sum(b.g.stats.cache_hits.values()), sum(b.g.stats.cache_misses.values()))"
)


def write_package(root, stamped: bool, value: int) -> None:
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    init = ""
    if stamped:
        init = (
            "import os\nfrom lzero.utils.numba_cache import stamp_kernels\n"
            "stamp_kernels(os.path.dirname(os.path.abspath(__file__)))\n"
        )
    (pkg / "__init__.py").write_text(init)
    (pkg / "a.py").write_text(
        f"from numba import njit\n\n\n@njit(cache=True)\ndef f():\n    return {value}\n"
    )
    (pkg / "b.py").write_text(
        textwrap.dedent(
            """\
            from numba import njit

            from pkg.a import f


            @njit(cache=True)
            def g():
                return f() + 10
            """
        )
    )


def run(root) -> tuple[int, int, int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["PYTHONPATH"] = os.pathsep.join([str(root), *sys.path])
    out = subprocess.run(
        [sys.executable, "-c", RUN], cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    value, hits, misses = map(int, out.stdout.split())
    return value, hits, misses


def touch_later(path) -> None:
    """Moves the file's modification time on, as a later edit would (filesystems with coarse
    timestamps could otherwise give the rewrite the old one)."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


@pytest.mark.parametrize("edit", ["inlined", "unrelated"])
def test_a_kernel_is_rebuilt_when_a_file_it_inlines_changes(tmp_path, edit):
    write_package(tmp_path, stamped=True, value=1)
    assert run(tmp_path) == (11, 0, 1)  # compiled and cached
    assert run(tmp_path) == (11, 1, 0)  # loaded from the cache
    if edit == "inlined":  # b.py, g's own file, is unchanged: numba alone would load 11
        (tmp_path / "pkg" / "a.py").write_text(
            "from numba import njit\n\n\n@njit(cache=True)\ndef f():\n    return 2\n"
        )
        touch_later(tmp_path / "pkg" / "a.py")
        assert run(tmp_path) == (12, 0, 1)
        assert run(tmp_path) == (12, 1, 0)
    else:  # any file of the package counts, as a kernel's callees are not known
        (tmp_path / "pkg" / "c.py").write_text("X = 1\n")
        assert run(tmp_path) == (11, 0, 1)
    index = list((tmp_path / "pkg" / "__pycache__").glob("b.g-*.nbi"))
    assert len(index) == 1  # rewritten in place


def test_other_packages_keep_numbas_own_rule(tmp_path):
    """Packages that do not ask for it keep numba's per-file stamps (lzero's locators claim
    only the stamped directories)."""
    write_package(tmp_path, stamped=False, value=1)
    code = "import lzero; " + RUN  # lzero's locators installed, for its own directory only
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
    outs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        outs.append(tuple(map(int, out.stdout.split())))
    (tmp_path / "pkg" / "c.py").write_text("X = 1\n")
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    outs.append(tuple(map(int, out.stdout.split())))
    assert outs == [(11, 0, 1), (11, 1, 0), (11, 1, 0)]  # an unrelated new file: still cached


def test_lzero_and_zoo_kernels_are_stamped_with_their_packages():
    import lzero
    import zoo
    from lzero.utils import numba_cache

    lz, zo = (os.path.realpath(os.path.dirname(m.__file__)) for m in (lzero, zoo))
    assert numba_cache._DEPENDS[lz] == (lz,)
    assert numba_cache._DEPENDS[zo] == (zo, lz)
    from lzero.mcts import tactics

    locator = tactics.win_cells._cache._impl.locator
    assert isinstance(locator, numba_cache._TreeStamped)
    assert locator.get_source_stamp()[1] == (numba_cache._tree_stamp(lz),)
