"""The committed positions of the search bench and the search's tests: every phase, public views, and
exactly what the script that writes them writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from halali.ai import search_positions


def test_the_committed_positions_cover_every_phase() -> None:
    positions = search_positions.load_positions()
    assert 12 <= len(positions) <= 20
    labels = [label for label, _ in positions]
    assert {"opening", "middle", "final"} <= set(labels)
    for _, pos in positions:
        assert not pos.knows_deal() or not pos.hidden  # public views
        assert len(pos.legal_actions()) > 1


def test_the_committed_positions_are_what_the_script_writes() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "search_positions.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(search_positions.__file__).resolve().parents[2])})
    assert done.returncode == 0, done.stdout + done.stderr
