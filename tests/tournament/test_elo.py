"""The event's rating fit: it finds the most likely ratings, stays finite, and is as sure as the data."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from halali.tournament.elo import CENTER, PRIOR_MATCHES, fit_elo


def _expected(diff: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def test_equal_results_give_equal_ratings_at_the_center() -> None:
    ratings = fit_elo(["a", "b", "c"], [("a", "b", 1.0), ("b", "c", 1.0), ("c", "a", 1.0)])
    assert all(r.elo == pytest.approx(CENTER) for r in ratings)
    assert all(r.low < r.elo < r.high for r in ratings)


def test_a_score_rate_gives_its_elo_difference_when_the_data_outweigh_the_prior() -> None:
    matches = [("a", "b", 1.0)] * 750 + [("a", "b", 0.0)] * 250
    a, b = fit_elo(["a", "b"], matches)
    assert a.id == "a" and a.score == 750.0 and b.matches == 1000
    assert a.elo - b.elo == pytest.approx(-400 * math.log10(1 / 0.75 - 1), abs=2.0)  # about 191


def test_a_clean_sweep_stays_finite_and_more_matches_narrow_the_interval() -> None:
    few = fit_elo(["a", "b"], [("a", "b", 1.0)] * 3)
    many = fit_elo(["a", "b"], [("a", "b", 1.0), ("a", "b", 0.0)] * 50 + [("a", "b", 1.0)] * 3)
    assert math.isfinite(few[0].elo) and few[0].elo > few[1].elo
    assert many[0].high - many[0].low < few[0].high - few[0].low


@settings(max_examples=30)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from([0.0, 0.5, 1.0])), max_size=30))
def test_the_fit_is_the_optimum(raw: list[tuple[int, int, float]]) -> None:
    ids = [f"p{i}" for i in range(5)]
    matches = [(ids[a], ids[b], s) for a, b, s in raw if a != b]
    elo = {r.id: r.elo for r in fit_elo(ids, matches)}
    for pid in ids:  # each player's expected score equals its actual one, the prior's draw included
        actual = PRIOR_MATCHES * 0.5
        expected = PRIOR_MATCHES * _expected(elo[pid] - CENTER)
        for a, b, s in matches:
            if pid in (a, b):
                mine, other = (s, b) if pid == a else (1.0 - s, a)
                actual += mine
                expected += _expected(elo[pid] - elo[other])
        assert expected == pytest.approx(actual, abs=1e-6)


def test_bad_matches_are_refused() -> None:
    with pytest.raises(ValueError):
        fit_elo(["a", "b"], [("a", "z", 1.0)])
    with pytest.raises(ValueError):
        fit_elo(["a", "b"], [("a", "a", 1.0)])
    with pytest.raises(ValueError):
        fit_elo(["a", "a"], [])
    assert fit_elo([], []) == []
