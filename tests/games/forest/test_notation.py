"""Forest notation (docs/notation.md): canonical positions and actions, and the errors on bad text."""

from __future__ import annotations

import pytest

from halali.games.errors import HalaliError, IllegalAction, NotationError, PositionError
from halali.games.forest import (
    DEFAULT_RULES,
    Position,
    Rules,
    action_str,
    format_position,
    parse_action,
    parse_action_text,
    parse_position,
)
from halali.games.forest import actions as A
from halali.games.forest.tiles import SQUARE_OF_NAME


def sq(name: str) -> int:
    return SQUARE_OF_NAME[name]


# ---- positions ------------------------------------------------------------------------------
def test_a_fresh_deal_as_a_player_sees_it_is_the_example_of_the_spec() -> None:
    pos = Position.deal(seed=42)
    assert pos.public_fen() == "???????/???????/???????/???1???/???????/???????/??????? blue - - - - 0 - -"
    board = pos.fen().split()[0]
    assert len(board.replace("/", "")) == 49 and board.split("/")[3][3] == "1"
    assert all(ch.islower() or ch in "/1" for ch in board)


@pytest.mark.parametrize("text", [
    "???????/???????/???????/???1???/???????/???????/??????? blue - - - - 0 - -",
    "7/7/7/7/7/7/t6 blue - - - - 0 - -",
    "F6/1n5/2E4/3D3/4w2/5P1/t5L brown c3c5 - d4 - 12 - D",
    "7/7/2F4/7/2D4/7/t5t blue c3c5 - c3 - 2 - -",
    "3B3/7/7/7/7/6L/3F3 brown - g1g2 - 7 0 +BF -",
    "7/7/7/7/7/7/F5L blue - - - 4 0 DDHP+BF BFPT+L",
    "7/7/7/7/7/7/F5L blue - - - 0 0 +F T+L",
    "7/7/7/3T3/7/7/7 blue - - - 10 0 - -",
])
def test_positions_read_back_to_the_same_text(text: str) -> None:
    assert parse_position(text).fen() == text
    assert format_position(parse_position(text)) == text


def test_runs_of_empty_squares_are_one_digit_and_case_says_face_down() -> None:
    pos = parse_position("7/7/7/7/7/7/t6 blue - - - - 0 - -")
    pos.play("?a1")
    assert pos.fen() == "7/7/7/7/7/7/T6 brown - - - 10 0 - -"


def test_piles_out_of_order_are_accepted_and_written_in_order() -> None:
    pos = parse_position("7/7/7/7/7/7/F5L blue - - - 4 0 PDHD+FB TPFB+L")
    assert pos.fen() == "7/7/7/7/7/7/F5L blue - - - 4 0 DDHP+BF BFPT+L"


def test_a_position_may_hold_fewer_than_48_tiles_for_puzzles() -> None:
    pos = parse_position("7/7/7/3F3/7/7/t5N blue - - - - 0 - -")
    assert pos.ntiles == [0, 0]
    assert sorted(pos.action_str(a) for a in pos.legal_actions())[0] == "?a1"


def test_a_finished_game_has_no_legal_action() -> None:
    pos = parse_position("7/7/7/3F3/7/7/6N blue - - - 0 0 - -")
    assert pos.is_over()
    assert pos.legal_actions() == []


