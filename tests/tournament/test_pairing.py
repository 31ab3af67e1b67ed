"""Swiss pairings, hare seatings and round robins against their promises, on random tournaments.

The optimality checks do not trust the matching: they recompute the best achievable rematch count
and score spread by brute force over every pairing (small fields) or with a plain matching on the
rematch-free graph (larger ones).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halali.tournament import Entrant, Result, Round, absent, bye, pair_swiss, round_robin, seat_tables, table_sizes
from tournament_helpers import entrants, hare, perfect_matchings, swiss

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _scores(results: Sequence[Result]) -> Counter[str]:
    out: Counter[str] = Counter()
    for r in results:
        for p, v in zip(r.players, r.points, strict=True):
            out[p] += v
    return out


def _met(results: Sequence[Result]) -> set[frozenset[str]]:
    return {frozenset((a, b)) for r in results if r.kind in ("played", "forfeit")
            for a in r.players for b in r.players if a != b}


def _cost(pairs: Sequence[Sequence[str]], met: set[frozenset[str]], score: Counter[str]) -> tuple[int, float]:
    return (sum(frozenset(p) in met for p in pairs), sum((score[a] - score[b]) ** 2 for a, b in pairs))


def _bye_candidates(active: list[Entrant], results: Sequence[Result]) -> list[str]:
    """Who may get the bye: no bye yet if anyone has none, then the lowest score, then the lowest rating."""
    had = Counter(r.players[0] for r in results if r.kind == "bye")
    score = _scores(results)
    key = {e.id: (had[e.id], score[e.id], e.rating) for e in active}
    best = min(key.values())
    return [pid for pid, k in key.items() if k == best]


def _check_round(people: list[Entrant], results: list[Result], rnd: Round) -> None:
    active = [e for e in people if not e.withdrawn]
    ids = [e.id for e in active]
    assert sorted(rnd.players) == sorted(ids)  # everyone exactly once, nobody withdrawn
    assert all(len(t) == 2 for t in rnd.tables)
    assert (rnd.bye is not None) == (len(ids) % 2 == 1)
    if rnd.bye is not None:
        assert rnd.bye in _bye_candidates(active, results)
        had = {r.players[0] for r in results if r.kind == "bye"}
        if rnd.bye in had:
            assert set(ids) <= had  # a second bye only once everyone has had one
    met = _met(results)
    score = _scores(results)
    got = _cost(rnd.tables, met, score)
    if len(ids) <= 8:
        byes = _bye_candidates(active, results) if len(ids) % 2 else [None]
        best = min(_cost(m, met, score) for b in byes
                   for m in perfect_matchings([p for p in ids if p != b]))
        assert got == best
    elif got[0] > 0:  # a rematch: no rematch-free pairing may exist for any allowed bye
        byes = _bye_candidates(active, results) if len(ids) % 2 else [None]
        for b in byes:
            rest = [p for p in ids if p != b]
            free = nx.Graph([(a, c) for i, a in enumerate(rest) for c in rest[i + 1:] if frozenset((a, c)) not in met])
            assert len(nx.max_weight_matching(free, maxcardinality=True)) < len(rest) // 2


@settings(max_examples=60)
@given(SEEDS, st.integers(2, 14), st.integers(1, 6), st.booleans())
def test_swiss_rounds_keep_every_priority(seed: int, n: int, rounds: int, tied: bool) -> None:
    rng = random.Random(seed)
    for people, results, number in swiss(entrants(n, rng, tied), rounds, rng, withdraw=0.05):
        if sum(not e.withdrawn for e in people) >= 2:
            _check_round(people, results, pair_swiss(people, results, number))


@settings(max_examples=120)
@given(SEEDS, st.integers(3, 8), st.integers(2, 6), st.booleans())
def test_small_fields_are_paired_as_well_as_any_pairing_can(seed: int, n: int, rounds: int, tied: bool) -> None:
    """Where brute force can enumerate every pairing, the later rounds (with rematch pressure and
    score groups) are checked against all of them."""
    rng = random.Random(seed)
    for people, results, number in list(swiss(entrants(n, rng, tied), rounds, rng))[1:]:
        _check_round(people, results, pair_swiss(people, results, number))


def test_round_one_is_top_half_against_bottom_half() -> None:
    people = [Entrant(f"p{i}", 2000.0 - 10 * i) for i in range(8)]
    assert pair_swiss(people, [], 1) == Round((("p0", "p4"), ("p1", "p5"), ("p2", "p6"), ("p3", "p7")))


def test_bye_goes_to_the_lowest_score_then_the_lowest_rating() -> None:
    people = [Entrant(p, r) for p, r in (("a", 1900), ("b", 1800), ("c", 1700), ("d", 1600), ("e", 1500))]
    results = [Result(1, ("a", "b"), (1.0, 0.0)), Result(1, ("c", "d"), (0.0, 1.0)), bye(1, "e")]
    rnd = pair_swiss(people, results, 2)
    assert rnd.bye == "c"  # b and c have 0; e had the bye; c is rated lower than b
    assert rnd.tables == (("a", "d"), ("e", "b"))


def test_a_rematch_free_pairing_beats_equal_scores() -> None:
    people = [Entrant(p, 1500.0 + i) for i, p in enumerate("abcd")]
    # a and b both won against c and d respectively, and have already met in round 1 as well.
    results = [Result(1, ("a", "b"), (0.5, 0.5)), Result(1, ("c", "d"), (0.5, 0.5)),
               Result(2, ("a", "c"), (1.0, 0.0)), Result(2, ("b", "d"), (1.0, 0.0))]
    rnd = pair_swiss(people, results, 3)
    assert {frozenset(t) for t in rnd.tables} == {frozenset("ad"), frozenset("bc")}


def test_rematches_only_when_nothing_else_is_left() -> None:
    people = [Entrant(p) for p in "abcd"]
    results = [r for number, rnd in enumerate(round_robin("abcd"), 1)
               for r in (Result(number, t, (0.5, 0.5)) for t in rnd.tables)]
    rnd = pair_swiss(people, results, 4)
    assert len(rnd.tables) == 2 and rnd.bye is None


def test_later_results_do_not_change_a_round() -> None:
    rng = random.Random(5)
    people = entrants(7, rng)
    states = list(swiss(people, 3, rng))
    _, final, _ = states[-1]
    for _, results, number in states[:-1]:
        assert pair_swiss(people, final, number) == pair_swiss(people, results, number)


def test_pairing_refuses_a_bad_round_and_duplicate_ids() -> None:
    with pytest.raises(ValueError):
        pair_swiss([Entrant("a")], [], 0)
    with pytest.raises(ValueError):
        pair_swiss([Entrant("a"), Entrant("a")], [], 1)
    assert pair_swiss([Entrant("a")], [], 1) == Round((), "a")


# ---- the hare hunt ----------------------------------------------------------------------------
@given(st.integers(3, 80), st.integers(3, 6))
def test_table_sizes_fill_every_count(n: int, size: int) -> None:
    sizes = table_sizes(n, size)
    assert sum(sizes) == n
    assert all(3 <= s <= 6 for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)


def test_table_sizes_close_to_the_wish() -> None:
    assert table_sizes(8) == [4, 4]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(5) == [5]
    assert table_sizes(13) == [5, 4, 4]
    assert table_sizes(12, 6) == [6, 6]
    with pytest.raises(ValueError):
        table_sizes(2)
    with pytest.raises(ValueError):
        table_sizes(9, 7)


def _spread(tables: Sequence[Sequence[str]], score: Counter[str]) -> float:
    return sum((score[a] - score[b]) ** 2 for t in tables for i, a in enumerate(t) for b in t[i + 1:])


def _repeats(tables: Sequence[Sequence[str]], results: Sequence[Result]) -> int:
    met = Counter(frozenset((a, b)) for r in results for i, a in enumerate(r.players) for b in r.players[i + 1:])
    return sum(met[frozenset((a, b))] for t in tables for i, a in enumerate(t) for b in t[i + 1:])


@settings(max_examples=40)
@given(SEEDS, st.integers(3, 14), st.integers(0, 4))
def test_seatings_cover_everyone_and_only_improve_on_the_standing(seed: int, n: int, rounds: int) -> None:
    rng = random.Random(seed)
    people = entrants(n, rng)
    results = hare(people, rounds, rng)
    rnd = seat_tables(people, results, rounds + 1)
    assert rnd.bye is None
    assert sorted(rnd.players) == sorted(e.id for e in people)
    assert all(3 <= len(t) <= 6 for t in rnd.tables)
    score = _scores(results)
    order = sorted(people, key=lambda e: (-score[e.id], -e.rating, e.id))
    plain, start = [], 0
    for k in table_sizes(n):
        plain.append([e.id for e in order[start:start + k]])
        start += k
    assert _repeats(rnd.tables, results) <= _repeats(plain, results)
    assert _spread(rnd.tables, score) <= _spread(plain, score) + 1e-9


def test_swaps_split_the_last_round_tables_when_scores_allow() -> None:
    people = [Entrant(p, 2000.0 - i) for i, p in enumerate("abcdefgh")]
    tied = (0.5, 0.5, 0.5, 0.5)
    results = [Result(1, tuple("abcd"), tied), Result(1, tuple("efgh"), tied)]
    rnd = seat_tables(people, results, 2)
    assert _repeats(rnd.tables, results) == 4  # two of each old table at each new one: the least possible


def test_seating_needs_three_and_leaves_out_the_withdrawn() -> None:
    with pytest.raises(ValueError):
        seat_tables([Entrant("a"), Entrant("b"), Entrant("c", withdrawn=True)], [], 1)
    rnd = seat_tables([Entrant(p) for p in "abcd"] + [Entrant("x", withdrawn=True)], [], 1)
    assert sorted(rnd.players) == list("abcd")


# ---- round robins -----------------------------------------------------------------------------
@given(st.integers(2, 14))
def test_round_robin_meets_every_pair_once(n: int) -> None:
    ids = [f"p{i}" for i in range(n)]
    rounds = round_robin(ids)
    assert len(rounds) == (n if n % 2 else n - 1)
    pairs = Counter(frozenset(t) for rnd in rounds for t in rnd.tables)
    assert set(pairs.values()) == {1}
    assert len(pairs) == n * (n - 1) // 2
    for rnd in rounds:
        assert sorted(rnd.players) == sorted(ids)
        assert (rnd.bye is not None) == (n % 2 == 1)
    if n % 2:
        assert sorted(rnd.bye for rnd in rounds if rnd.bye) == sorted(ids)


def test_round_robin_refuses_too_few_and_duplicates() -> None:
    with pytest.raises(ValueError):
        round_robin(["a"])
    with pytest.raises(ValueError):
        round_robin(["a", "b", "a"])


def test_a_late_entrant_is_paired_with_its_absence_as_half_a_point() -> None:
    people = [Entrant(p, 1600.0 - 10 * i) for i, p in enumerate("abcde")]
    results = [Result(1, ("a", "c"), (1.0, 0.0)), Result(1, ("b", "d"), (1.0, 0.0)), absent(1, "e")]
    rnd = pair_swiss(people, results, 2)
    # e's absence is not a bye: with the lowest score among those without one, c and d (0) get it
    # before e (0.5); d is rated lower.
    assert rnd.bye == "d"
    assert rnd.tables == (("a", "b"), ("e", "c"))
