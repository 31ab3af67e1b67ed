"""Chance: reveals with and without a known tile, the distribution of what is face down, the view."""

from __future__ import annotations

import math

from forest_helpers import position, rejects
from halali.games.forest import Position
from halali.games.forest.tiles import (
    BEAR,
    DUCK,
    FOX,
    HUNTERS,
    KIND_COUNT,
    LUMBERJACK,
    PHEASANT,
    SQUARE_OF_NAME,
    TREE,
)


def test_a_reveal_on_an_unknown_square_needs_its_outcome() -> None:
    view = Position.deal(seed=3).view()
    assert view.public_fen() == view.fen()
    assert "?" in view.fen() and not any(ch.islower() for ch in view.fen().split()[0])
    rejects(view, "?c3", "not known here", "?c3=N")
    view.play("?c3=N")
    assert view.fen().split()[0].split("/")[4] == "??N????"
    assert view.turn == 1


def test_an_outcome_that_cannot_be_face_down_any_more_is_rejected() -> None:
    # Both bears are face up, so no face-down tile can be a bear.
    view = position("B??????/???????/???????/???1???/???????/???????/??????B blue - - - - 0 - -")
    rejects(view, "?c3=B", "all 2 bears are already accounted for")
    view.play("?c3=F")
    # A bear in a pile counts as well.
    piled = position("B??????/???????/???????/???1???/???????/???????/??????1 blue - - - - 0 - B")
    rejects(piled, "?c3=B", "bears are already accounted for")


def test_an_outcome_on_a_known_square_must_be_the_tile_there() -> None:
    pos = position("7/7/7/7/2e4/7/t6 blue - - - - 0 - -")
    rejects(pos, "?c3=N", "the tile on c3 is a hunter")  # the rifle is part of the tile
    rejects(pos, "?c3=F", "the tile on c3 is a hunter")
    plain = pos.copy()
    plain.play("?c3")
    pos.play("?c3=E")
    assert pos.fen() == plain.fen() == "7/7/7/7/2E4/7/t6 brown - - - - 0 - -"


def test_reveals_of_empty_or_face_up_squares_are_rejected() -> None:
    pos = position("7/7/7/7/2F4/7/t6 blue - - - - 0 - -")
    rejects(pos, "?c3", "already face up")
    rejects(pos, "?d4", "d4 is empty")


def _expected_distribution(left: list[int]) -> dict[int, float]:
    total = sum(left)
    codes = (BEAR, FOX, LUMBERJACK, None, DUCK, PHEASANT, TREE)
    out: dict[int, float] = {}
    for kind, code in enumerate(codes):
        if not left[kind]:
            continue
        if code is None:
            for hunter in HUNTERS:
                out[hunter] = left[kind] / total / 4
        else:
            out[code] = left[kind] / total
    return out


def test_hidden_distribution_of_a_fresh_deal_is_the_tile_counts() -> None:
    dist = Position.deal(seed=11).view().hidden_distribution()
    assert math.isclose(sum(dist.values()), 1.0)
    expected = _expected_distribution(list(KIND_COUNT))
    assert dist.keys() == expected.keys()
    for code, p in expected.items():
        assert math.isclose(dist[code], p)
    assert math.isclose(dist[BEAR], 2 / 48)
    assert math.isclose(dist[HUNTERS[0]], 8 / 48 / 4)


def test_hidden_distribution_follows_what_is_face_up_and_in_the_piles() -> None:
    # Face up: two bears, a fox, a hunter; piles: a duck (blue) and a tree (brown).
    view = position("BB?????/?F?????/???????/???1???/???????/??????N/?????11 blue - - - - 0 D T")
    left = list(KIND_COUNT)
    left[0] -= 2
    left[1] -= 1
    left[3] -= 1
    left[4] -= 1
    left[6] -= 1
    dist = view.hidden_distribution()
    assert math.isclose(sum(dist.values()), 1.0)
    assert BEAR not in dist
    for code, p in _expected_distribution(left).items():
        assert math.isclose(dist[code], p)
    outcomes = view.reveal_outcomes(SQUARE_OF_NAME["c7"])
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    assert sorted(view.action_str(a) for a, _ in outcomes) == sorted(
        f"?c7={letter}" for letter in "FLNESWDPT")


def test_a_position_that_knows_the_deal_has_one_outcome_per_reveal() -> None:
    pos = Position.deal(seed=5)
    sq = SQUARE_OF_NAME["b2"]
    ((action, p),) = pos.reveal_outcomes(sq)
    assert p == 1.0
    assert action == sq
    assert pos.knows_deal()
    assert not pos.view().knows_deal()


def test_the_view_turns_every_face_down_tile_into_a_question_mark_and_nothing_else() -> None:
    pos = Position.deal(seed=9)
    for action in ("?a1", "?b1", "?c1"):
        pos.play(action)
    fen, view = pos.fen(), pos.view().fen()
    board, public = fen.split()[0], view.split()[0]
    assert len(board) == len(public)
    for ch, pub in zip(board, public, strict=True):
        assert pub == ("?" if ch.islower() else ch)
    assert fen.split()[1:] == view.split()[1:]
    assert pos.fen() == fen  # the view is a copy
