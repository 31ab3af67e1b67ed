"""A local event's round loop, with a stand-in pool: the pairing sees each round's results before the
next round, byes are recorded, recorded matches are not played again, and a foreign file is refused.
The real matches are played in tests/cli/test_tournament.py."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from halali.engine.arena import MatchResult, Settings
from halali.engine.event import Event, Player, append, load, play, to_result
from halali.tournament import Result


class StubPool:
    """Plays no game: the higher level wins, and every task is remembered."""

    def __init__(self) -> None:
        self.tasks: list[tuple[Settings, int]] = []

    def play(self, tasks: Sequence[tuple[Settings, int]]) -> Iterator[tuple[int, MatchResult]]:
        self.tasks.extend(tasks)
        for i, (s, index) in reversed(list(enumerate(tasks))):  # out of order, as a pool finishes
            a, b = int(s.spec_a), int(s.spec_b)
            score = 1.0 if a > b else 0.0 if a < b else 0.5
            yield i, MatchResult(index, score, (10 * a, 10 * b), (a, b), won=(2 * score, 2 - 2 * score))


def _event(n: int, **kw: object) -> Event:
    return Event(tuple(Player(f"level{i}", str(i)) for i in range(1, n + 1)), **kw)  # type: ignore[arg-type]


def test_rounds_are_paired_from_the_results_before_them() -> None:
    event = _event(5, rounds=3)
    pool = StubPool()
    results: list[Result] = []
    played = list(play(event, pool, results=results))  # type: ignore[arg-type]
    assert len(played) == 6 and event.matches() == 6
    assert [p.round for p in played] == sorted(p.round for p in played)
    byes = [r for r in results if r.kind == "bye"]
    assert [b.round for b in byes] == [1, 2, 3] and len({b.players for b in byes}) == 3
    assert {index for _, index in pool.tasks} == {0, 1, 2}  # one deal per round: seed + round - 1
    met = [frozenset(r.players) for r in results if r.met]
    assert len(set(met)) == len(met)  # five players, three rounds: no rematch


def test_recorded_matches_are_not_played_again_and_strays_are_refused(tmp_path: Path) -> None:
    event = _event(4, rounds=2)
    first = list(play(event, StubPool()))  # type: ignore[arg-type]
    done = {(p.round, p.a, p.b): p.match for p in first[:3]}
    pool = StubPool()
    again = list(play(event, pool, done))  # type: ignore[arg-type]
    assert len(pool.tasks) == 1 and sum(p.resumed for p in again) == 3
    assert [(p.round, p.a, p.b) for p in again if not p.resumed] == [(first[3].round, first[3].a, first[3].b)]
    assert {(p.a, p.b) for p in first if p.round == 1} == {("level1", "level3"), ("level2", "level4")}
    stray = {(1, "level1", "level2"): first[0].match, **done}
    with pytest.raises(ValueError, match="does not have"):
        list(play(event, StubPool(), stray))  # type: ignore[arg-type]
    path = tmp_path / "event.jsonl"
    for p in first:
        append(path, event, p)
    assert load(path, event) == {(p.round, p.a, p.b): p.match for p in first}
    assert load(path, _event(4, rounds=5)) == load(path, event)  # more rounds continue the same event
    with pytest.raises(ValueError, match="another event"):
        load(path, _event(4, rounds=2, seed=9))


def test_round_robin_rounds_repeat_the_cycle() -> None:
    event = _event(3, format="round-robin", rounds=6)
    results: list[Result] = []
    played = list(play(event, StubPool(), results=results))  # type: ignore[arg-type]
    first, second = played[:3], played[3:]
    assert [(p.a, p.b) for p in first] == [(p.a, p.b) for p in second]


def test_a_match_becomes_a_result() -> None:
    match = MatchResult(0, 0.0, (30, 41), (12, 15), forfeit="A played x", forfeit_side="A", won=(0.5, 1.5))
    assert to_result(2, "x", "y", match) == Result(2, ("x", "y"), (0.0, 1.0), (0.5, 1.5), (30, 41), "forfeit")
    assert to_result(1, "x", "y", MatchResult(0, 0.5, (20, 20), (9, 9), won=(1.0, 1.0))).kind == "played"


@pytest.mark.parametrize("bad", [dict(format="knockout"), dict(rounds=0)])
def test_events_that_cannot_be_played_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _event(3, **bad)
    with pytest.raises(ValueError):
        Event((Player("a", "1"),))
    with pytest.raises(ValueError):
        Event((Player("a", "1"), Player("a", "2")))
