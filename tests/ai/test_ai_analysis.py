"""Analysis: the value of a position and of its actions, for the command line and the server."""

from __future__ import annotations

import pytest

from halali.ai.analysis import analyse, analyse_position
from halali.cli import main
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position

# Brown's hunter on a7 aims south at a blue bear on a5 with a6 empty; the bear could flee to b5.
SHOT = "S??????/1??????/B1?????/???1???/???????/???????/??????? brown - - - - 3 - -"


def test_the_obvious_shot_is_best_and_worth_about_a_bear() -> None:
    score, actions = analyse(parse_position(SHOT), 0.3)
    assert actions[0][0] == "a7xa5"
    assert score == actions[0][1]
    assert score - actions[1][1] > 5  # a bear is 10 points; nothing else comes close
    values = [v for _, v in actions]
    assert values == sorted(values, reverse=True)


def test_every_listed_action_is_legal_and_listed_once() -> None:
    pos = Position.deal(seed=12)
    for a in pos.legal_actions()[:20]:
        if not pos.is_over():
            pos.push(a)
    result = analyse_position(pos.view(), None, nodes=200_000)
    texts = [a for a, _ in result.actions]
    assert len(texts) == len(set(texts)) == len(pos.legal_actions())
    for text in texts:
        pos.copy().play(text)
    assert result.nodes > 0 and result.depth >= 1


def test_the_secret_changes_nothing() -> None:
    pos = Position.deal(seed=5)
    for a in pos.legal_actions()[:9]:
        pos.push(a)
    assert analyse_position(pos, None, nodes=20_000).actions == analyse_position(pos.view(), None, nodes=20_000).actions


def test_a_finished_game_has_nothing_to_analyse() -> None:
    with pytest.raises(ValueError, match="over"):
        analyse(parse_position("7/7/7/7/7/7/F6 brown - - - 0 0 - -"), 0.1)


def test_analyse_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", *SHOT.split(), "--movetime", "200", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "evaluation: +" in out and "for brown" in out and "nodes/s" in out
    assert "  1. a7xa5" in out and "  3. " in out and "  4. " not in out
    assert main(["analyse", "not a position"]) == 2
