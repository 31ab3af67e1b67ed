"""The phases of a hare hunt's turn: what the player to move decides next.

The turn is cut into decisions a page or a bot can make one at a time (docs/hare.md), and the phase
names which one is due. They are plain strings, the very words of the notation's phase field.
"""

from __future__ import annotations

PH_BUSH, PH_ROLL, PH_ASSIGN, PH_MOVE, PH_AIM, PH_SHOOT, PH_OVER = (
    "bush", "roll", "assign", "move", "aim", "shoot", "over")
PHASES = (PH_BUSH, PH_ROLL, PH_ASSIGN, PH_MOVE, PH_AIM, PH_SHOOT, PH_OVER)
