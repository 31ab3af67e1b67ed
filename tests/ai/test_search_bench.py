"""``halali bench --search`` prints its figures in shape (the speed itself is not a unit test)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from halali.ai import evaluate as E
from halali.ai import search_bench
from halali.ai.levels import STYLES
from halali.cli import main


def _two_positions(tmp_path: Path) -> Path:
    """The first opening and the first final-phase position of the committed set."""
    lines = search_bench.POSITIONS.read_text().splitlines()
    keep: list[str] = []
    for phase in ("# opening", "# final"):
        i = next(i for i, line in enumerate(lines) if line.startswith(phase))
        keep += lines[i:i + 2]
    path = tmp_path / "two.txt"
    path.write_text("\n".join(keep) + "\n")
    return path


def test_the_committed_positions_cover_every_phase() -> None:
    positions = search_bench.load_positions()
    assert 12 <= len(positions) <= 20
    labels = [label for label, _ in positions]
    assert {"opening", "middle", "final"} <= set(labels)
    for _, pos in positions:
        assert not pos.knows_deal() or not pos.hidden  # public views
        assert len(pos.legal_actions()) > 1


def test_bench_search_prints_per_position_and_totals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _two_positions(tmp_path)
    assert main(["bench", "--search", "--positions", str(path), "--depth", "2", "--movetime", "30"]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^\s+(\d) (opening|final)\s+(baseline|current)\s+([\d.]+)\s+([\d.]+)\s+([\d,]+)\s+([\d,]+)"
                      r"\s+(\d+)\s+([\d,]+)$", out, re.M)
    assert [(r[0], r[1], r[2]) for r in rows] == [("1", "opening", "baseline"), ("1", "opening", "current"),
                                                  ("2", "final", "baseline"), ("2", "final", "current")]
    assert all(int(r[5].replace(",", "")) > 0 and int(r[7]) >= 1 for r in rows)
    assert "totals over 2 positions" in out
    for title in ("nodes/s (depth-limited)", "median time to d1", "total time to d2", "nodes/s (30 ms searches)"):
        line = next(line for line in out.splitlines() if line.strip().startswith(title))
        base, cur, ratio = (float(x.replace(",", "")) for x in line.split()[-3:])
        assert base > 0 and cur > 0 and ratio > 0


def test_bench_search_json_has_nodes_and_ratios(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Level 6 with the baseline's evaluation weights, so that both sides value the leaves alike and
    # the node counts compare (level 6's own weights, evaluate.STRONGEST, grow a different tree).
    monkeypatch.setattr(search_bench, "STYLES", {**STYLES, 6: replace(STYLES[6], weights=E.WEIGHTS)})
    path = _two_positions(tmp_path)
    assert main(["bench", "--search", "--positions", str(path), "--depth", "2", "--movetime", "20", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["positions"] == 2 and data["labels"] == ["opening", "final"]
    for side in ("baseline", "current"):
        s = data["summary"][side]
        assert s["nodes"] > 0 and s["nps"] > 0 and s["reached_d2"] == 2 and s["median_d2"] > 0
        assert all(r["nodes"] > 0 and r["timed_nodes"] > 0 for r in data["runs"][side])
    # No clock: the depth-limited searches walk the baseline's tree, less the horizon's quiet outcomes
    # that level 6 no longer searches again (FRONTIER), so never more nodes.
    assert all(c["nodes"] <= b["nodes"] for b, c in zip(data["runs"]["baseline"], data["runs"]["current"], strict=True))
    assert set(data["ratio"]) >= {"nps", "timed_nps", "median_d1", "total_d2"}


def test_bench_search_refuses_a_bad_depth() -> None:
    with pytest.raises(ValueError):
        search_bench.run(depth=0)


def test_the_committed_positions_are_what_the_script_writes() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "search_positions.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(Path(search_bench.__file__).resolve().parents[2])})
    assert done.returncode == 0, done.stdout + done.stderr


def test_bench_search_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--search", "--positions", str(tmp_path / "none.txt")]) != 0
    assert "no such file" in capsys.readouterr().err
