"""The hare hunt's rules on hand-built positions: board, setup, dice, movement, the end, and the rules' keys
(every shot case is in test_hare_shots.py)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import halali.games.hare as hare
from halali.games.errors import HalaliError, IllegalAction
from halali.games.hare import DEFAULT_RULES, HareState, action_str
from halali.games.hare.board import (
    BUSH_CELLS,
    CENTRE,
    DIST,
    INDEX_OF_NAME,
    NAMES,
    NCELLS,
    NEIGHBOUR,
    ON_AXIS,
    OUTER_RING,
    side_start,
)
from halali.games.hare.dice import ROLL_OUTCOMES, dice_from_secret
from halali.games.hare.legality import RULE_KEYS
from halali.games.hare.phases import PHASES
from hare_helpers import build, cells, rule_refusals, shot


def legal(st: HareState) -> list[str]:
    return sorted(action_str(a) for a in st.legal_actions())


# ---- the board ------------------------------------------------------------------------------
def test_board_has_91_cells_and_an_outer_ring_of_30() -> None:
    assert NCELLS == 91
    assert len(OUTER_RING) == 30
    assert NAMES[CENTRE] == "f6"
    assert len(BUSH_CELLS) == 12 + 18
    assert sum(ON_AXIS) == 30


def test_neighbours_are_symmetric_and_the_edge_has_fewer() -> None:
    for c in range(NCELLS):
        for d in range(6):
            n = NEIGHBOUR[c][d]
            if n >= 0:
                assert NEIGHBOUR[n][(d + 3) % 6] == c
        inside = sum(1 for n in NEIGHBOUR[c] if n >= 0)
        assert inside == 6 if DIST[c] < 5 else inside in (3, 4)


# ---- setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fresh_hunt(players: int) -> None:
    st = HareState.new(players, seed=players)
    assert st.phase == "bush"
    assert len(set(st.clubs)) == players
    if players == 6:
        assert sorted(st.clubs) == list(range(6))
    on_ring = [st.hcell[h] for h in st.hunters()]
    assert len(on_ring) == 18 and all(DIST[c] == 5 for c in on_ring)
    assert st.aiming() == []
    assert len(st.legal_actions()) == 30  # every cell at distance 2 or 3 is free
    for side in range(6):
        side_cells, face = side_start(side)
        assert len({st.occ[c] // 3 for c in side_cells}) == 1  # one club per side
        assert all(st.hface[st.occ[c]] == face for c in side_cells)


def test_setup_from_its_outcomes_is_the_hunt_new_deals() -> None:
    """``new`` draws the setup's outcomes and hands them to ``setup``: the same outcomes give the same
    hunt, which is how an interop layer that draws every chance event itself starts one."""
    st = HareState.new(3, seed=5)
    sides = [next(s for s in range(6) if side_start(s)[0][0] == st.hcell[club * 3]) for club in range(6)]
    again = HareState.setup(3, DEFAULT_RULES, sides, st.clubs, st.to_move, st.secret)
    assert again.fen() == st.fen() and again.start == st.start
    without_dice = HareState.setup(3, DEFAULT_RULES, sides, st.clubs, st.to_move)
    assert without_dice.secret is None and without_dice.fen().endswith(" -")
    with pytest.raises(HalaliError, match="own club card"):
        HareState.setup(3, DEFAULT_RULES, sides, [0, 0, 1], 0)
    with pytest.raises(HalaliError, match="permutation"):
        HareState.setup(3, DEFAULT_RULES, [0, 0, 1, 2, 3, 4], [0, 1, 2], 0)


def test_without_the_bush_the_first_player_rolls_at_once() -> None:
    st = HareState.new(3, DEFAULT_RULES.with_options(["bush=off"]), seed=1)
    assert st.phase == "roll" and st.bush == -1


def test_bush_goes_at_distance_2_or_3_on_an_empty_cell() -> None:
    st = HareState.new(2, seed=4)
    with pytest.raises(IllegalAction, match="distance 2 or 3"):
        st.play("bush=f7")
    st.play("bush=f8")
    assert st.bush == INDEX_OF_NAME["f8"] and st.phase == "roll"


def test_the_same_seed_gives_the_same_hunt() -> None:
    a, b = HareState.new(4, seed=9), HareState.new(4, seed=9)
    assert a.fen() == b.fen()
    for _ in range(6):
        a.play(a.legal_actions()[0])
        b.play(b.legal_actions()[0])
    assert a.history == b.history and a.fen() == b.fen()


# ---- dice -----------------------------------------------------------------------------------
def test_roll_outcomes_are_the_faces_blank_1_2_2_3_4() -> None:
    probs = dict(ROLL_OUTCOMES)
    assert len(probs) == 15
    assert sum(probs.values()) == pytest.approx(1.0)
    assert probs[(0, 0)] == pytest.approx(1 / 36)
    assert probs[(2, 2)] == pytest.approx(4 / 36)
    assert probs[(2, 3)] == pytest.approx(4 / 36)
    assert probs[(1, 3)] == pytest.approx(2 / 36)


def test_the_secret_rolls_each_face_about_as_often_as_the_die_has_it() -> None:
    counts = [0] * 5
    for n in range(3000):
        for face in dice_from_secret(0xABCDEF, n):
            counts[face] += 1
    for face, share in enumerate((1, 1, 2, 1, 1)):
        assert abs(counts[face] / 6000 - share / 6) < 0.03


def test_a_roll_of_2_and_3_offers_both_assignments() -> None:
    st = build({"R": "a3E", "Y": "k9W"}, phase="roll")
    st.play("roll=2,3")
    assert st.phase == "assign"
    assert legal(st) == ["2x3", "3x2"]
    st.play("3x2")
    assert st.assign == (3, 2) and st.left == 3


def test_a_double_needs_no_assignment_and_a_blank_no_movement() -> None:
    st = build({"R": "a3E", "Y": "k9W"}, phase="roll")
    st.play("roll=2,2")
    assert st.phase == "move" and st.assign == (2, 2)
    st = build({"R": "a3E", "Y": "k9W"}, phase="roll")
    st.play("roll=0,4")  # blank: no movement, nobody aims: next player
    assert st.phase == "roll" and st.to_move == 1 and st.quiet == 1


def test_a_full_position_rolls_its_own_dice_and_refuses_a_chosen_roll() -> None:
    st = HareState.new(2, DEFAULT_RULES.with_options({"bush": "off"}), seed=2)
    expected = dice_from_secret(st.secret, 0)  # type: ignore[arg-type]
    wrong = next(o for o, _ in ROLL_OUTCOMES if o != expected)
    before = st.fen()
    with pytest.raises(IllegalAction, match="rolled by the game"):
        st.play(f"roll={wrong[0]},{wrong[1]}")
    assert st.fen() == before
    st.play("roll")
    assert st.history == [f"roll={expected[0]},{expected[1]}"]


def test_a_view_takes_rolls_only_with_their_outcome() -> None:
    st = HareState.new(2, DEFAULT_RULES.with_options({"bush": "off"}), seed=2).view(0)
    with pytest.raises(IllegalAction, match="outcome"):
        st.play("roll")


# ---- movement -------------------------------------------------------------------------------
def test_rotating_costs_a_point() -> None:
    st = build({"R": "b4E", "Y": "k9W"}, phase="roll")
    st.play("roll=1,1")
    st.play("b4>NE")
    # one hunter, one point: spent on the turn, so the movement is over and the next player rolls
    assert "b4NE" in cells(st) and st.phase == "roll" and st.to_move == 1


def test_a_point_steps_straight_forward() -> None:
    st = build({"R": "c2E", "Y": "k9W"}, phase="roll")
    st.play("roll=1,2")
    st.play("1x2")
    assert legal(st) == ["c2-d2", "c2>NE", "c2>SE", "end", "k9-j9", "k9>NW", "k9>SW"]
    st.play("c2-d2")
    st.play("d2>NE")
    assert "d2NE" in cells(st) and st.phase == "roll"


@pytest.mark.parametrize(("hunters", "bush", "action", "rule"), [
    ({"R": "e6E", "Y": "k9W"}, "-", "e6-f6", "hare's cell"),
    ({"R": "e9SE", "Y": "k9W"}, "e8", "e9-e8", "bush's cell"),
    ({"R": "c2E", "Y": "d2W"}, "-", "c2-d2", "another hunter's cell"),
    ({"R": "c2E", "Y": "k9W"}, "-", "c2-c3", "steps straight forward"),
    ({"R": "c2E", "Y": "k9W"}, "-", "c2>W", "60 degrees"),
    ({"R": "c2E", "Y": "k9W"}, "-", "d4>W", "no hunter"),
])
def test_forbidden_steps_name_their_rule(hunters: dict[str, str], bush: str, action: str, rule: str) -> None:
    st = build(hunters, phase="move", detail="1x2/1/-/-", bush=bush)
    before = st.fen()
    assert action not in legal(st)
    with pytest.raises(IllegalAction, match=rule) as info:
        st.play(action)
    assert st.fen() == before
    assert info.value.key.startswith("rule.hare.") and info.value.key != "rule.hare.phase"


def test_a_hunter_at_the_edge_facing_out_can_only_turn() -> None:
    st = build({"R": "a3W", "Y": "k9W"}, phase="move", detail="1x2/1/-/-")
    assert [a for a in legal(st) if a.startswith("a3")] == ["a3>NW", "a3>SW"]


def test_up_to_n_different_hunters_and_points_do_not_carry_over() -> None:
    st = build({"R": "c2E,a3E", "Y": "k9W"}, phase="move", detail="2x2/2/-/-")
    st.play("c2>NE")  # the first hunter, one of its two points
    st.play("a3-b3")  # the second hunter: the first is done, its last point is lost
    with pytest.raises(IllegalAction, match="already moved"):
        st.play("c2>E")
    with pytest.raises(IllegalAction, match="2 different hunters"):
        st.play("k9>NW")
    st.play("b3>NE")
    # both hunters used and every point of the second spent: the movement is over
    assert st.phase == "roll" and cells(st) >= {"c2NE", "b3NE"}


def test_end_stops_the_movement_early() -> None:
    st = build({"R": "c2E", "Y": "k9W"}, phase="move", detail="2x4/2/-/-")
    st.play("c2-d2")
    st.play("end")
    assert st.phase == "roll" and st.to_move == 1


def test_moving_a_hunter_into_aim_brings_the_shot() -> None:
    st = build({"R": "c6NE,a3E", "Y": "k9W", "G": "h6NE"}, phase="move", detail="1x1/1/-/-")
    st.play("c6>E")
    assert st.phase == "aim" and st.to_move == 0 and legal(st) == ["roll"]


# ---- elimination and the end ----------------------------------------------------------------
def test_losing_the_last_hunter_puts_a_player_out_and_shows_his_club() -> None:
    st = shot({"R": "h6NE", "Y": "k9W", "G": "c6E", "B": "b1E"}, "1,4", seats="R,Y,B")
    assert st.out == [5, -1, -1] and st.phase == "roll" and st.to_move == 1
    assert st.view(2).fen().split()[2] == "R@5,?,B"
    assert st.view(None).fen().split()[2] == "?@5,?,?"  # spectators see no club until the end


def test_the_last_player_in_wins() -> None:
    st = shot({"R": "h6NE", "Y": "k9W", "G": "c6E"}, "1,4")
    assert st.is_over() and st.winners() == [1] and st.result() == [0.0, 1.0] and st.placings() == [2.0, 1.0]
    assert st.view(None).fen().split()[2] == "R@5,Y"  # at the end every club is shown
    with pytest.raises(IllegalAction, match="over"):
        st.play("roll")


def test_players_out_in_the_same_shot_share_when_nobody_else_is_left() -> None:
    st = shot({"R": "c6E", "Y": "h6W"}, "2,3")
    assert st.is_over() and st.result() == [0.5, 0.5] and st.placings() == [1.5, 1.5]


def test_the_safeguard_ends_the_hunt_after_60_quiet_rounds() -> None:
    st = build({"R": "a3E,b1E,c1E", "Y": "k9W,k8W"}, phase="roll", quiet=119)
    st.play("roll=0,1")
    assert st.is_over() and st.winners() == [0] and st.placings() == [1.0, 2.0]
    st = build({"R": "a3E,b1E", "Y": "k9W,k8W"}, phase="roll", quiet=118)
    st.play("roll=0,1")
    assert not st.is_over()
    st.play("roll=0,1")
    assert st.is_over() and st.result() == [0.5, 0.5]


def test_eliminated_players_are_skipped() -> None:
    st = shot({"R": "h6NE", "Y": "k9W", "B": "b1E", "G": "c6E"}, "1,4", seats="R,Y,B", to_move=3)
    assert st.to_move == 1  # seat 1 (index 0) is out: after seat 3 comes seat 2


def test_apply_leaves_the_given_state_unchanged() -> None:
    from halali.games.base import GAMES

    game = GAMES["hare"]
    st = game.new({}, 3, random.Random(5))
    before = st.fen()
    after = game.apply(st, game.legal_actions(st)[0])
    assert st.fen() == before and after.fen() != before
    with pytest.raises(IllegalAction):
        game.apply(st, "roll")
    assert st.fen() == before


# ---- the rules' keys ------------------------------------------------------------------------
def _illegal_actions_in_the_source() -> list[tuple[str, ast.expr | None, ast.expr | None]]:
    """Every ``IllegalAction(...)`` the engine's modules make: (where, key, params) as written."""
    found = []
    for path in sorted(Path(hare.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalAction":
                args: dict[str, ast.expr | None] = dict(zip(("message", "key", "params"), node.args, strict=False))
                args.update({k.arg: k.value for k in node.keywords if k.arg})
                found.append((f"{path.name}:{node.lineno}", args.get("key"), args.get("params")))
    return found


def test_every_refusal_in_the_source_names_a_listed_rule_with_its_params() -> None:
    found = _illegal_actions_in_the_source()
    raised = set()
    for where, key, params in found:
        assert key is not None, f"{where}: an IllegalAction without a rule key"
        if isinstance(key, ast.Attribute):  # replay passes on the key and params of the refusal it caught
            assert ast.unparse(key) == "exc.key" and params is not None and ast.unparse(params) == "exc.params", where
            continue
        assert isinstance(key, ast.Constant) and key.value in RULE_KEYS, where
        assert params is None or isinstance(params, ast.Dict), where
        names = set() if params is None else {k.value for k in params.keys if isinstance(k, ast.Constant)}
        assert names == set(RULE_KEYS[key.value]), (where, key.value, names)
        raised.add(key.value)
    assert raised == set(RULE_KEYS)


def test_every_listed_rule_is_met_in_play_with_its_params() -> None:
    refusals = rule_refusals()
    assert sorted(exc.key for exc in refusals) == sorted(RULE_KEYS)
    for exc in refusals:
        assert set(exc.params) == set(RULE_KEYS[exc.key]), exc.key
        assert all(isinstance(v, (str, int, list)) for v in exc.params.values()), exc.key
    phase = next(exc for exc in refusals if exc.key == "rule.hare.phase")
    assert phase.params["phase"] in PHASES and phase.params["phase"] != "over"
