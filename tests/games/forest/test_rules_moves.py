"""Moves and captures (docs/rules.md, "A turn"), on hand-built positions in forest notation.

Every position keeps a face-down tree on a1 (``t6`` as rank 1) unless it says otherwise, so that the
game is before its final phase and cannot end at once.
"""

from __future__ import annotations

import pytest

from forest_helpers import legal, position, rejects
from halali.games.forest import Position


def _moves_from(pos: Position, square: str) -> list[str]:
    return [a for a in legal(pos) if a.startswith(square)]


# ---- how far tiles move ---------------------------------------------------------------------
@pytest.mark.parametrize(("letter", "turn"), [("F", "blue"), ("N", "brown"), ("W", "brown"), ("D", "blue"),
                                              ("D", "brown"), ("P", "blue"), ("P", "brown")])
def test_long_movers_go_any_distance_in_the_four_directions(letter: str, turn: str) -> None:
    pos = position(f"7/7/7/3{letter}3/7/7/t6 {turn} - - - - 0 - -")
    expected = ["d4-a4", "d4-b4", "d4-c4", "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7",
                "d4-e4", "d4-f4", "d4-g4"]
    assert _moves_from(pos, "d4") == expected
    assert legal(pos) == ["?a1", *expected]


@pytest.mark.parametrize(("letter", "turn"), [("B", "blue"), ("L", "brown")])
def test_bears_and_lumberjacks_move_exactly_one_square(letter: str, turn: str) -> None:
    pos = position(f"7/7/7/3{letter}3/7/7/t6 {turn} - - - - 0 - -")
    assert _moves_from(pos, "d4") == ["d4-c4", "d4-d3", "d4-d5", "d4-e4"]
    rejects(pos, "d4-d6", "moves one square")
    rejects(pos, "d4-a4", "moves one square")


def test_moves_stop_before_any_tile_face_up_or_face_down() -> None:
    # Fox on d4; face-down duck on d6, face-up tree on f4, face-up fox on d2, nothing west.
    pos = position("7/3d3/7/3F1T1/7/3F3/t6 blue - - - - 0 - -")
    assert _moves_from(pos, "d4") == ["d4-a4", "d4-b4", "d4-c4", "d4-d3", "d4-d5", "d4-e4"]
    rejects(pos, "d4-d7", "blocked at d6")
    rejects(pos, "d4-g4", "blocked at f4")
    rejects(pos, "d4-d1", "blocked at d2")


def test_moves_run_in_straight_lines_and_must_change_square() -> None:
    pos = position("7/7/7/3F3/7/7/t6 blue - - - - 0 - -")
    rejects(pos, "d4-e5", "straight line")
    rejects(pos, "d4-a1", "straight line")
    rejects(pos, "d4-d4", "straight line")


def test_a_player_moves_only_own_colour_ducks_and_pheasants() -> None:
    # Blue to move: fox c5 (own), hunter e5 and lumberjack e3 (brown), duck c3, pheasant g7, tree a7.
    board = "T5P/7/2F1N2/7/2D1L2/7/t6"
    blue = position(f"{board} blue - - - - 0 - -")
    movers = {a[:2] for a in legal(blue) if not a.startswith("?")}
    assert movers == {"c5", "c3", "g7"}
    rejects(blue, "e5-e6", "blue may not move a hunter")
    rejects(blue, "e3-f3", "blue may not move a lumberjack")
    rejects(blue, "a7-b7", "trees never move")
    brown = position(f"{board} brown - - - - 0 - -")
    movers = {a[:2] for a in legal(brown) if not a.startswith("?")}
    assert movers == {"e5", "e3", "c3", "g7"}
    rejects(brown, "c5-c6", "brown may not move a fox")


def test_face_down_tiles_do_not_move_and_empty_squares_have_nothing_to_move() -> None:
    pos = position("7/7/7/3f3/7/7/t6 blue - - - - 0 - -")
    assert legal(pos) == ["?a1", "?d4"]
    rejects(pos, "d4-d5", "face down", "reveal it first")
    rejects(pos, "c4-c5", "no tile on c4")


# ---- what each tile captures -------------------------------------------------------------------
CAPTURERS = {"B": "blue", "F": "blue", "L": "brown", "N": "brown", "D": "blue", "P": "brown"}
PREY = {"B": "LNESW", "F": "DP", "L": "T", "N": "BFDP", "D": "", "P": ""}
TARGETS = "BFLNESWDPT"


