"""The two restrictions (no return, green lock), the stall rule and passing (docs/rules.md)."""

from __future__ import annotations

import pytest

from forest_helpers import legal, play, position, rejects
from halali.games.forest import parse_position

# ---- no return ------------------------------------------------------------------------------
# Blue fox on c3, brown hunter (rifle west) on g7, face-down trees on a1 and g1.
START = "6W/7/7/7/2F4/7/t5t blue - - - - 0 - -"


def test_no_return_forbids_the_square_the_tile_came_from_on_the_very_next_turn() -> None:
    pos = play(position(START), "c3-c5", "g7-g6")
    assert pos.fen().split()[2] == "c3c5"
    rejects(pos, "c5-c3", "no return", "c3")
    listed = legal(pos)
    assert "c5-c3" not in listed
    assert "c5-c2" in listed  # passing over the square it came from is fine
    assert "c5-c4" in listed
    play(pos, "c5-c6", "g6-f6")
    assert "c6-c3" in legal(pos)  # the old square is free again
    rejects(pos, "c6-c5", "no return")


def test_no_return_ends_after_any_other_action_of_that_player() -> None:
    pos = play(position("6W/7/2D4/7/2F4/7/t5t blue - - - - 0 - -"), "c3-c4", "g7-g6")
    assert "c4-c3" not in legal(pos)
    play(pos, "c5-b5", "g6-f6")  # blue moves the duck: not his own colour, the field is reset
    assert pos.fen().split()[2] == "-"
    assert "c4-c3" in legal(pos)
    pos = play(position(START), "c3-c4", "g7-g6", "?a1", "g6-f6")  # a reveal resets it too
    assert "c4-c3" in legal(pos)


def test_no_return_includes_captures() -> None:
    # Blue fox c3 goes to c5; brown moves a duck from a3 onto c3; the fox may not capture it there.
    pos = play(position("6W/7/7/7/D1F4/7/t5t blue - - - - 0 - -"), "c3-c5", "a3-c3")
    assert pos.fen() == "6W/7/2F4/7/2D4/7/t5t blue c3c5 - c3 - 2 - -"
    assert "c5xc3" not in legal(pos)
    rejects(pos, "c5xc3", "no return")
    free = position("6W/7/2F4/7/2D4/7/t5t blue - - c3 - 2 - -")
    assert "c5xc3" in legal(free)


def test_no_return_of_a_capture_is_recorded() -> None:
    pos = play(position("6W/7/2P4/7/2F4/7/t5t blue - - - - 0 - -"), "c3xc5")
    assert pos.fen() == "6W/7/2F4/7/7/7/t5t brown c3c5 - - - 0 P -"
    play(pos, "g7-f7")
    rejects(pos, "c5-c3", "no return")
    assert "c5-c4" in legal(pos)


def test_no_return_leaves_ducks_and_pheasants_alone_by_default() -> None:
    pos = play(position("6W/7/7/7/2D4/7/t5t blue - - - - 0 - -"), "c3-c5", "g7-g6")
    assert pos.fen().split()[2] == "-"
    assert "c5-c3" in legal(pos)


def test_option_no_return_neutrals_extends_it_to_ducks_and_pheasants_the_player_moved() -> None:
    pos = play(position("6W/7/7/7/2P4/7/t5t blue - - - - 0 - -", no_return_neutrals="true"), "c3-c5", "g7-g6")
    assert pos.fen().split()[2] == "c3c5"
    assert "c5-c3" not in legal(pos)
    rejects(pos, "c5-c3", "no return", "pheasant")


def test_no_return_neutrals_does_not_bind_the_other_player() -> None:
    rules = {"no_return_neutrals": "true", "green_lock": "revealed_only"}
    pos = play(position("6W/7/7/7/2D4/7/t5t blue - - - - 0 - -", **rules), "c3-c5")
    assert "c5-c3" in legal(pos)  # brown may take blue's duck back (moves do not lock here)
    play(pos, "c5-c3")
    # Blue's field still names c3c5 but c5 is empty now: nothing to forbid, and the position
    # must still read back from its own notation.
    assert pos.fen() == "6W/7/7/7/2D4/7/t5t blue c3c5 c5c3 - - 2 - -"
    assert parse_position(pos.fen(), pos.rules).fen() == pos.fen()
    assert "c3-c5" in legal(pos)


# ---- green lock ------------------------------------------------------------------------------
# Face-down duck on c4, brown hunter (rifle north) on g7, face-down trees on a1 and g1.
LOCK_START = "6N/7/7/2d4/7/7/t5t blue - - - - 0 - -"