# Bad positions: (text, error class, words the message must contain).
GOOD_BOARD = "7/7/7/3F3/7/7/t6"
BAD_POSITIONS = [
    (f"{GOOD_BOARD} blue - - - - 0 -", NotationError, ["9 fields", "found 8"]),
    (f"{GOOD_BOARD} blue - - - - 0 - - -", NotationError, ["9 fields", "found 10"]),
    ("7/7/7/3F3/7/t6 blue - - - - 0 - -", NotationError, ["7 ranks", "found 6"]),
    ("7/7/7/3F3/7/7/t6/7 blue - - - - 0 - -", NotationError, ["7 ranks", "found 8"]),
    ("7/7/7/3F3/7/7/t5 blue - - - - 0 - -", NotationError, ["rank 1", "6 squares, not 7"]),
    ("7/7/7/3F4/7/7/t6 blue - - - - 0 - -", NotationError, ["rank 4", "more than 7 squares"]),
    ("7/7/7/3F3x/7/7/t6 blue - - - - 0 - -", NotationError, ["rank 4", "more than 7 squares"]),
    ("7/7/8/3F3/7/7/t6 blue - - - - 0 - -", NotationError, ["rank 5", "'8'"]),
    ("7/7/7/3F3/7/7/t5X blue - - - - 0 - -", NotationError, ["rank 1", "unknown letter 'X'", "g1"]),
    ("7/7/7/3F3/7/2H4/t6 blue - - - - 0 - -", NotationError, ["rank 2", "unknown letter 'H'", "c2"]),
    ("7/7/7/3F3/7/7/t6 green - - - - 0 - -", NotationError, ["'blue' or 'brown'", "'green'"]),
    (f"{GOOD_BOARD} blue c3 - - - 0 - -", NotationError, ["blue's last move 'c3'"]),
    (f"{GOOD_BOARD} blue - c3d4 - - 0 - -", PositionError, ["brown's last move c3d4", "rank or file"]),
    (f"{GOOD_BOARD} blue d5d3 - - - 0 - -", PositionError, ["blue's last move ends on d3", "no face-up tile"]),
    (f"{GOOD_BOARD} blue g4a1 - - - 0 - -", PositionError, ["rank or file"]),
    (f"{GOOD_BOARD} blue b1a1 - - - 0 - -", PositionError, ["ends on a1", "no face-up tile"]),
    (f"{GOOD_BOARD} blue - - z9 - 0 - -", NotationError, ["green lock", "'z9'"]),
    (f"{GOOD_BOARD} blue - - d4 - 0 - -", PositionError, ["green lock is on d4", "no face-up duck or pheasant"]),
    ("7/7/7/3F3/7/7/d6 blue - - a1 - 0 - -", PositionError, ["green lock is on a1"]),
    (f"{GOOD_BOARD} blue - - - 11 0 - -", NotationError, ["final turns", "'11'"]),
    (f"{GOOD_BOARD} blue - - - 5 0 - -", PositionError, ["final turns are counted only once no face-down tile"]),
    ("7/7/7/3F3/7/7/T6 blue - - - - 0 - -", PositionError, ["no face-down tile remains", "0 to 10"]),
    (f"{GOOD_BOARD} blue - - - - x - -", NotationError, ["stall count", "'x'"]),
    (f"{GOOD_BOARD} blue - - - - -1 - -", NotationError, ["stall count"]),
    (f"{GOOD_BOARD} blue - - - - 0 DX -", NotationError, ["blue's pile", "unknown letter 'X'"]),
    (f"{GOOD_BOARD} blue - - - - 0 - D+", NotationError, ["brown's pile", "nothing after '+'"]),
    (f"{GOOD_BOARD} blue - - - - 0 B -", PositionError, ["blue's pile", "blue cannot capture a bear"]),
    (f"{GOOD_BOARD} blue - - - - 0 - H", PositionError, ["brown cannot capture a hunter"]),
    (f"{GOOD_BOARD} blue - - - - 0 +D -", PositionError, ["a duck cannot leave the forest"]),
    (f"{GOOD_BOARD} blue - - - - 0 - +B", PositionError, ["a bear cannot leave the forest for brown"]),
    ("7/7/7/3F3/7/7/b4BB blue - - - - 0 - -", PositionError, ["3 bears", "the game has 2"]),
    ("7/7/7/3B3/7/7/t6 blue - - - - 0 +BB -", PositionError, ["3 bears"]),
    (f"{GOOD_BOARD} blue - - - - 0 - LLL", PositionError, ["3 lumberjacks", "the game has 2"]),
    ("NESWNES/WN5/7/3F3/7/7/t6 blue - - - - 0 - -", PositionError, ["9 hunters", "the game has 8"]),
    ("???????/???????/???????/???????/???????/???????/??????? blue - - - - 0 - -", PositionError,
     ["49 tiles", "the game has 48"]),
]


