"""What an action does to a hare hunt: the turn, one decision at a time.

A turn is cut into small decisions (roll, choose which die counts hunters, spend points on one
hunter after another, end the movement, roll the shot, choose whom it removes), and ``push`` plays
one of them. The steps that need nobody's choice (no movement after a blank, no shot when no hunter
aims, removing the hunters a shot leaves no choice about, the end of the turn and of the hunt) happen
inside the action that brings them about, so they are never recorded as actions of their own.

It reads and changes a state as the :class:`StateFields` it is built on (``fields.py``), so that
this module does not import ``state.py``, whose ``HareState.push`` calls it.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.hare.actions import ASSIGN, BUSH, END, NO_OUTCOME, REMOVE, ROLL, STEP, TURN, Action, action_str, roll
from halali.games.hare.clubs import UNKNOWN
from halali.games.hare.dice import dice_from_secret
from halali.games.hare.fields import StateFields
from halali.games.hare.phases import PH_AIM, PH_ASSIGN, PH_MOVE, PH_OVER, PH_ROLL, PH_SHOOT
from halali.games.hare.rules import SAFEGUARD_ROUNDS
from halali.games.hare.shots import pending


def push(st: StateFields, a: Action) -> Action:
    """Play an action known to be legal (``play`` checks); a roll without outcome is rolled here."""
    kind = a[0]
    if kind == ROLL and a[1] == NO_OUTCOME:
        if st.secret is None:
            raise IllegalAction("this position does not hold the dice: write the roll with its outcome (roll=A,B)",
                                "rule.hare.roll_outcome_missing")
        a = roll(*dice_from_secret(st.secret, st.rolls))
    st.history.append(action_str(a))
    if kind == ROLL:
        st.rolls += 1
        if st.phase == PH_ROLL:
            _movement_roll(st, a[1], a[2])
        else:
            st.shot = (a[1], a[2])
            st.chosen = []
            st.phase = PH_SHOOT
            _resolve(st)
    elif kind == ASSIGN:
        _start_movement(st, a[1], a[2])
    elif kind in (STEP, TURN):
        _spend_point(st, a)
    elif kind == END:
        _after_movement(st)
    elif kind == REMOVE:
        st.chosen.append(st.occ[a[1]])
        _resolve(st)
    elif kind == BUSH:
        st.bush = a[1]
        st.phase = PH_ROLL
    return a


def _movement_roll(st: StateFields, a: int, b: int) -> None:
    if a == 0 or b == 0:
        _after_movement(st)  # a blank: no movement this turn
    elif a == b:
        _start_movement(st, a, a)
    else:
        st.dice = (a, b)
        st.phase = PH_ASSIGN


def _start_movement(st: StateFields, hunters: int, points: int) -> None:
    st.dice = None
    st.assign = (hunters, points)
    st.left = hunters
    st.cur = -1
    st.cur_points = 0
    st.done = []
    st.phase = PH_MOVE


def _spend_point(st: StateFields, a: Action) -> None:
    h = st.occ[a[1]]
    if h != st.cur:
        if st.cur >= 0:
            st.done.append(st.cur)
        st.cur = h
        st.left -= 1
        assert st.assign is not None  # set for the whole movement
        st.cur_points = st.assign[1]
    if a[0] == STEP:
        st.occ[a[1]] = -1
        st.occ[a[2]] = h
        st.hcell[h] = a[2]
    else:
        st.hface[h] = a[2]
    st.cur_points -= 1
    if st.cur_points == 0 and st.left == 0:
        _after_movement(st)


def _after_movement(st: StateFields) -> None:
    st.dice = None
    st.assign = None
    st.left = 0
    st.cur = -1
    st.cur_points = 0
    st.done = []
    if st.aiming():
        st.phase = PH_AIM
    else:
        _end_turn(st, [])


def _resolve(st: StateFields) -> None:
    """Carry the shot as far as the rules go without a choice; stop at the next choice."""
    if st.shot == (0, 0):  # a gun explodes: the active player removes one aiming hunter
        if st.chosen:
            _end_turn(st, st.chosen)
        return
    live, removed = pending(st.pairs(), st.chosen)
    if not live:
        _end_turn(st, removed)


def _end_turn(st: StateFields, removed: list[int]) -> None:
    for h in removed:
        st.occ[st.hcell[h]] = -1
        st.hcell[h] = -1
    st.shot = None
    st.chosen = []
    if removed:
        for p in range(st.nplayers):
            c = st.clubs[p]
            if st.out[p] < 0 and c != UNKNOWN and st.club_count(c) == 0:
                st.out[p] = st.turn  # his club card is shown (see HareState.view)
        st.quiet = 0
    else:
        st.quiet += 1
    st.turn += 1
    ins = st.players_in()
    if len(ins) <= 1 or st.quiet >= SAFEGUARD_ROUNDS * len(ins):
        st.phase = PH_OVER
        return
    p = st.to_move
    while True:
        p = (p + 1) % st.nplayers
        if st.out[p] < 0:
            break
    st.to_move = p
    st.phase = PH_ROLL