@pytest.mark.parametrize("option", ["revealed_or_moved", "revealed_only"])
def test_a_duck_revealed_by_the_opponent_is_locked_for_one_turn(option: str) -> None:
    pos = play(position(LOCK_START, green_lock=option), "?c4")
    assert pos.fen().split()[4] == "c4"
    assert not any(a.startswith("c4") for a in legal(pos))
    rejects(pos, "c4-c5", "green lock", "blue revealed this duck")
    play(pos, "g7-g6")
    assert pos.fen().split()[4] == "-"
    assert "c4-c5" in legal(pos)  # the revealer may move it on his next turn anyway
    play(pos, "c4-c5")


def test_revealed_or_moved_locks_a_pheasant_the_opponent_just_moved() -> None:
    pos = play(position("6N/7/7/2P4/7/7/t5t blue - - - - 0 - -"), "c4-c6")
    assert pos.fen().split()[4] == "c6"
    rejects(pos, "c6-c7", "green lock", "blue moved this pheasant")
    play(pos, "g7-f7")
    assert "c6-c7" in legal(pos)


def test_revealed_only_does_not_lock_a_moved_pheasant() -> None:
    pos = play(position("6N/7/7/2P4/7/7/t5t blue - - - - 0 - -", green_lock="revealed_only"), "c4-c6")
    assert pos.fen().split()[4] == "-"
    assert "c6-c7" in legal(pos)


def test_the_lock_is_only_on_that_one_tile_and_only_on_ducks_and_pheasants() -> None:
    pos = play(position("6N/7/7/2d1D2/7/7/t5t blue - - - - 0 - -"), "?c4")
    assert "e4-e5" in legal(pos)  # another duck moves freely
    fox = play(position("6N/7/7/2f4/7/7/t5t blue - - - - 0 - -"), "?c4")
    assert fox.fen().split()[4] == "-"


def test_the_lock_does_not_protect_a_duck_from_capture() -> None:
    pos = play(position("6N/7/7/2d4/7/7/t1N3t blue - - - - 0 - -"), "?c4")
    assert "c1xc4" in legal(pos)


# ---- stall rule ------------------------------------------------------------------------------
def test_the_stall_rule_forces_a_reveal_after_stall_limit_quiet_turns() -> None:
    pos = position("6N/7/7/2F4/7/7/t5t blue - - - - 29 - -")
    assert "c4-c5" in legal(pos)
    play(pos, "c4-c5")
    assert pos.stall == 30
    assert legal(pos) == ["?a1", "?g1"]
    rejects(pos, "g7-g6", "stall rule", "brown must reveal")
    play(pos, "?a1")
    assert pos.stall == 0
    assert "c5-c6" in legal(pos)


def test_the_stall_limit_is_an_option_and_zero_turns_it_off() -> None:
    assert legal(position("6N/7/7/2F4/7/7/t5t blue - - - - 3 - -", stall_limit="3")) == ["?a1", "?g1"]
    assert "c4-c5" in legal(position("6N/7/7/2F4/7/7/t5t blue - - - - 500 - -", stall_limit="0"))


def test_captures_and_exits_reset_the_stall_count_moves_and_passes_raise_it() -> None:
    pos = play(position("6N/7/2D4/2F4/7/7/t5t blue - - - - 7 - -"), "c4xc5")
    assert pos.stall == 0
    play(pos, "g7-f7")
    assert pos.stall == 1
    final = play(position("3F2F/7/7/7/7/T6/ST5 blue - - - 10 7 - -"), "d7-N")
    assert final.stall == 0
    assert legal(final) == ["pass"]  # brown's hunter on a1 is walled in by trees
    play(final, "pass")
    assert final.stall == 1


def test_the_stall_rule_does_not_apply_once_no_tile_is_face_down() -> None:
    pos = position("6N/7/7/2F4/7/7/T5T blue - - - 6 80 - -")
    assert "c4-c5" in legal(pos)


# ---- pass ------------------------------------------------------------------------------------
def test_pass_only_when_nothing_else_is_legal_and_it_uses_a_final_turn() -> None:
    # Blue's only fox on a1 is walled in by trees; brown's lumberjack is on g7.
    pos = position("6L/7/7/7/7/T6/FT5 blue - - - 6 0 - -")
    assert legal(pos) == ["pass"]
    play(pos, "pass")
    assert pos.fen() == "6L/7/7/7/7/T6/FT5 brown - - - 5 1 - -"
    rejects(pos, "pass", "pass is only allowed when no other action is")


def test_there_is_no_pass_while_a_tile_is_face_down() -> None:
    pos = position("6L/7/7/7/7/T6/FT4t blue - - - - 0 - -")
    assert legal(pos) == ["?g1"]
    rejects(pos, "pass", "pass is only allowed")
