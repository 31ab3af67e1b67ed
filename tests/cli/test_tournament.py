"""``halali tournament``: real events of the cheap levels, checked against the matches they recorded.

The printed standings and crosstable are read back and held to the results file, match by match:
whatever the bots played, the tables must say exactly that. A wide grace keeps a busy machine from
turning a slow answer into a forfeit (which the tables would show correctly, but it says nothing here).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from fake_engines import command
from halali.cli import main

FAST = ["--movetime", "20", "--grace", "1000", "--seed", "3"]


def _section(out: str, title: str) -> list[list[str]]:
    """The rows (split on blanks) under the line starting with ``title``, header left out."""
    block = out.split("\n" + title, 1)[1].split("\n\n", 1)[0]
    return [line.split() for line in block.splitlines()[2:]]


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _check_against_file(out: str, path: Path, rounds: int) -> None:
    standings = _section(out, "Standings")
    cross = _section(out, "Crosstable")
    number = {row[1]: int(row[0]) for row in cross}
    cells = {row[1]: row[2:2 + rounds] for row in cross}
    assert [row[2] for row in standings] == [row[1] for row in cross]
    score: Counter[str] = Counter()
    seen: Counter[tuple[int, str]] = Counter()
    for item in _lines(path):
        r, a, b, result = item["round"], item["a"], item["b"], item["result"]
        assert isinstance(r, int) and isinstance(a, str) and isinstance(b, str) and isinstance(result, dict)
        s = result["score"]
        forfeit = "f" if result["forfeit"] else ""
        mark_a, mark_b = {1.0: ("+", "-"), 0.5: ("=", "="), 0.0: ("-", "+")}[s]
        assert cells[a][r - 1] == f"{mark_a}{number[b]}{forfeit}"
        assert cells[b][r - 1] == f"{mark_b}{number[a]}{forfeit}"
        score[a] += s
        score[b] += 1.0 - s
        seen[r, a] += 1
        seen[r, b] += 1
    for player, row in cells.items():
        byes = sum(c == "bye" for c in row)
        assert byes + sum(seen[r, player] for r in range(1, rounds + 1)) == rounds  # one table or the bye
        score[player] += byes
    for row in standings:
        assert float(row[3]) == pytest.approx(score[row[2]])
    totals = [float(row[3]) for row in standings]
    assert totals == sorted(totals, reverse=True)
    ranks = [int(row[1]) for row in standings]
    assert ranks[0] == 1 and all(r <= i + 1 for i, r in enumerate(ranks))
    ratings = _section(out, "Ratings")
    assert sorted(row[0] for row in ratings) == sorted(number)


def test_a_swiss_event_prints_tables_that_match_its_matches(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "swiss.jsonl"
    assert main(["tournament", "--level", "3", "--level", "2", "--level", "1", "--level", "greedy",
                 "--rounds", "3", "--jobs", "2", "--out", str(out_file), *FAST]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Swiss, 3 round(s), 4 players, 6 two-game matches")
    lines = _lines(out_file)
    assert len(lines) == 6
    assert len({frozenset((x["a"], x["b"])) for x in lines}) == 6  # 4 players, 3 rounds: no rematch needed
    _check_against_file(out, out_file, 3)


def test_a_round_robin_of_three_meets_each_pair_once_with_a_bye_each_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "rr.jsonl"
    assert main(["tournament", "--level", "1", "--level", "2", "--level", "1", "--format", "round-robin",
                 "--out", str(out_file), *FAST]) == 0
    out = capsys.readouterr().out
    lines = _lines(out_file)
    pairs = Counter(frozenset((x["a"], x["b"])) for x in lines)
    assert sorted(pairs.values()) == [1, 1, 1]
    assert set().union(*pairs) == {"level1", "level2", "level1-2"}  # a level twice plays as two players
    assert sorted(x["round"] for x in lines) == [1, 2, 3]
    cross = _section(out, "Crosstable")
    for r in range(3):
        assert sum(row[2 + r] == "bye" for row in cross) == 1
    _check_against_file(out, out_file, 3)


def test_a_run_is_resumed_from_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "run.jsonl"
    base = ["tournament", "--level", "2", "--level", "1", "--level", "random", "--out", str(out_file), *FAST]
    assert main([*base, "--rounds", "2"]) == 0
    first = out_file.read_text().splitlines()
    assert len(first) == 2
    capsys.readouterr()
    assert main([*base, "--rounds", "3"]) == 2  # an existing file is continued only on request
    assert "--resume" in capsys.readouterr().err
    with out_file.open("a") as f:
        f.write('{"event": {"format"')  # a line cut short by a kill is left out
    assert main([*base, "--rounds", "3", "--resume"]) == 0
    captured = capsys.readouterr()
    assert "2 match(es) read from" in captured.err and "1 played now" in captured.err
    lines = out_file.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 4
    (tmp_path / "whole.jsonl").write_text("\n".join(lines[:2] + lines[3:]) + "\n")
    _check_against_file(captured.out, tmp_path / "whole.jsonl", 3)
    # Resuming with all matches in the file plays none and prints the same tables.
    assert main([*base, "--rounds", "3", "--resume"]) == 0
    again = capsys.readouterr()
    assert again.out == captured.out and "3 match(es) read from" in again.err
    assert len(out_file.read_text().splitlines()) == 4
    assert main([*base[:-len(FAST)], "--movetime", "30", "--grace", "1000", "--seed", "3",
                 "--rounds", "3", "--resume"]) == 2
    assert "another event" in capsys.readouterr().err


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--level", "2", "--rounds", "2"]) == 2
    assert main(["tournament", "--level", "2", "--level", "1"]) == 2  # Swiss needs --rounds
    assert main(["tournament", "--level", "9", "--level", "1", "--rounds", "1"]) == 2
    assert main(["tournament", "--level", "2", "--level", "1", "--rounds", "1", "--resume"]) == 2
    assert main(["tournament", "--level", "2", "--level", "1", "--rounds", "0"]) == 2
    assert capsys.readouterr().err.count("halali: error:") == 5


def test_an_outside_engine_plays_under_its_own_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "engine.jsonl"
    command = f"{sys.executable} -m halali.cli engine --level 1"
    assert main(["tournament", "--engine", command, "--level", "1", "--rounds", "1", "--out", str(out_file),
                 *FAST]) == 0
    out = capsys.readouterr().out
    assert f"engine1: {command}" in out and "level1: level 1" in out
    (line,) = _lines(out_file)
    assert {line["a"], line["b"]} == {"engine1", "level1"}
    _check_against_file(out, out_file, 1)


@pytest.mark.parametrize("argv", [["tournament", "--level", "1", "--rounds", "1"], ["arena", "engine", "1"]])
def test_an_engine_that_does_not_start_is_one_line_and_status_2(tmp_path: Path, argv: list[str],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nonexistent" / "cmd")
    assert main([*argv, "--engine", missing, "--movetime", "20"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("halali: error: ") and err.count("\n") == 1 and missing in err


def test_an_engine_that_dies_mid_game_loses_that_match_and_plays_the_next(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "crash.jsonl"
    crasher = command(tmp_path, "crash", limit=4)  # four actions, then it exits
    base = ["tournament", "--engine", crasher, "--level", "1", "--out", str(out_file), *FAST]
    assert main([*base, "--rounds", "2"]) == 0
    lines = _lines(out_file)
    assert [x["round"] for x in lines] == [1, 2]
    for x in lines:
        result = x["result"]
        side = 0 if x["a"] == "engine1" else 1
        assert result["forfeit_kind"] == "crash" and result["forfeit_side"] == "AB"[side]
        assert result["answers"][side] == 4  # started afresh for round 2: four actions again
        assert result["won"][1 - side] == 2.0  # the game it died in and the one after go to the other side
    _check_against_file(capsys.readouterr().out, out_file, 2)
    assert main([*base, "--rounds", "3", "--resume"]) == 0  # and the event goes on to its end
    assert [x["round"] for x in _lines(out_file)] == [1, 2, 3]
