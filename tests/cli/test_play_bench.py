"""The terminal game and the benchmark command, driven through the real command line."""

from __future__ import annotations

import io
import re

import pytest

from halali.cli import main
from halali.cli.bench import perft_speed, random_play
from halali.games.forest.match import Match
from halali.games.forest.rules import DEFAULT_RULES


def _play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    rc = main(["play", *args])
    return rc, capsys.readouterr().out


def test_play_a_single_game_against_greedy_to_the_end(monkeypatch, capsys) -> None:
    rc, out = _play(monkeypatch, capsys, "1\n" * 500, "--opponent", "greedy", "--seed", "4", "--rules", "match=single")
    assert rc == 0
    m = re.search(r"Game 1 over: blue (\d+) - brown (\d+)", out)
    assert m, out[-2000:]
    assert "final turns left" in out
    assert "greedy bot plays" in out


def test_mistyped_and_illegal_actions_get_a_clear_message_and_a_new_prompt(monkeypatch, capsys) -> None:
    stdin = "zz9\nd4-d5\n999\n\u00b2\n1\nquit\n"  # a superscript two: a digit to isdigit(), no number
    rc, out = _play(monkeypatch, capsys, stdin, "--opponent", "human", "--seed", "4")
    assert rc == 1
    assert "is not an action" in out and "'\u00b2' is not an action" in out
    assert "there is no tile on d4" in out
    assert "No action number 999" in out
    assert "Game abandoned" in out


def test_two_people_play_a_whole_match_with_roles_swapped(monkeypatch, capsys) -> None:
    rc, out = _play(monkeypatch, capsys, "1\n" * 1000, "--opponent", "human", "--seed", "11")
    assert rc == 0
    assert "Game 1 over" in out and "Game 2 over" in out
    assert "roles swapped" in out
    m = re.search(r"Match over: Player 1 (\d+) - Player 2 (\d+)", out)
    assert m
    # Player 1 always took the first listed action; a match object replaying the same choices agrees.
    match = Match(DEFAULT_RULES, seed=11)
    while True:
        pos = match.position
        if pos.is_over():
            if not match.can_start_next():
                break
            match.start_next()
            continue
        first = sorted(pos.view().action_str(a) for a in pos.view().legal_actions())[0]
        pos.play(first)
    points, _ = match.totals()
    assert (int(m.group(1)), int(m.group(2))) == tuple(points)


def test_bench_figures_are_consistent() -> None:
    r = random_play(30, seed=3, rules=DEFAULT_RULES, progress=False)
    assert r["games"] == 30
    assert 40 < r["mean_length"] < 200
    assert r["actions_per_s"] == pytest.approx(r["mean_length"] * r["games_per_s"])
    p = perft_speed(DEFAULT_RULES, depth=2)
    assert p["nodes"] > 2000


def test_bench_command_prints_its_figures(capsys) -> None:
    assert main(["bench", "--games", "20", "--quiet", "--perft-depth", "2"]) == 0
    out = capsys.readouterr().out
    for label in ("games/s", "actions/s", "mean length", "perft nodes/s", "target 80,000"):
        assert label in out


def test_bench_envs_prints_engine_openspiel_and_pettingzoo_side_by_side(capsys) -> None:
    pytest.importorskip("pyspiel")  # the research extras (scripts/test.sh installs them)
    assert main(["bench", "--envs", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[1]
    for column in ("engine", "openspiel", "pettingzoo raw_env", "pettingzoo env"):
        assert column in header
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("forest (", "hare ("))}
    assert set(rows) == {"forest", "hare"}
    assert all(len(re.findall(r"\d[\d,]*", row.split(")", 1)[1])) == 4 for row in rows.values())
    assert "target 20,000: x" in out
