"""What an action brought about, as the pages tell it: each kind of shot line, the explosion, a
double, a blank, the hunters aiming, removals, a seat out and the end; and the lines agree with the
rules' own judgement of the shot on many positions of random hunts."""

from __future__ import annotations

from halali.games.hare import HareState, random_game
from halali.games.hare.events import consequences
from halali.games.hare.phases import PH_AIM
from halali.games.hare.record import replay
from halali.games.hare.shots import judge, lines
from hare_helpers import QUIET, build


def told(st: HareState, action: str) -> dict[str, object]:
    before = st.copy()
    st.play(action)
    return consequences(before, st, st.history[-1])


def test_each_line_of_a_shot_is_told_with_its_outcome() -> None:
    assert told(build({**QUIET, "G": "c6E", "B": "h6NE"}), "roll=1,2") == {
        "shot": {"d": 3, "lines": [{"from": "c6", "to": "h6", "outcome": "dodge"}]}}
    hit = told(build({**QUIET, "G": "c6E", "B": "h6NE"}), "roll=1,4")
    assert hit["shot"] == {"d": 5, "lines": [{"from": "c6", "to": "h6", "outcome": "hit"}]}
    assert hit["removed"] == ["h6"]
    both = told(build({**QUIET, "G": "c6E", "B": "h6W"}), "roll=2,3")
    assert both["shot"] == {"d": 5, "lines": [{"from": "c6", "to": "h6", "outcome": "both"}]}  # told once
    assert both["removed"] == ["c6", "h6"]
    assert told(build({**QUIET, "G": "c6E", "B": "k6NE"}), "roll=2,2")["shot"] == {
        "d": 4, "lines": [{"from": "c6", "to": "k6", "outcome": "short"}]}
    assert told(build({**QUIET, "G": "c6E"}), "roll=4,4")["shot"] == {
        "d": 8, "lines": [{"from": "c6", "to": None, "outcome": "clear"}]}
    chosen = build({**QUIET, "G": "c6E", "B": "e6NE"})
    choose = told(chosen, "roll=1,3")
    assert choose == {"shot": {"d": 4, "lines": [{"from": "c6", "to": "e6", "outcome": "choose"}]}}
    assert told(chosen, "xc6") == {"removed": ["c6"]}


def test_an_explosion_a_double_a_blank_and_the_hunters_aiming() -> None:
    boom = build({**QUIET, "G": "c6E", "B": "h6W", "K": "e4NE"})
    assert told(boom, "roll=0,0") == {"shot": {"d": 0, "explosion": True}}
    assert told(boom, "xc6") == {"removed": ["c6"]}
    assert told(build(QUIET, phase="roll"), "roll=2,2") == {"dice": [2, 2]}
    assert told(build(QUIET, phase="roll"), "roll=0,3") == {"still": True}
    aiming = build({"R": "c6NE", "Y": "k9W", "G": "h6W"}, phase="move", detail="1x1/1/-/-")
    assert told(aiming, "c6>E") == {"aim": ["c6", "h6"]}


def test_a_seat_out_and_the_end_of_the_hunt() -> None:
    st = build({"R": "c6E", "Y": "h6NE"}, seats="R,Y")
    assert told(st, "roll=1,4") == {"shot": {"d": 5, "lines": [{"from": "c6", "to": "h6", "outcome": "hit"}]},
                                    "removed": ["h6"], "out": [1], "over": True}


def test_the_lines_agree_with_the_rules_judgement() -> None:
    checked = 0
    for seed in range(40):
        st = random_game(3, seed=seed)
        start, actions = st.record().split(" ; ")
        cur = replay(f"{start} ; ")
        for action in actions.split():
            if cur.phase == PH_AIM:
                for d in range(1, 9):
                    args = (cur.hcell, cur.hface, cur.occ, cur.bush, cur.rules.overshoot)
                    acting = {(x.shooter, x.target, x.outcome) for x in lines(d, *args)
                              if x.outcome in ("hit", "both", "choose")}
                    judged = {(p.shooter, p.target, "choose" if p.choose else "both" if len(p.victims) == 2 else "hit")
                              for p in judge(d, *args)}
                    assert acting == judged, (cur.fen(), d)
                    checked += 1
            cur.play(action)
    assert checked > 100


def test_a_record_retold_gives_its_movers_events_and_open_positions() -> None:
    from halali.games.hare.record import open_positions, retell

    st = random_game(3, seed=5)
    told = retell(st.record(), positions=True)
    assert told.state.fen() == st.fen()
    assert len(told.movers) == len(st.history) and len(told.positions) == len(st.history) + 1
    assert told.positions == open_positions(st.record()) and all(p.endswith(" -") for p in told.positions)
    assert any("shot" in e for e in told.events.values()) and told.events[len(st.history) - 1]["over"]
    assert set(told.movers) == {0, 1, 2}
