"""What an action brought about beyond itself: a shot's lines, the hunters removed, the seats out.

The notation says what a player chose (``roll=1,4``, ``xf3``), not what the dice did with it. Pages
tell every action in words (the table's moves list, chat and live region, a hunt's replay) and know
no rules, so the engine says it, once: this module compares the state before and after one action
and returns plain data that every seat may know (cells of hunters, numbers of seats). A seat that
is out has its club shown by the position itself; nothing here names a club.
"""

from __future__ import annotations

from typing import Any

from halali.games.hare.board import NAMES
from halali.games.hare.clubs import NHUNTERS
from halali.games.hare.fields import StateFields
from halali.games.hare.phases import PH_AIM, PH_ROLL
from halali.games.hare.shots import lines


def consequences(before: StateFields, after: StateFields, action: str) -> dict[str, Any]:
    """What ``action`` (as recorded, rolls with their outcome) did besides itself; {} when nothing.

    Keys, each present only when it says something: ``shot`` (the shot's length ``d`` and each aiming
    hunter's line: ``from``, ``to`` (or None), ``outcome``; or ``explosion``), ``dice`` (a double
    that set the movement itself: [hunters, points]), ``still`` (a blank: no movement this turn),
    ``aim`` (the hunters aiming at the hare once the movement is over), ``removed`` (cells of the
    hunters taken off), ``out`` (the seats that lost their last hunter), ``over`` (the hunt ended).
    """
    out: dict[str, Any] = {}
    if action.startswith("roll="):
        a, b = (int(x) for x in action[5:].split(","))
        if before.phase == PH_AIM:
            if a == b == 0:
                out["shot"] = {"d": 0, "explosion": True}
            else:
                told = lines(a + b, before.hcell, before.hface, before.occ, before.bush, before.rules.overshoot)
                cell = before.hcell
                out["shot"] = {"d": a + b, "lines": [
                    {"from": NAMES[cell[x.shooter]], "to": NAMES[cell[x.target]] if x.target >= 0 else None,
                     "outcome": x.outcome} for x in told]}
        elif before.phase == PH_ROLL and (a == 0 or b == 0):
            out["still"] = True
        elif before.phase == PH_ROLL and a == b:
            out["dice"] = [a, b]
    if after.phase == PH_AIM and before.phase != PH_AIM:
        out["aim"] = [NAMES[c] for c in sorted(after.hcell[h] for h in after.aiming())]
    removed = [before.hcell[h] for h in range(NHUNTERS) if before.hcell[h] >= 0 > after.hcell[h]]
    if removed:
        out["removed"] = [NAMES[c] for c in sorted(removed)]
    gone = [p for p in range(before.nplayers) if before.out[p] < 0 <= after.out[p]]
    if gone:
        out["out"] = gone
    if after.is_over() and not before.is_over():
        out["over"] = True
    return out