@pytest.mark.parametrize("capturer", sorted(CAPTURERS))
@pytest.mark.parametrize("target", TARGETS)
def test_capture_table_on_the_next_square(capturer: str, target: str) -> None:
    """The hunter points north, towards its target, so only the table decides."""
    turn = CAPTURERS[capturer]
    pos = position(f"7/7/7/7/3{target}3/3{capturer}3/t6 {turn} - - - - 0 - -")
    may = target in PREY[capturer]
    assert ("d2xd3" in legal(pos)) is may
    if may:
        pos.play("d2xd3")
        assert pos.fen().split()[0] == "7/7/7/7/3" + capturer + "3/7/t6"
    else:
        message = rejects(pos, "d2xd3")
        assert "cannot capture" in message or "may not move" in message


@pytest.mark.parametrize(("capturer", "target", "turn"), [("F", "D", "blue"), ("F", "P", "blue"),
                                                          ("N", "B", "brown"), ("N", "F", "brown"),
                                                          ("N", "D", "brown"), ("N", "P", "brown")])
def test_long_movers_capture_at_any_distance_across_empty_squares(capturer: str, target: str, turn: str) -> None:
    pos = position(f"3{target}3/7/7/7/7/3{capturer}3/t6 {turn} - - - - 0 - -")
    assert "d2xd7" in legal(pos)
    blocked = position(f"3{target}3/7/7/3t3/7/3{capturer}3/t6 {turn} - - - - 0 - -")
    assert "d2xd7" not in legal(blocked)
    rejects(blocked, "d2xd7", "blocked at d4")


def test_a_captured_tile_goes_to_the_movers_pile_and_the_capturer_takes_its_square() -> None:
    pos = position("3P3/7/7/7/7/3F3/t6 blue - - - - 0 - -")
    pos.play("d2-d7")  # a move onto a tile is read as the capture
    assert pos.fen() == "3F3/7/7/7/7/7/t6 brown d2d7 - - - 0 P -"
    assert pos.score == [3, 0]
    assert pos.ntiles == [1, 0]


@pytest.mark.parametrize("rifle", "NESW")
def test_a_hunter_captures_only_along_its_rifle(rifle: str) -> None:
    # Hunter on d4 with a fox in each direction at distance 2: d6, f4, d2, b4.
    pos = position(f"7/3F3/7/1F1{rifle}1F1/7/3F3/t6 brown - - - - 0 - -")
    target = {"N": "d6", "E": "f4", "S": "d2", "W": "b4"}
    captures = [a for a in legal(pos) if "x" in a]
    assert captures == [f"d4x{target[rifle]}"]
    # It still moves in every direction without capturing.
    assert {a[3:] for a in legal(pos) if a.startswith("d4-")} == {"d5", "e4", "d3", "c4"}
    for direction, square in target.items():
        if direction != rifle:
            rejects(pos, f"d4x{square}", "rifle", f"({rifle})", f"not {direction}")


def test_face_down_tiles_cannot_be_captured() -> None:
    pos = position("7/7/7/7/3p3/3N3/t6 brown - - - - 0 - -")
    assert legal(pos) == ["?a1", "?d3", "d2-a2", "d2-b2", "d2-c2", "d2-d1", "d2-e2", "d2-f2", "d2-g2"]
    rejects(pos, "d2xd3", "face-down tiles cannot be captured")
    rejects(pos, "d2-d3", "face-down tiles cannot be captured")


def test_capturing_is_never_compulsory() -> None:
    pos = position("7/7/7/7/3D3/3F3/t6 blue - - - - 0 - -")
    assert "d2xd3" in legal(pos)
    pos.play("d2-e2")
    assert pos.turn == 1


def test_nobody_captures_own_colour_or_with_a_duck_pheasant_or_tree() -> None:
    pos = position("7/7/7/7/3B3/3F3/t6 blue - - - - 0 - -")
    rejects(pos, "d2xd3", "a fox cannot capture a bear")
    pos = position("7/7/7/7/3F3/3D3/t6 blue - - - - 0 - -")
    rejects(pos, "d2xd3", "a duck cannot capture a fox")
    pos = position("7/7/7/7/3L3/3T3/t6 brown - - - - 0 - -")
    rejects(pos, "d2xd3", "trees never move")
