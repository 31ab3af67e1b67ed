"""Hare notation: canonical positions and actions, records, errors that say what and where."""

from __future__ import annotations

import pytest

from halali.games.errors import IllegalAction, NotationError, PositionError
from halali.games.hare import HareState, action_str, parse_action_text, parse_position, replay
from halali.games.hare.actions import ASSIGN, BUSH, END, REMOVE, ROLL, STEP, TURN
from hare_helpers import build

FRESH = ("e10SE,d9SE,c8SE/a5E,a4E,a3E/i4NW,h3NW,g2NW/k9W,k8W,k7W/b1NE,c1NE,d1NE/h11SW,i11SW,j11SW"
         " - R,Y,G 1 bush - 0 0 - e4b06ce60741c7a87ce42c8218072e8c:0")


def test_a_fresh_hunt_has_the_documented_text() -> None:
    assert HareState.new(3, seed=1).fen() == FRESH
    assert parse_position(FRESH).fen() == FRESH


def test_a_view_hides_other_clubs_and_the_dice_secret() -> None:
    st = parse_position(FRESH)
    assert st.view(0).fen().endswith("- R,?,? 1 bush - 0 0 - -")
    assert st.view(1).fen().endswith("- ?,Y,? 1 bush - 0 0 - -")
    assert st.view(None).fen().endswith("- ?,?,? 1 bush - 0 0 - -")


def test_hunters_of_a_club_may_be_given_in_any_order_but_are_written_in_board_order() -> None:
    text = FRESH.replace("e10SE,d9SE,c8SE", "c8SE,e10SE,d9SE")
    assert parse_position(text).fen() == FRESH


@pytest.mark.parametrize("text", [
    "roll", "roll=0,0", "roll=2,3", "2x3", "3x2", "bush=e4", "c2-d2", "k11>SW", "a1>E", "end", "xf5",
])
def test_actions_round_trip(text: str) -> None:
    assert action_str(parse_action_text(text)) == text


def test_action_kinds() -> None:
    assert parse_action_text("roll=3,1") == (ROLL, 1, 3)  # canonical order: smaller face first
    assert action_str(parse_action_text("roll=3,1")) == "roll=1,3"
    assert [parse_action_text(t)[0] for t in ("bush=e4", "2x3", "c2-d2", "c2>NE", "end", "xc2")] == [
        BUSH, ASSIGN, STEP, TURN, END, REMOVE]


@pytest.mark.parametrize(("text", "message"), [
    ("jump", "cannot read action"),
    ("roll=5,1", "cannot read action"),
    ("l3-l4", "cannot read action"),
    ("a11-a10", "'a11' in action 'a11-a10' is not a cell"),
    ("xk1", "'k1' in action 'xk1' is not a cell"),
])
def test_bad_actions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action_text(text)


def _with(field: int, value: str) -> str:
    parts = FRESH.split()
    parts[field] = value
    return " ".join(parts)


@pytest.mark.parametrize(("text", "error", "message"), [
    ("", NotationError, "10 fields"),
    (_with(0, "e10SE"), NotationError, r"field 1 \(hunters\): six clubs"),
    (_with(0, FRESH.split()[0].replace("e10SE", "e10S")), NotationError, r"field 1 .*'e10S' is not CELL"),
    (_with(0, FRESH.split()[0].replace("e10SE", "f6SE")), PositionError, "hare's cell"),
    (_with(0, FRESH.split()[0].replace("e10SE", "d9NE")), PositionError, "two hunters on d9"),
    (_with(0, FRESH.split()[0].replace("e10SE", "a11SE")), NotationError, "'a11' is not a cell"),
    (_with(2, "R,Y,Z"), NotationError, r"field 3 \(seats\): seat 3"),
    (_with(2, "R,R,Y"), PositionError, "same club"),
    (_with(2, "R"), NotationError, "2 to 6 seats"),
    (_with(3, "4"), NotationError, r"field 4 \(to move\): a seat number 1..3"),
    (_with(4, "dance"), NotationError, r"field 5 \(phase\)"),
    (_with(4, "roll"), PositionError, "bush is placed before the first roll"),
    (_with(5, "2,3"), NotationError, r"field 6 \(detail\): '-' in the bush phase"),
    (_with(8, "overshoot=wild"), NotationError, r"field 9 \(options\): overshoot must be"),
    (_with(8, "colour=red"), NotationError, "unknown rule option"),
    (_with(9, "abc"), NotationError, r"field 10 \(dice secret\)"),
])
def test_bad_positions_say_what_and_where(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_position(text)


def test_move_and_shoot_details() -> None:
    st = build({"R": "c2E,a3E", "Y": "k9W"}, phase="move", detail="2x2/2/-/-")
    st.play("c2-d2")
    assert st.fen().split()[5] == "2x2/1/d2:1/-"
    st.play("a3>NE")
    assert st.fen().split()[5] == "2x2/0/a3:1/d2"
    assert parse_position(st.fen()).fen() == st.fen()
    st = build({"R": "a3E", "Y": "k9W", "G": "b6E,c6E", "B": "e6NE"})
    st.play("roll=1,4")
    st.play("xb6")
    assert st.fen().split()[5] == "1,4/b6"
    assert parse_position(st.fen()).fen() == st.fen()
    with pytest.raises(PositionError, match="could not have been chosen"):
        parse_position(st.fen().replace("1,4/b6", "1,4/e6"))


@pytest.mark.parametrize(("detail", "message"), [
    ("2x2/1/-/-", "do not make the 2"),
    ("1x2/0/a3:0/-", "every point is spent"),
    ("2x2/2/-/a3", "do not make"),
    ("2x2/1/a3:3/-", "3 points left of 2"),
    ("2x2/1/b3:1/-", "no hunter on b3"),
    ("22/1/-/-", "NxP/LEFT"),
])
def test_bad_move_details(detail: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        build({"R": "c2E,a3E", "Y": "k9W"}, phase="move", detail=detail)


def test_records_replay_to_the_same_position_for_every_seat() -> None:
    st = HareState.new(3, seed=11)
    for _ in range(60):
        st.play(st.legal_actions()[-1])
    assert replay(st.record()).fen() == st.fen()
    for p in (0, 1, 2):
        v = st.view(p)
        assert " ; " in v.record() and "e4b06" not in v.record()
        assert replay(v.record()).fen() == v.fen()


def test_a_bad_record_names_the_action() -> None:
    st = HareState.new(2, seed=3)
    with pytest.raises(IllegalAction, match="action 2 of the record"):
        replay(st.record() + " bush=f8 end")
