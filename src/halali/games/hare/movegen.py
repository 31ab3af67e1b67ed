"""The actions the player to move may choose in a hare hunt, and the chance outcomes of a roll.

What may be decided depends on the phase alone (docs/hare.md): a roll, which die counts hunters,
a point for a hunter that may still move, whom a shot removes, where the bush goes. Bots and the
game interface ask for them at every decision, so they are listed directly, phase by phase, rather
than found by trying actions against the checks in ``legality.py``; the tests hold the two to each
other.

It reads a state as the :class:`StateFields` it is built on (``fields.py``), so that this module
does not import ``state.py``, whose ``HareState`` offers these as methods.
"""

from __future__ import annotations

from halali.games.hare.actions import ASSIGN, BUSH, END_ACTION, REMOVE, ROLL_ACTION, STEP, TURN, Action, roll
from halali.games.hare.board import BUSH_CELLS, CENTRE, NEIGHBOUR, turn_left, turn_right
from halali.games.hare.clubs import NHUNTERS
from halali.games.hare.dice import ROLL_OUTCOMES
from halali.games.hare.fields import StateFields
from halali.games.hare.phases import PH_AIM, PH_ASSIGN, PH_BUSH, PH_MOVE, PH_ROLL, PH_SHOOT


def legal_actions(st: StateFields) -> list[Action]:
    """Every legal action of the player to move; rolls without their outcome."""
    ph = st.phase
    if ph in (PH_ROLL, PH_AIM):
        return [ROLL_ACTION]
    if ph == PH_MOVE:
        return _movement_actions(st)
    if ph == PH_ASSIGN:
        assert st.dice is not None  # rolled on the way into this phase
        a, b = st.dice
        return [(ASSIGN, a, b), (ASSIGN, b, a)]
    if ph == PH_SHOOT:
        return [(REMOVE, st.hcell[h], 0) for h in st.removable()]
    if ph == PH_BUSH:
        return [(BUSH, c, 0) for c in BUSH_CELLS if st.occ[c] < 0]
    return []


def _hunter_actions(st: StateFields, h: int, out: list[Action]) -> None:
    c = st.hcell[h]
    f = st.hface[h]
    t = NEIGHBOUR[c][f]
    if t >= 0 and t != CENTRE and t != st.bush and st.occ[t] < 0:
        out.append((STEP, c, t))
    out.append((TURN, c, turn_left(f)))
    out.append((TURN, c, turn_right(f)))


def _movement_actions(st: StateFields) -> list[Action]:
    out: list[Action] = [END_ACTION]
    if st.cur >= 0 and st.cur_points > 0:
        _hunter_actions(st, st.cur, out)
    if st.left > 0:
        done = st.done
        for h in range(NHUNTERS):
            if st.hcell[h] >= 0 and h != st.cur and h not in done:
                _hunter_actions(st, h, out)
    return out


def chance_outcomes(st: StateFields) -> list[tuple[Action, float]]:
    """The outcomes of the roll due now with their probabilities (empty if no roll is due)."""
    if st.phase not in (PH_ROLL, PH_AIM):
        return []
    return [(roll(a, b), p) for (a, b), p in ROLL_OUTCOMES]
