"""A puzzle as one JSON line: it round-trips, and a bad line is refused with what is wrong."""

from __future__ import annotations

import json

import pytest

from halali.games.errors import HalaliError
from halali.puzzles.model import Puzzle

GOOD = Puzzle("F1D1P2/7/7/7/7/7/N5? blue - - - - 0 - -", ("a7xc7", "a1-a2", "c7xe7"), 5.0, 3.0, False,
              ("capture", "long"), 6, 1450, (), {"kind": "selfplay", "seed": 1, "ply": 3})


def test_a_puzzle_round_trips_through_its_json_line():
    line = GOOD.to_json()
    assert "\n" not in line
    assert Puzzle.from_json(line) == GOOD
    data = json.loads(line)
    assert data["format"] == 1 and data["solution"] == ["a7xc7", "a1-a2", "c7xe7"] and data["proven"] is False
    assert GOOD.moves == 2 and GOOD.to_move == "blue"


@pytest.mark.parametrize(("change", "says"), [
    ({"position": "not a position"}, "9 fields"),
    ({"solution": ["a7xc7", "a1-a2", "c7xd7"]}, "c7xd7"),
    ({"solution": []}, "needs a solution"),
    ({"themes": ["luck"]}, "unknown theme luck"),
    ({"position": "F1D1P2/7/7/7/7/7/N5f blue - - - - 0 - -"}, "face-down tiles as '?'"),
    ({"margin": "wide"}, "a puzzle needs"),
])
def test_a_bad_line_is_refused_with_the_reason(change: dict, says: str):
    data = json.loads(GOOD.to_json()) | change
    with pytest.raises(HalaliError, match=says):
        Puzzle.from_json(json.dumps(data))


def test_a_line_that_is_not_an_object_is_refused():
    for line in ("[1, 2]", "{", "3"):
        with pytest.raises(HalaliError):
            Puzzle.from_json(line)
