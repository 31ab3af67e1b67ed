"""Whether an action is legal in a hare hunt and, when it is not, which rule it breaks.

The refusal is for people as much as for programs: its English message says what the player may
do instead, and its ``key`` and ``params`` (:data:`RULE_KEYS`) let the page say the same in the
player's language. ``HareState.play`` and the notation's action parser check through here before
anything changes; ``push`` trusts its caller.

It reads a state as the :class:`StateFields` it is built on (``fields.py``), so that this module
does not import ``state.py``, whose ``HareState._check`` calls it.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.hare.actions import ASSIGN, BUSH, END, NO_OUTCOME, REMOVE, ROLL, STEP, TURN, Action, action_str
from halali.games.hare.board import BUSH_CELLS, CENTRE, DIRECTION_NAMES, NAMES, NEIGHBOUR, turn_left, turn_right
from halali.games.hare.dice import dice_from_secret
from halali.games.hare.fields import StateFields
from halali.games.hare.phases import PH_AIM, PH_ASSIGN, PH_BUSH, PH_MOVE, PH_OVER, PH_ROLL, PH_SHOOT

RULE_KEYS: dict[str, tuple[str, ...]] = {
    "rule.hare.over": (),
    "rule.hare.phase": ("phase",),
    "rule.hare.roll_outcome_missing": (),
    "rule.hare.roll_chosen": (),
    "rule.hare.assign": ("dice",),
    "rule.hare.bush_distance": ("cell",),
    "rule.hare.bush_occupied": ("cell",),
    "rule.hare.no_hunter": ("cell",),
    "rule.hare.explosion_choice": ("cell",),
    "rule.hare.shot_choice": ("cell", "allowed"),
    "rule.hare.points_spent": ("cell", "points"),
    "rule.hare.hunter_done": ("cell",),
    "rule.hare.hunters_used": ("hunters",),
    "rule.hare.turn_60": ("cell", "facing"),
    "rule.hare.step_forward": ("cell", "facing"),
    "rule.hare.enter_hare": (),
    "rule.hare.enter_bush": (),
    "rule.hare.enter_hunter": ("cell",),
}
"""Every rule an ``IllegalAction`` of the hare hunt names (its ``key``) with the ``params`` it carries.

