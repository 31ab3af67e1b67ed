"""``halali bench --search`` prints its figures in shape, for level 6 alone and against a baseline engine
(the speed itself is not a unit test)."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from halali.ai import search_positions
from halali.cli import main
from halali.engine import search_bench

# The baseline in these tests: this install's level 6 as an outside engine, a process of its own.
ENGINE = f"{shlex.quote(sys.executable)} -m halali.cli engine --level 6"


def _two_positions(tmp_path: Path) -> Path:
    """The first opening and the first final-phase position of the committed set."""
    lines = search_positions.POSITIONS.read_text().splitlines()
    keep: list[str] = []
    for phase in ("# opening", "# final"):
        i = next(i for i, line in enumerate(lines) if line.startswith(phase))
        keep += lines[i:i + 2]
    path = tmp_path / "two.txt"
    path.write_text("\n".join(keep) + "\n")
    return path


def test_bench_search_prints_per_position_and_totals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _two_positions(tmp_path)
    assert main(["bench", "--search", "--positions", str(path), "--depth", "2", "--movetime", "30",
                 "--baseline", ENGINE]) == 0
    out = capsys.readouterr().out
    rows = re.findall(r"^\s+(\d) (opening|final)\s+(baseline|current)\s+([\d.]+)\s+([\d.]+)\s+([\d,]+)\s+([\d,]+)"
                      r"\s+(\d+)\s+([\d,]+)$", out, re.M)
    assert [(r[0], r[1], r[2]) for r in rows] == [("1", "opening", "baseline"), ("1", "opening", "current"),
                                                  ("2", "final", "baseline"), ("2", "final", "current")]
    assert all(int(r[5].replace(",", "")) > 0 and int(r[7]) >= 1 for r in rows)
    assert "totals over 2 positions (ratio: baseline time / current time" in out
    for title in ("nodes/s (depth-limited)", "total time to d2", "nodes/s (30 ms searches)"):
        line = next(line for line in out.splitlines() if line.strip().startswith(title))
        base, cur, ratio = (float(x.replace(",", "")) for x in line.split()[-3:])
        assert base > 0 and cur > 0
        # above 1 means the current search is faster: fewer milliseconds, more nodes per second
        assert ratio == pytest.approx(cur / base if "nodes/s" in title else base / cur, abs=0.006, rel=0.01)


def test_bench_search_json_of_the_same_engine_on_both_sides_has_equal_nodes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _two_positions(tmp_path)
    assert main(["bench", "--search", "--positions", str(path), "--depth", "2", "--movetime", "20", "--json",
                 "--baseline", ENGINE]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["positions"] == 2 and data["labels"] == ["opening", "final"]
    assert data["engines"]["baseline"].startswith("halali level 6")
    for side in ("baseline", "current"):
        s = data["summary"][side]
        assert s["nodes"] > 0 and s["reached_d2"] == 2
        assert all(r["nodes"] > 0 and r["timed_nodes"] > 0 and r["timed_depth"] >= 1 for r in data["runs"][side])
    # No clock, a fresh bot with the same seed: the same search walks the same tree in either process.
    for b, c in zip(data["runs"]["baseline"], data["runs"]["current"], strict=True):
        assert b["depth_nodes"] == c["depth_nodes"]
    assert set(data["ratio"]) >= {"nps", "timed_nps", "median_d1", "total_d2"}


def test_bench_search_without_a_baseline_measures_level_6_and_says_how_to_add_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _two_positions(tmp_path)
    assert main(["bench", "--search", "--positions", str(path), "--depth", "1", "--movetime", "20", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "git worktree add --detach ../halali-baseline e9b1b22" in out and "--baseline" in out
    line = next(line for line in out.splitlines() if line.strip().startswith("nodes/s (depth-limited)"))
    assert float(line.split()[-1].replace(",", "")) > 0 and "ratio" not in out


def test_bench_search_refuses_a_bad_depth() -> None:
    with pytest.raises(ValueError):
        search_bench.run(depth=0)


def test_bench_search_refuses_a_missing_file_and_a_baseline_that_will_not_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--search", "--positions", str(tmp_path / "none.txt")]) != 0
    assert "no such file" in capsys.readouterr().err
    assert main(["bench", "--search", "--depth", "1", "--baseline", str(tmp_path / "no-such-engine")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("halali: error: cannot start engine") and "Traceback" not in err
