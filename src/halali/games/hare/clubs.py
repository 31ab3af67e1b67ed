"""The six hunting clubs and their hunters, as the state numbers them.

Hunter ``h`` is the ``h % PER_CLUB``-th hunter of club ``h // PER_CLUB``, so a club's hunters are a
range of numbers and no table is needed to go from one to the other. A seat's club is its secret
card: ``UNKNOWN`` stands for a card a view does not show.
"""

from __future__ import annotations

NCLUBS = 6
PER_CLUB = 3
NHUNTERS = NCLUBS * PER_CLUB
CLUB_LETTERS = "RYGBWK"
CLUB_NAMES = ("red", "yellow", "green", "blue", "white", "black")
UNKNOWN = -1


def club_of(h: int) -> int:
    return h // PER_CLUB
