"""The shared verbs serve both games: ``halali new|legal|apply|play --game hare``."""

from __future__ import annotations

import io

from halali.cli import main
from halali.games.hare.notation import parse_position as parse_hare


def test_new_legal_apply_with_game_hare(capsys) -> None:
    assert main(["new", "--game", "hare", "--players", "4", "--seed", "3"]) == 0
    position = capsys.readouterr().out.strip()
    state = parse_hare(position)
    assert state.fen() == position
    assert main(["legal", "--game", "hare", position]) == 0
    actions = capsys.readouterr().out.split()
    assert actions == sorted(actions) and actions
    assert main(["apply", "--game", "hare", position, actions[0]]) == 0
    after = capsys.readouterr().out.strip()
    expected = parse_hare(position)
    expected.play(actions[0])
    assert after == expected.fen()


def test_hare_batch_forms(monkeypatch, capsys) -> None:
    assert main(["new", "--game", "hare", "--seed", "1"]) == 0
    position = capsys.readouterr().out.strip()
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{position}\nnonsense\n"))
    assert main(["legal", "--game", "hare"]) == 2
    out = capsys.readouterr()
    lines = out.out.split("\n")
    assert lines[0] and lines[1] == ""
    assert "line 2" in out.err


def test_players_is_refused_for_the_forest_game(capsys) -> None:
    assert main(["new", "--players", "3"]) == 2
    assert "2 players" in capsys.readouterr().err


def test_play_game_hare_runs_a_hunt_of_bots(capsys) -> None:
    assert main(["play", "--game", "hare", "--players", "3", "--watch", "--opponent", "1", "--seed", "5"]) == 0
    assert "hare hunt" in capsys.readouterr().out.lower()
