"""Results that do not add up are refused, and placing points score a hare table like a round robin."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from halali.tournament import ABSENT_POINTS, BYE_POINTS, Result, Round, absent, bye, placing_points


@given(st.lists(st.integers(0, 5), min_size=2, max_size=6))
def test_placing_points_hand_out_half_a_point_per_player(ranks: list[int]) -> None:
    points = placing_points([float(r) for r in ranks])
    assert sum(points) == pytest.approx(len(ranks) / 2)
    assert all(0.0 <= p <= 1.0 for p in points)
    for i, a in enumerate(ranks):  # a better rank never scores less
        for j, b in enumerate(ranks):
            if a < b:
                assert points[i] > points[j]
            if a == b:
                assert points[i] == points[j]


def test_placing_points_by_hand() -> None:
    assert placing_points([0, 1, 2]) == (1.0, 0.5, 0.0)
    assert placing_points([0, 1, 1, 3]) == (1.0, 0.5, 0.5, 0.0)
    assert placing_points([0, 0, 0, 0, 0]) == (0.5,) * 5
    assert placing_points([2, 0, 1, 3, 4, 5]) == (0.6, 1.0, 0.8, 0.4, 0.2, 0.0)  # tables of 3 and 6 compare
    with pytest.raises(ValueError):
        placing_points([0])


def test_bye_and_absence_points() -> None:
    assert bye(3, "a") == Result(3, ("a",), (BYE_POINTS,), kind="bye")
    assert absent(1, "a").points == (ABSENT_POINTS,) == (0.5,)
    assert bye(1, "a").points == (1.0,)
    assert not bye(1, "a").met and Result(1, ("a", "b"), (1.0, 0.0), kind="forfeit").met


@pytest.mark.parametrize("make", [
    lambda: Result(0, ("a", "b"), (1.0, 0.0)),
    lambda: Result(1, ("a", "b"), (1.0,)),
    lambda: Result(1, ("a", "a"), (1.0, 0.0)),
    lambda: Result(1, ("a", "b"), (1.0, 0.0), games=(2.0,)),
    lambda: Result(1, ("a", "b"), (1.0, 0.0), tiles=(1, 2, 3)),
    lambda: Result(1, ("a", "b"), (1.0, 0.0), kind="won"),
    lambda: Result(1, ("a", "b"), (1.0, 0.0), kind="bye"),
    lambda: Result(1, ("a",), (1.0,)),
    lambda: Result(1, (), ()),
])
def test_results_that_do_not_add_up_are_refused(make: Callable[[], Result]) -> None:
    with pytest.raises(ValueError):
        make()


def test_missing_games_count_the_points() -> None:
    r = Result(1, ("a", "b", "c"), (1.0, 0.5, 0.0), tiles=(9, 4, 1))
    assert [r.games_of(i) for i in range(3)] == [1.0, 0.5, 0.0]
    assert Result(1, ("a", "b"), (1.0, 0.0), (1.5, 0.5)).games_of(1) == 0.5
    assert bye(1, "a").tiles_of(0) == 0


def test_round_lists_its_players() -> None:
    assert Round((("a", "b"), ("c", "d")), "e").players == ("a", "b", "c", "d", "e")
    assert Round((("a", "b", "c"),)).players == ("a", "b", "c")
