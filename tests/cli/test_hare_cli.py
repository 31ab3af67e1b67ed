"""The hare hunt's command line: new, legal, apply (with batch forms), play, arena."""

from __future__ import annotations

import argparse
import io

import pytest

from halali.cli import main
from halali.cli.hare import apply_main, legal_main, new_main, play_main
from halali.games.hare import HareState, parse_position


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
         monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_new_prints_a_full_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["hare", "new", "--players", "4", "--seed", "3"], capsys)
    assert code == 0
    assert out.strip() == HareState.new(4, seed=3).fen()
    assert parse_position(out.strip()).nplayers == 4


def test_new_refuses_seven_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["hare", "new", "--players", "7"], capsys)
    assert code == 2 and "2 to 6 players" in err


def test_legal_and_apply(capsys: pytest.CaptureFixture[str]) -> None:
    fen = HareState.new(2, seed=3).fen()
    code, out, _ = _run(["hare", "legal", fen], capsys)
    assert code == 0 and len(out.split()) == 30 and out.split()[0].startswith("bush=")
    code, out, _ = _run(["hare", "apply", fen, "bush=f8", "roll"], capsys)
    after = parse_position(out.strip())
    assert code == 0 and after.bush >= 0 and after.rolls == 1
    code, _, err = _run(["hare", "apply", fen, "roll"], capsys)
    assert code == 2 and "places the bush" in err


def test_batch_forms_answer_every_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    fen = HareState.new(2, seed=3).fen()
    code, out, err = _run(["hare", "apply"], capsys, f"{fen} ; bush=f8\nnonsense ; roll\n\n{fen} ; bush=f8 roll\n",
                          monkeypatch)
    lines = out.split("\n")
    assert code == 2 and lines[1] == "" and lines[2] == "" and "line 2" in err
    assert parse_position(lines[0]).phase == "roll" and parse_position(lines[3]).rolls == 1
    code, out, _ = _run(["hare", "legal"], capsys, f"{fen}\n", monkeypatch)
    assert code == 0 and len(out.split()) == 30


def test_rules_on_the_command_line_must_match_the_position(capsys: pytest.CaptureFixture[str]) -> None:
    fen = HareState.new(2, seed=3).fen()
    code, _, err = _run(["hare", "legal", "--rules", "bush=off", fen], capsys)
    assert code == 2 and "options" in err


def test_functions_take_a_plain_namespace(capsys: pytest.CaptureFixture[str]) -> None:
    assert new_main(argparse.Namespace(players=2, seed=1, rules=[])) == 0
    fen = capsys.readouterr().out.strip()
    assert legal_main(argparse.Namespace(position=[fen], rules=[])) == 0
    assert len(capsys.readouterr().out.split()) == 30
    # the position may arrive as separate words, the actions after it
    assert apply_main(argparse.Namespace(position=fen.split()[0], actions=[*fen.split()[1:], "bush=f8"])) == 0
    assert parse_position(capsys.readouterr().out.strip()).phase == "roll"


def test_play_watch_plays_a_whole_hunt(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["hare", "play", "--watch", "--players", "3", "--seed", "2", "--opponent", "heuristic"],
                        capsys)
    assert code == 0
    assert "over:" in out and ("wins" in out or "share the win" in out)


def test_play_with_a_person_who_quits(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n99\nc3-c4\nroll=1,1\n1\nquit\n"))
    code = play_main(argparse.Namespace(players=2, seed=4, opponent="random", seat=1, watch=False, rules=[]))
    out = capsys.readouterr().out
    assert code == 1 and "Hunt abandoned" in out
    assert "Type an action" in out and "No action number 99" in out and "not now" in out and "rolled by the game" in out


def test_play_with_a_person_to_the_end(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    code = play_main(argparse.Namespace(players=2, seed=6, opponent="heuristic", seat=2, rules=["bush=off"]))
    out = capsys.readouterr().out
    assert code == 0 and "over:" in out


def test_arena_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["hare", "arena", "--bots", "heuristic,random", "--games", "2", "--players", "2"], capsys)
    assert code == 0 and "heuristic" in out and "mean place" in out


def test_play_through_the_shared_verb_with_its_forest_default_level(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    code = play_main(argparse.Namespace(players=3, seed=2, opponent="6", rules=[]))
    out = capsys.readouterr().out
    assert code == 1 and "strong 2" in out and "Hunt abandoned" in out
