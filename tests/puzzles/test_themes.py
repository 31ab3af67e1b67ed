"""Each theme is read off the rules: hand-made positions, one per theme."""

from __future__ import annotations

import pytest

from halali.games.forest import parse_position
from halali.puzzles.themes import THEMES, themes, threats

CASES = [
    # a fox takes the duck at the other end of its rank
    ("F3D2/7/7/7/7/7/?6 blue - - - - 0 - -", ["a7xe7"], ["capture"]),
    # final phase: the bear next to the north exit leaves
    ("3B3/7/7/7/7/7/L6 blue - - - 5 0 - -", ["d7-N"], ["exit_race"]),
    # the hunter on c1 aims north at the fox on c3, which steps aside
    ("7/7/7/7/2F4/7/2N3? blue - - - - 0 - -", ["c3-d3"], ["save"]),
    # the same fox, kept by the bear that takes the hunter
    ("7/7/7/7/2F4/7/1BN3? blue - - - - 0 - -", ["b1xc1"], ["capture", "defence"]),
    # the choice of which tile to turn over
    ("7/7/7/7/2F4/7/1N4? blue - - - - 0 - -", ["?g1"], ["reveal"]),
    # nothing of the above
    ("7/7/7/7/2F4/7/4N1? blue - - - - 0 - -", ["c3-c4"], ["quiet"]),
]


@pytest.mark.parametrize(("fen", "solution", "expected"), CASES)
def test_a_theme_is_what_the_solution_does(fen: str, solution: list[str], expected: list[str]):
    assert themes(parse_position(fen), solution) == expected


def test_a_solution_of_two_moves_is_long():
    # The fox takes the duck; the hunter's answer; the fox takes the pheasant on the same rank.
    pos = parse_position("F1D1P2/7/7/7/7/7/1N4? blue - - - - 0 - -")
    got = themes(pos, ["a7xc7", "b1-b2", "c7xe7"])
    assert got == ["capture", "long"]
    assert set(got) <= set(THEMES)


def test_threats_are_what_the_other_side_could_take_now():
    pos = parse_position("7/7/7/7/2F4/7/2N3? blue - - - - 0 - -")
    assert threats(pos) == {16: 5}  # c3: the fox's five points


def test_ending_the_game_defends_nothing():
    # Blue's last final turn: the bear leaves, and the game is over; no reply is left to defend against.
    pos = parse_position("3B3/7/7/7/2F4/7/2N4 blue - - - 1 0 - -")
    assert themes(pos, ["d7-N"]) == ["exit_race"]
