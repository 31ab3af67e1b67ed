"""Keep numba's on-disk cache of the compiled kernels honest, and put it where every copy finds it.

numba keys a cached function on its own source file only, so a change to ``step.py`` would leave
the search in ``search.py`` (which has ``make`` compiled into it) stale, and a change to
``tables.py`` every function that froze its tables. The cache is therefore a folder per fingerprint
of all the compiled modules' sources (``kernel.cache_dir``): new sources, a new folder.

numba's own places for a cache depend on where the sources are (a ``__pycache__`` beside them, or a
sub-folder named by their path), so a second clone of the same sources would compile them again.
``KernelLocator`` puts the kernel's functions in the fingerprint's folder itself; numba still checks
each function against a hash of its source file's contents, and keys it by the machine's CPU.

Only when the shared folder cannot be written does the cache fall back to the package's own
``bits/__pycache__``. There, a fingerprint stored beside the cache is compared with today's; when
they differ the cache files of these modules are removed (with the mark that said the kernel was
compiled, ``halali.ai.kernel``) and rebuilt.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import numba.core.config
from numba.core.caching import CacheImpl, _CacheLocator, _SourceFileBackedLocatorMixin

from halali.ai import kernel

_folder: Path = kernel.in_tree()


class KernelLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """numba's cache of a function of ``halali.ai.bits``: the folder of today's sources, whatever
    their path (numba asks the locators in turn; any other function goes to numba's own)."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno

    def get_cache_path(self) -> str:
        return str(_folder)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> KernelLocator | None:
        if Path(py_file).resolve().parent != kernel.BITS:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[no-untyped-call]


def _numba_locators() -> str:
    """This locator first, then numba's own, as numba's setting names them."""
    return ",".join([f"{__name__}.KernelLocator", *(c.__name__ for c in CacheImpl._locator_classes)])


def _clear_stale_tree(cache: Path) -> None:
    stamp = cache / "halali-jit.stamp"
    want = kernel.fingerprint()
    with contextlib.suppress(OSError):
        if stamp.read_text() == want:
            return
    with contextlib.suppress(OSError):
        kernel.unmark(cache)
        for name in kernel.MODULES:
            for cached in cache.glob(f"{name}.*.nb[ic]"):
                cached.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(want)


def check() -> None:
    global _folder
    _folder = kernel.cache_dir()
    if _folder == kernel.in_tree():
        _clear_stale_tree(_folder)
    # Read by numba as each function of the kernel is decorated, which comes after this (every
    # compiled module imports this one first).
    setattr(numba.core.config, "CACHE_LOCATOR_CLASSES", _numba_locators())  # noqa: B010


check()
