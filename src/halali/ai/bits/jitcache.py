"""Keep numba's on-disk cache of the compiled kernels honest.

numba keys a cached function on its own source file only, so a change to ``step.py`` would leave
the search in ``search.py`` (which has ``make`` compiled into it) stale, and a change to
``tables.py`` every function that froze its tables. Before anything is compiled, a
fingerprint of all the compiled modules' sources is compared with the one stored next to the
cache; when they differ the cache files of these modules are removed and rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

_HERE = Path(__file__).resolve().parent
MODULES = ("tables", "weights", "rng", "gen", "step", "rollout", "check", "evaluate", "search_parts", "search")


def _fingerprint() -> str:
    h = hashlib.sha256()
    for name in MODULES:
        with contextlib.suppress(OSError):
            h.update((_HERE / f"{name}.py").read_bytes())
    return h.hexdigest()


def check() -> None:
    cache = _HERE / "__pycache__"
    stamp = cache / "halali-jit.stamp"
    want = _fingerprint()
    with contextlib.suppress(OSError):
        if stamp.read_text() == want:
            return
    with contextlib.suppress(OSError):
        for name in MODULES:
            path = _HERE / f"{name}.py"
            for cached in (path.parent / "__pycache__").glob(f"{path.stem}.*.nb[ic]"):
                cached.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(want)


check()