The page translates each key (``web/i18n/*.json``, ``ruleText`` in ``web/js/common.js``). Params:
``phase`` the phase the action came in (never ``over``: that is ``rule.hare.over``), ``cell`` a cell
name, ``allowed`` the cells that may be chosen (``"e5, g7"``), ``facing`` a direction (``E``, ``NE``,
``NW``, ``W``, ``SW``, ``SE``), ``dice`` the two faces shown (``[2, 3]``), ``points`` and ``hunters``
numbers.
"""


def check_action(st: StateFields, a: Action) -> None:
    """Raise ``IllegalAction`` with the rule ``a`` breaks; return if it is legal."""
    kind = a[0]
    ph = st.phase
    text = action_str(a)
    if ph == PH_OVER:
        raise IllegalAction(f"{text}: the hunt is over", "rule.hare.over")
    expected = {
        PH_BUSH: "the starting player first places the bush (bush=CELL)",
        PH_ROLL: "the player to move first rolls the dice (roll)",
        PH_ASSIGN: "the player to move first chooses which die counts hunters (NxP)",
        PH_MOVE: "the player to move is moving hunters (CELL-CELL, CELL>DIR or end)",
        PH_AIM: "hunters aim at the hare: the shot is rolled next (roll)",
        PH_SHOOT: "the active player chooses whom the shot removes (xCELL)",
    }[ph]
    wanted = {PH_BUSH: BUSH, PH_ROLL: ROLL, PH_ASSIGN: ASSIGN, PH_AIM: ROLL, PH_SHOOT: REMOVE}.get(ph)
    if ph == PH_MOVE:
        if kind not in (STEP, TURN, END):
            raise IllegalAction(f"{text}: not now, {expected}", "rule.hare.phase", {"phase": ph})
    elif kind != wanted:
        raise IllegalAction(f"{text}: not now, {expected}", "rule.hare.phase", {"phase": ph})
    if kind == ROLL:
        if a[1] == NO_OUTCOME:
            if st.secret is None:
                raise IllegalAction(
                    "roll: this position does not hold the dice: write the roll with its outcome (roll=A,B)",
                    "rule.hare.roll_outcome_missing")
        elif st.secret is not None and (a[1], a[2]) != dice_from_secret(st.secret, st.rolls):
            raise IllegalAction(f"{text}: the dice are rolled by the game, not chosen: send roll",
                                "rule.hare.roll_chosen")
    elif kind == ASSIGN:
        dice = st.dice
        assert dice is not None  # rolled on the way into the assign phase, the only one ASSIGN passes
        if sorted((a[1], a[2])) != sorted(dice):
            raise IllegalAction(f"{text}: the dice show {dice[0]} and {dice[1]}"
                                " (one counts hunters, the other points per hunter)",
                                "rule.hare.assign", {"dice": list(dice)})
    elif kind == BUSH:
        c = a[1]
        if c not in BUSH_CELLS:
            raise IllegalAction(f"{text}: the bush goes on a cell at distance 2 or 3 from the hare",
                                "rule.hare.bush_distance", {"cell": NAMES[c]})
        if st.occ[c] >= 0:
            raise IllegalAction(f"{text}: the bush goes on an empty cell", "rule.hare.bush_occupied",
                                {"cell": NAMES[c]})
    elif kind == REMOVE:
        _check_remove(st, a, text)
    elif kind in (STEP, TURN):
        _check_point(st, a, text)


def _check_remove(st: StateFields, a: Action, text: str) -> None:
    h = st.occ[a[1]]
    if h < 0:
        raise IllegalAction(f"{text}: there is no hunter on {NAMES[a[1]]}", "rule.hare.no_hunter",
                            {"cell": NAMES[a[1]]})
    if h in st.removable():
        return
    if st.shot == (0, 0):
        raise IllegalAction(f"{text}: after a gun explodes the active player removes one of the aiming hunters",
                            "rule.hare.explosion_choice", {"cell": NAMES[a[1]]})
    allowed = ", ".join(NAMES[st.hcell[x]] for x in st.removable())
    raise IllegalAction(f"{text}: only the shooter or the partner of a shot longer than the distance between them"
                        f" may be chosen now ({allowed})", "rule.hare.shot_choice",
                        {"cell": NAMES[a[1]], "allowed": allowed})


def _check_point(st: StateFields, a: Action, text: str) -> None:
    cell = a[1]
    h = st.occ[cell]
    if h < 0:
        raise IllegalAction(f"{text}: there is no hunter on {NAMES[cell]}", "rule.hare.no_hunter",
                            {"cell": NAMES[cell]})
    assign = st.assign
    assert assign is not None  # set for the whole movement, the only phase a point passes check_action in
    if h == st.cur:
        if st.cur_points <= 0:
            raise IllegalAction(f"{text}: this hunter has spent its {assign[1]} points"
                                " (points do not carry over)", "rule.hare.points_spent",
                                {"cell": NAMES[cell], "points": assign[1]})
    elif h in st.done:
        raise IllegalAction(f"{text}: this hunter has already moved this turn; each moves once, its points in"
                            " one go", "rule.hare.hunter_done", {"cell": NAMES[cell]})
    elif st.left <= 0:
        raise IllegalAction(f"{text}: the dice allow {assign[0]} different hunters this turn"
                            " and they have moved", "rule.hare.hunters_used",
                            {"hunters": assign[0]})
    f = st.hface[h]
    if a[0] == TURN:
        if a[2] not in (turn_left(f), turn_right(f)):
            raise IllegalAction(f"{text}: a point turns a hunter by 60 degrees; it faces {DIRECTION_NAMES[f]}",
                                "rule.hare.turn_60", {"cell": NAMES[cell], "facing": DIRECTION_NAMES[f]})
        return
    t = NEIGHBOUR[cell][f]
    if a[2] != t:
        raise IllegalAction(f"{text}: a hunter steps straight forward; it faces {DIRECTION_NAMES[f]}"
                            + (f" (forward is {NAMES[t]})" if t >= 0 else " (the edge of the board)"),
                            "rule.hare.step_forward", {"cell": NAMES[cell], "facing": DIRECTION_NAMES[f]})
    if t == CENTRE:
        raise IllegalAction(f"{text}: a hunter may not enter the hare's cell", "rule.hare.enter_hare")
    if t == st.bush:
        raise IllegalAction(f"{text}: a hunter may not enter the bush's cell", "rule.hare.enter_bush")
    if st.occ[t] >= 0:
        raise IllegalAction(f"{text}: a hunter may not enter another hunter's cell", "rule.hare.enter_hunter",
                            {"cell": NAMES[t]})
