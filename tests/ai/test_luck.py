"""Luck analysis: the luck of reveals, the skill loss of decisions, and the command."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from halali.ai.luck import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    GameLuck,
    luck_of_game,
    luck_of_match,
    mark,
    record_notes,
    reveal_luck,
)
from halali.cli import main
from halali.games.forest.actions import REVEAL, TYPE_SHIFT, Action
from halali.games.forest.position import Position
from halali.games.forest.record import parse_record, record_of
from halali.games.forest.tiles import HIDDEN, HUNTERS


def _random_game(seed: int) -> tuple[Position, list[Action]]:
    pos = Position.deal(seed=seed)
    start = pos.copy()
    rng = random.Random(seed)
    actions: list[Action] = []
    while not pos.is_over():
        a = rng.choice(pos.legal_actions())
        actions.append(a)
        pos.push(a)
    return start, actions


@cache
def _game(seed: int) -> tuple[Position, list[Action], GameLuck]:
    start, actions = _random_game(seed)
    return start, actions, luck_of_game(start, actions, depth=1)


def _reveal_squares(pos: Position) -> list[int]:
    return [a & 63 for a in pos.legal_actions() if a >> TYPE_SHIFT & 7 == REVEAL]


@pytest.mark.parametrize("plies", [0, 9, 30])
def test_luck_sums_to_zero_in_expectation(plies: int) -> None:
    start, actions = _random_game(5)
    pos = start.copy()
    for a in actions[:plies]:
        pos.push(a)
    view = pos.view()
    for square in _reveal_squares(view)[:2]:
        outcomes = reveal_luck(view, square)
        assert len(outcomes) > 1
        assert sum(p for p, _ in outcomes.values()) == pytest.approx(1.0)
        assert sum(p * luck for p, luck in outcomes.values()) == pytest.approx(0.0, abs=1e-9)


def test_the_game_uses_the_same_values_as_a_single_reveal() -> None:
    start, actions, g = _game(3)
    r = g.reveals[5]
    pos = start.copy()
    for a in actions[:r.ply]:
        pos.push(a)
    view = pos.view()
    lucks = {view.action_str(a): luck for a, (_, luck) in reveal_luck(view, actions[r.ply] & 63).items()}
    assert lucks[r.action] == pytest.approx(r.luck, abs=1e-12)


def test_a_reveal_with_one_possible_outcome_has_no_luck() -> None:
    for seed in range(20):
        start, actions = _random_game(seed)
        pos = start.copy()
        for a in actions:
            if len(pos.hidden) == 1:
                break
            pos.push(a)
        (square,) = pos.hidden
        if pos.board[square] - HIDDEN in HUNTERS or pos.is_over():
            continue  # a hunter has four outcomes (one per rifle)
        view = pos.view()
        assert len(view.hidden_distribution()) == 1
        (luck,) = [luck for _, luck in reveal_luck(view, square).values()]
        assert luck == 0.0
        return
    pytest.fail("no game among the seeds ends on a tile that is not a hunter")


def test_a_whole_game_adds_up() -> None:
    _, actions, g = _game(3)
    assert g.reveals and all(r.outcomes > 1 or r.luck == 0.0 for r in g.reveals)
    assert len(g.reveals) == sum(1 for a in actions if a >> TYPE_SHIFT & 7 == REVEAL)
    for p in (0, 1):
        assert g.luck(p) == pytest.approx(sum(r.luck for r in g.reveals if r.player == p))
        assert g.skill_loss(p) == pytest.approx(sum(d.loss for d in g.decisions if d.player == p))
        assert all(d.loss >= 0 for d in g.decisions)
        assert g.adjusted(p) == pytest.approx(g.score_difference(p) - g.luck(p) + g.luck(1 - p))
    assert g.adjusted(0) == pytest.approx(-g.adjusted(1))
    luckiest, unluckiest = g.luckiest(), g.unluckiest()
    assert luckiest is not None and unluckiest is not None
    assert luckiest.luck == max(r.luck for r in g.reveals) and unluckiest.luck == min(r.luck for r in g.reveals)
    s = g.summary()
    assert s.keys[0][0] in ("luck.luckier", "luck.even")
    assert all(isinstance(v, int) for _, params in s.keys for v in params.values())
    assert "luck" in s.text and "played" in s.text


def test_a_decision_is_marked_by_its_loss() -> None:
    assert INACCURACY < MISTAKE < BLUNDER
    assert [mark(x) for x in (0.0, INACCURACY - 0.01, INACCURACY, MISTAKE - 0.01, MISTAKE, BLUNDER, 40.0)] == [
        None, None, "inaccuracy", "inaccuracy", "mistake", "blunder", "blunder"]


def test_a_match_adds_the_games_by_seat() -> None:
    g1, g2 = _game(3)[2], _game(4)[2]
    m = luck_of_match([g1, g2], ("Ann", "Bob"))
    # seat 0 plays brown in game 1 and blue in game 2
    assert m.luck(0) == pytest.approx(g1.luck(1) + g2.luck(0))
    assert m.skill_loss(1) == pytest.approx(g1.skill_loss(0) + g2.skill_loss(1))
    assert m.adjusted(0) == pytest.approx(g1.adjusted(1) + g2.adjusted(0))
    text = m.summary().text
    assert ("Ann" in text or "Bob" in text or "equally" in text) and "blue" not in text


def test_the_command_prints_the_luck_of_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start, actions, g = _game(3)
    path = tmp_path / "game.txt"
    path.write_text(record_of(start, actions, {"Deal": start.fen()}).format(), encoding="utf-8")
    assert main(["analyse", "--record", str(path), "--luck", "--depth", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count(" expected ") == len(g.reveals)
    assert "luck-adjusted result" in out and "luckiest:" in out
    assert out.rstrip().splitlines()[-1] == g.summary().text
    assert main(["analyse", "--luck"]) == 2


def test_an_annotated_record_carries_the_luck_and_the_mistakes(tmp_path: Path) -> None:
    start, actions, g = _game(3)
    source, out = tmp_path / "game.txt", tmp_path / "annotated.txt"
    source.write_text(record_of(start, actions, {"Deal": start.fen()}).format(), encoding="utf-8")
    assert main(["analyse", "--record", str(source), "--luck", "--depth", "1", "--annotate", str(out)]) == 0
    rec = parse_record(out.read_text(encoding="utf-8"))
    headers, comments = record_notes(g)
    assert rec.comments == comments and all(rec.headers[k] == v for k, v in headers.items())
    assert float(rec.headers["BlueLuck"]) == pytest.approx(g.luck(0), abs=0.005)
    for r in g.reveals:
        assert f"luck {r.luck:+.2f}" in rec.comments[r.ply]
    marked = [d for d in g.decisions if mark(d.loss)]
    assert marked and all(f"better {d.best}" in rec.comments[d.ply] for d in marked)
    assert rec.final().fen() == record_of(start, actions).final().fen()  # the comments change nothing
