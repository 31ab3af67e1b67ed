"""Where the compiled search is kept, the mark that says it is complete, and the lock of whoever compiles."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
    # A clone or an editable install: the package's own folder, which is writable here.
    assert kernel.cache_dir() == kernel.in_tree()


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
