"""Keep numba's on-disk cache of the compiled kernels honest, and put it where it can be written.

numba keys a cached function on its own source file only, so a change to ``step.py`` would leave
the search in ``search.py`` (which has ``make`` compiled into it) stale, and a change to
``tables.py`` every function that froze its tables. Before anything is compiled, a
fingerprint of all the compiled modules' sources is compared with the one stored next to the
cache; when they differ the cache files of these modules are removed (with the mark that said the
kernel was compiled, ``halali.ai.kernel``) and rebuilt.

When the package's folder is not writable (``pip install .`` into a read-only place) the cache goes
to a folder named by that fingerprint (``kernel.cache_dir``), which numba is told of here, before
it compiles anything: a change of sources then gets a new folder.
"""

from __future__ import annotations

import contextlib
import os

from halali.ai import kernel


def check() -> None:
    cache = kernel.cache_dir()
    if cache != kernel.in_tree():
        os.environ["NUMBA_CACHE_DIR"] = str(cache)
        import numba.core.config

        setattr(numba.core.config, "CACHE_DIR", str(cache))  # noqa: B010  (numba reads it at compile time)
        return
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


check()
