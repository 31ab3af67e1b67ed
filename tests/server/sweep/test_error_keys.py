"""Every error key the server can raise, found in its source (subpackages too), is one the sweep would
accept: documented in docs/*.md, translated in all five languages, with an English message for
programs. The sweep checks the answers it provokes; this catches a refusal it does not reach."""

from __future__ import annotations

import re

from sweep_world import ROOT, error_problem


def test_every_error_key_the_server_raises_is_documented_and_translated() -> None:
    keys: set[str] = set()
    for source in (ROOT / "src/halali/server").rglob("*.py"):
        keys |= set(re.findall(r'ClientError\(\s*"(error\.[a-z_]+)"', source.read_text(encoding="utf-8")))
    assert {"error.no_table", "error.no_tournament", "error.bad_token"} <= keys
    problems = sorted(f"{key}: {p}" for key in keys if (p := error_problem(key)))
    assert not problems, problems
