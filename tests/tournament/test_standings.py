"""Standings and crosstables: the order and its tie-breaks, shared ranks, and cells that add up."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halali.tournament import Entrant, Result, Standing, absent, bye, crosstable, standings
from tournament_helpers import entrants, hare, swiss

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _key(s: Standing) -> tuple[float, float, float, int]:
    return (round(s.score, 9), round(s.buchholz, 9), round(s.games, 9), s.tiles)


@settings(max_examples=50)
@given(SEEDS, st.integers(2, 14), st.integers(1, 5), st.booleans())
def test_standings_are_ordered_and_ranks_shared(seed: int, n: int, rounds: int, forest: bool) -> None:
    rng = random.Random(seed)
    people = entrants(n, rng)
    if forest:
        people, results, _ = list(swiss(people, rounds, rng, withdraw=0.1))[-1]
    else:
        results = hare(people, rounds, rng) if n >= 3 else []
    table = standings(people, results)
    assert sorted(s.id for s in table) == sorted(e.id for e in people)
    score: Counter[str] = Counter()
    for r in results:
        for p, v in zip(r.players, r.points, strict=True):
            score[p] += v
    for s in table:
        assert s.score == pytest.approx(score[s.id])
        assert s.rank == 1 + sum(_key(o) > _key(s) for o in table)  # shared ranks, the next one skips
    keys = [_key(s) for s in table]
    assert keys == sorted(keys, reverse=True)
    rows = crosstable(people, results, rounds)
    assert [r.id for r in rows] == [s.id for s in table]
    by_number = {r.number: r for r in rows}
    for row in rows:
        assert sum(c.points or 0.0 for c in row.cells) == pytest.approx(row.score)
        for cell in row.cells:
            for other in cell.opponents:  # the opponent's row points back in the same round
                assert row.number in by_number[other].cells[cell.round - 1].opponents


def test_buchholz_for_matches_tables_and_byes() -> None:
    people = [Entrant(p) for p in "abcde"]
    results = [
        Result(1, ("a", "b"), (1.0, 0.0), (1.5, 0.5), (30, 12)),
        Result(1, ("c", "d"), (0.5, 0.5), (1.0, 1.0), (20, 20)),
        Result(1, ("e",), (1.0,), kind="bye"),
        Result(2, ("a", "c", "e"), (1.0, 0.5, 0.0)),  # a hare-style table, for the mean of table-mates
        absent(2, "b"),
        bye(2, "d"),
    ]
    table = {s.id: s for s in standings(people, results)}
    # final scores: a 2, b 0.5, c 1, d 1.5, e 1
    assert table["a"].buchholz == pytest.approx(0.5 + (1 + 1) / 2)
    assert table["b"].buchholz == pytest.approx(2 + 0.5)  # the absence counts b's own score
    assert table["e"].buchholz == pytest.approx(1 + (2 + 1) / 2)  # so does the bye
    assert table["a"].games == 2.5 and table["a"].tiles == 30 and table["a"].played == 2
    assert table["d"].played == 1 and table["b"].played == 1


def test_tie_breaks_in_order_and_equal_players_share_a_rank() -> None:
    people = [Entrant(p) for p in "abcdef"]
    results = [
        Result(1, ("a", "b"), (1.0, 0.0), (2.0, 0.0), (10, 0)),
        Result(1, ("c", "d"), (1.0, 0.0), (1.5, 0.5), (10, 0)),
        Result(1, ("e", "f"), (1.0, 0.0), (1.5, 0.5), (10, 0)),
        Result(2, ("a", "d"), (0.5, 0.5), (1.0, 1.0), (5, 5)),
        Result(2, ("c", "f"), (0.5, 0.5), (1.0, 1.0), (5, 5)),
        Result(2, ("e", "b"), (0.5, 0.5), (1.0, 1.0), (0, 0)),
    ]
    table = standings(people, results)
    assert [(s.id, s.rank) for s in table] == [("a", 1), ("c", 2), ("e", 3), ("d", 4), ("f", 4), ("b", 6)]
    # a, c and e have 1.5; a's Buchholz (b 0.5 + d 0.5) equals c's (d 0.5 + f 0.5) and e's (f + b), so
    # games decide a first; c and e are equal there too, and tiles put c (15) before e (10).


def test_crosstable_cells() -> None:
    people = [Entrant(p, 1500.0 - i) for i, p in enumerate("abcd")]
    results = [
        Result(1, ("a", "b"), (1.0, 0.0), (2.0, 0.0), (25, 5)),
        Result(1, ("c", "d"), (0.5, 0.5), (1.0, 1.0), (10, 10), kind="played"),
        Result(2, ("a", "c"), (1.0, 0.0), kind="forfeit"),
        bye(2, "b"),
        absent(2, "d"),
    ]
    rows = {r.id: r for r in crosstable(people, results, 3)}
    # a 2, b 1 (Buchholz a 2 + its own 1), d 1 (c 0.5 + its own 1), c 0.5
    assert [r.id for r in crosstable(people, results, 3)] == ["a", "b", "d", "c"]
    assert [c.text for c in rows["a"].cells] == ["+2", "+4f", ""]
    assert [c.text for c in rows["b"].cells] == ["-1", "bye", ""]
    assert [c.text for c in rows["c"].cells] == ["=3", "-1f", ""]
    assert [c.text for c in rows["d"].cells] == ["=4", "abs", ""]
    assert rows["a"].cells[0].tiles == 25 and rows["a"].cells[0].games == 2.0
    assert rows["a"].cells[2].kind == "" and rows["a"].cells[2].points is None
    table = crosstable(people, [Result(1, ("a", "b", "c"), (1.0, 0.5, 0.0))], 1)
    assert table[0].cells[0].text == "2,3 1.00"
    sent = json.loads(json.dumps([asdict(row) for row in table]))  # what the site sends
    assert sent[0]["cells"][0]["opponents"] == [2, 3] and sent[3]["cells"][0]["kind"] == ""


def test_standings_refuse_unknown_players_and_crosstables_double_results() -> None:
    with pytest.raises(ValueError):
        standings([Entrant("a")], [Result(1, ("a", "z"), (1.0, 0.0))])
    with pytest.raises(ValueError):
        crosstable([Entrant("a"), Entrant("b")], [bye(1, "a"), absent(1, "a")], 1)


def test_withdrawn_players_keep_their_results() -> None:
    people = [Entrant("a"), Entrant("b", withdrawn=True)]
    table = standings(people, [Result(1, ("a", "b"), (0.0, 1.0))])
    assert [(s.id, s.withdrawn, s.score) for s in table] == [("b", True, 1.0), ("a", False, 0.0)]
