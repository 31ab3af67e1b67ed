"""A server and the command line start without what they do not use: the compiled search (numba) is
imported by the processes that search (numpy too), redis by a node of a cluster, networkx at a tournament's first
pairing. Together they were about half a second of CPU at every start of a server or of a `halali`
command (docs/performance.md, "The test command")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("numba", "numpy", "halali.ai.search_bots", "redis", "networkx")

REPORT = """
import json, sys
print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)))
"""


def imported_after(code: str) -> list[str]:
    """Which of ``HEAVY`` a fresh interpreter has imported once ``code`` has run."""
    out = subprocess.run([sys.executable, "-c", code + REPORT.format(heavy=HEAVY)], capture_output=True,
                         text=True, check=True, timeout=120)
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_a_server_is_built_and_the_command_line_parsed_without_the_search_redis_or_networkx(tmp_path: Path) -> None:
    code = f"""
from pathlib import Path
from halali.cli import build_parser
from halali.server.app import create_app
from halali.server.testing import settings_for_tests
build_parser().parse_args(["serve", "--port", "8123"])
create_app(settings_for_tests(Path({str(tmp_path)!r})))
"""
    assert imported_after(code) == []


def test_a_searching_level_still_loads_the_search_when_it_plays() -> None:
    # The other side of the test above: the search comes in when a level needs it, and plays.
    code = """
from halali.ai.registry import make_bot
from halali.games.forest.position import Position
view = Position.deal(seed=1).view()
assert make_bot(3, 1).choose(view, 0.05) in view.legal_actions()
"""
    assert imported_after(code) == ["halali.ai.search_bots", "numba", "numpy"]
