"""The interop tests need the research libraries (``pip install -e '.[research]'``, which
scripts/test.sh does). Without them this folder is not collected, so that a checkout without the
extras still runs the rest of the suite; under CI (``CI`` set) a missing library is an error instead,
so the conformance tests can never be left out silently there.
"""

from __future__ import annotations

import importlib.util
import os

RESEARCH = ("pyspiel", "pettingzoo", "gymnasium", "resvg_py", "PIL")
MISSING = [name for name in RESEARCH if importlib.util.find_spec(name) is None]

if MISSING and os.environ.get("CI"):
    raise RuntimeError(f"CI: the research extras are not installed ({', '.join(MISSING)})")

collect_ignore_glob = ["*.py"] if MISSING else []
