"""Where the compiled search is kept on disk, and who compiles it: light enough for the server to import.

numba compiles the kernel (``halali.ai.bits``) to machine code the first time it is used on a machine,
which takes a minute or more, and keeps the result on disk. This module imports nothing of numba, so
that ``halali serve`` can find out whether the kernel is compiled and start its compilation in a
process of its own (``halali.server.kernel_process``) without waiting for it.

- The cache is ``$XDG_CACHE_HOME/halali/kernel-<fingerprint>`` (``~/.cache`` by default): one folder
  per version of the kernel's sources, shared by every clone, worktree and install on the machine, so
  a fresh clone of sources compiled before loads them in a second instead of compiling them for a
  minute (``bits.jitcache`` tells numba to look there whatever the path of the sources). When that
  place cannot be written, the package's own ``bits/__pycache__``. ``HALALI_KERNEL_CACHE`` names
  another folder (the tests use an empty one). The eight folders compiled last are kept.
- The *mark* (``halali-kernel.ready``) holds the fingerprint of the sources the cache was compiled
  from; a mark with another fingerprint is stale and means nothing. In the package's folder,
  ``bits.jitcache`` removes the cache and its mark together when the sources change.
- The *lock* (an ``flock`` on ``halali-kernel.lock``) is held by whoever compiles, so two processes
  never compile at once and nobody loads a cache that is half written; the kernel ends with the
  process, so a killed compiler leaves no lock behind. The server takes it before it starts the
  compiling process and its bot workers, and hands it to the former (``take_lock``, ``hold``): the
  workers then wait for that compilation rather than race it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

BITS = Path(__file__).resolve().parent / "bits"
MODULES = ("tables", "flags", "weights", "rng", "gen", "step", "rollout", "check", "evaluate", "search_parts", "search")
MARK = "halali-kernel.ready"
LOCK = "halali-kernel.lock"
SHARED_PREFIX = "kernel-"
KEEP = 8  # shared folders kept: the kernels compiled last (a branch's, the main line's)


def fingerprint() -> str:
    """The compiled modules' sources, numba's and Python's versions: what the machine code depends on."""
    h = hashlib.sha256()
    for name in MODULES:
        with contextlib.suppress(OSError):
            h.update((BITS / f"{name}.py").read_bytes())
    with contextlib.suppress(metadata.PackageNotFoundError):
        h.update(metadata.version("numba").encode())
    h.update(sys.version.encode())
    return h.hexdigest()


def in_tree() -> Path:
    return BITS / "__pycache__"


def shared() -> Path | None:
    """The machine's folder for the kernel compiled from today's sources, wherever they are (None for
    a user without a home, whom the package's folder serves)."""
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:
        return None
    return base / "halali" / f"{SHARED_PREFIX}{fingerprint()[:16]}"


def cache_dir() -> Path:
    """The folder numba writes the compiled kernel into (see the module's docstring)."""
    chosen = os.environ.get("HALALI_KERNEL_CACHE")
    if chosen:
        return Path(chosen)
    folder = shared()
    with contextlib.suppress(OSError):
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            if os.access(folder, os.W_OK):
                return folder
    return in_tree()


def is_marked(folder: Path | None = None) -> bool:
    """True when the cache holds the kernel compiled from today's sources."""
    with contextlib.suppress(OSError):
        return ((folder or cache_dir()) / MARK).read_text() == fingerprint()
    return False


def mark(folder: Path | None = None) -> None:
    folder = folder or cache_dir()
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"{MARK}.{os.getpid()}"
        tmp.write_text(fingerprint())
        tmp.replace(folder / MARK)
    if folder == shared():
        prune(folder.parent)


def prune(base: Path, keep: int = KEEP) -> None:
    """Remove the shared folders but the ``keep`` compiled last (by their marks; a folder being
    compiled, not marked yet, by its last write), so that a machine that follows many versions of
    the kernel does not keep them all."""
    def compiled_at(folder: Path) -> float:
        for path in (folder / MARK, folder):
            with contextlib.suppress(OSError):
                return path.stat().st_mtime
        return 0.0

    folders = sorted(base.glob(f"{SHARED_PREFIX}*"), key=compiled_at, reverse=True)
    for old in folders[keep:]:
        shutil.rmtree(old, ignore_errors=True)


def unmark(folder: Path | None = None) -> None:
    with contextlib.suppress(OSError):
        ((folder or cache_dir()) / MARK).unlink()


_held = False  # this process was handed the lock, held since before it started (``take_lock``)


def take_lock(folder: Path | None = None) -> int | None:
    """The compile lock of the cache, taken now without waiting: an open file descriptor to hand to
    the process that is to compile (it holds the lock as long as it lives), None when another holds it."""
    folder = folder or cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def hold() -> None:
    """This process holds the lock through a descriptor it was handed (``take_lock``): ``compiling``
    must not wait for it."""
    global _held
    _held = True


@contextlib.contextmanager
def compiling(folder: Path | None = None) -> Iterator[None]:
    """Hold the compile lock of the cache (waiting while another process holds it)."""
    if _held:
        yield
        return
    folder = folder or cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:  # nowhere to lock: compile anyway, numba writes what it can
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock

