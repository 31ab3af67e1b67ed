"""Where the compiled search is kept, the mark that says it is complete, and the lock of whoever compiles."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import halali
from halali.ai import kernel


def test_a_mark_of_other_sources_means_nothing(tmp_path: Path) -> None:
    assert not kernel.is_marked(tmp_path)
    kernel.mark(tmp_path)
    assert kernel.is_marked(tmp_path)
    (tmp_path / kernel.MARK).write_text("the fingerprint of yesterday's sources")
    assert not kernel.is_marked(tmp_path)
    kernel.mark(tmp_path)
    kernel.unmark(tmp_path)
    assert not kernel.is_marked(tmp_path)


def test_the_cache_folder_can_be_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HALALI_KERNEL_CACHE", str(tmp_path / "elsewhere"))
    assert kernel.cache_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv("HALALI_KERNEL_CACHE")
    # The machine's folder for these sources, shared by every copy of them.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert kernel.cache_dir() == tmp_path / "cache" / "halali" / f"kernel-{kernel.fingerprint()[:16]}"
    assert kernel.cache_dir().is_dir()
    # Nowhere to write it (a file where the folder would be): the package's own folder.
    (tmp_path / "blocked").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "blocked"))
    assert kernel.cache_dir() == kernel.in_tree()
    # A user without a home (an arbitrary uid in a container): the package's own folder too.

    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(Path, "home", homeless)
    assert kernel.cache_dir() == kernel.in_tree()


def test_only_the_kernels_compiled_last_are_kept(tmp_path: Path) -> None:
    for age in range(kernel.KEEP + 3):
        folder = tmp_path / f"kernel-{age:016x}"
        folder.mkdir()
        (folder / kernel.MARK).write_text("compiled")
        os.utime(folder / kernel.MARK, (1e9 - age, 1e9 - age))
    compiling = tmp_path / "kernel-being-compiled"  # no mark yet: its last write counts
    compiling.mkdir()
    kernel.prune(tmp_path)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([compiling.name, *(f"kernel-{age:016x}" for age in range(kernel.KEEP - 1))])


def test_a_second_copy_of_the_sources_loads_the_kernel_the_first_compiled(tmp_path: Path) -> None:
    """A fresh clone (here a copy of the package elsewhere) finds the kernel compiled from the same
    sources by another copy, and compiles nothing: numba writes no file into the shared folder."""
    from halali.ai.search_bots import warm_up

    warm_up()  # compiled here (or already) into the machine's folder for these sources
    folder = kernel.cache_dir()
    assert kernel.is_marked(folder)

    def files() -> dict[str, float]:  # the search's, which no other test compiles anew (``compile_tree``)
        return {p.name: p.stat().st_mtime for p in folder.glob("search.*") if p.suffix in (".nbi", ".nbc")}

    before = files()
    assert any(name.startswith("search.rec") for name in before)
    copy = tmp_path / "clone" / "src"
    shutil.copytree(Path(halali.__file__).parent, copy / "halali", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env.pop("HALALI_KERNEL_CACHE", None)
    probe = "import halali; from halali.ai.search_bots import warm_up; warm_up(); print(halali.__file__)"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(copy / "halali" / "__init__.py")
    assert files() == before
    # Nor beside its sources: the copy's kernel came from the shared folder.
    assert not list((copy / "halali" / "ai" / "bits").glob("__pycache__/*.nb[ic]"))


def test_the_fingerprint_follows_the_compiled_sources() -> None:
    assert kernel.fingerprint() == kernel.fingerprint()
    assert all((kernel.BITS / f"{name}.py").is_file() for name in kernel.MODULES)


def test_only_one_process_compiles_at_a_time(tmp_path: Path) -> None:
    probe = ("import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR)\n"
             "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n    sys.exit(3)\n")
    lock = str(tmp_path / kernel.LOCK)
    with kernel.compiling(tmp_path):
        held = subprocess.run([sys.executable, "-c", probe, lock], check=False)
    free = subprocess.run([sys.executable, "-c", probe, lock], check=False)
    assert held.returncode == 3  # another process could not take it while it was held
    assert free.returncode == 0