@pytest.mark.parametrize(("text", "error", "words"), BAD_POSITIONS)
def test_bad_positions_say_what_is_wrong_and_where(text: str, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as info:
        parse_position(text)
    for word in words:
        assert word in str(info.value), str(info.value)


def test_position_errors_are_notation_errors_and_value_errors() -> None:
    assert issubclass(PositionError, NotationError)
    assert issubclass(NotationError, HalaliError)
    assert issubclass(HalaliError, ValueError)
    with pytest.raises(NotationError):
        parse_position(None)  # type: ignore[arg-type]


# ---- actions --------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "action"), [
    ("?c3", A.reveal(sq("c3"))),
    ("?g7=N", A.reveal(sq("g7"), 4)),
    ("?a1=T", A.reveal(sq("a1"), 10)),
    ("c3-c6", A.move(sq("c3"), sq("c6"))),
    ("c3xc6", A.capture(sq("c3"), sq("c6"))),
    ("d5-N", A.exit_(sq("d5"), 0)),
    ("a4-W", A.exit_(sq("a4"), 3)),
    ("pass", A.PASS_ACTION),
])
def test_actions_read_and_write(text: str, action: int) -> None:
    assert parse_action_text(text) == action
    assert action_str(action) == text


@pytest.mark.parametrize(("text", "words"), [
    ("c3-c8", ["is not an action"]),
    ("?h1", ["is not an action"]),
    ("?c3=H", ["is not an action"]),
    ("c3c6", ["is not an action", "c3-c6"]),
    ("Pass", ["is not an action"]),
    ("", ["is not an action"]),
    ("d5xN", ["an exit is written with '-'"]),
])
def test_malformed_actions_are_notation_errors(text: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        parse_action_text(text)
    for word in words:
        assert word in str(info.value)


def test_a_move_onto_a_tile_is_read_as_the_capture_and_written_with_x() -> None:
    pos = parse_position("3P3/7/7/7/7/3F3/t6 blue - - - - 0 - -")
    assert parse_action(pos, "d2-d7") == parse_action(pos, "d2xd7") == A.capture(sq("d2"), sq("d7"))
    assert pos.action_str(parse_action(pos, "d2-d7")) == "d2xd7"
    with pytest.raises(IllegalAction, match="nothing to capture on d6"):
        parse_action(pos, "d2xd6")


def test_action_lists_sort_in_plain_character_order_reveals_first() -> None:
    pos = parse_position("7/7/7/3F3/7/7/t5t blue - - - - 0 - -")
    listed = sorted(pos.action_str(a) for a in pos.legal_actions())
    assert listed[:2] == ["?a1", "?g1"]
    assert listed == sorted(listed)


def test_applying_anything_to_a_finished_position_is_an_error() -> None:
    pos = parse_position("7/7/7/3F3/7/7/6N blue - - - 0 0 - -")
    with pytest.raises(IllegalAction, match="the game is over"):
        pos.play("d4-d5")
    with pytest.raises(IllegalAction, match="the game is over"):
        pos.play("pass")


# ---- rule options ---------------------------------------------------------------------------
def test_rule_options_are_key_value_strings() -> None:
    rules = DEFAULT_RULES.with_options(["green_lock=revealed_only", "no_return_neutrals=true", "stall_limit=0",
                                        "match=single"])
    assert rules == Rules("revealed_only", True, 0, "single")
    assert DEFAULT_RULES.with_options(rules.to_strings()) == rules
    assert DEFAULT_RULES.to_strings() == ["green_lock=revealed_or_moved", "no_return_neutrals=false",
                                          "stall_limit=30", "match=match"]
    assert DEFAULT_RULES.with_options({"stall_limit": "12"}).stall_limit == 12


@pytest.mark.parametrize(("option", "words"), [
    ("green_lock=always", ["green_lock must be one of", "'always'"]),
    ("no_return_neutrals=yes", ["no_return_neutrals must be true or false"]),
    ("stall_limit=-1", ["stall_limit must be a whole number"]),
    ("stall_limit=ten", ["stall_limit must be a whole number"]),
    ("match=three", ["match must be one of"]),
    ("colour=red", ["unknown rule option 'colour'"]),
    ("stall_limit", ["is not KEY=VALUE"]),
])
def test_bad_rule_options_are_notation_errors(option: str, words: list[str]) -> None:
    with pytest.raises(NotationError) as info:
        DEFAULT_RULES.with_options([option])
    for word in words:
        assert word in str(info.value)
