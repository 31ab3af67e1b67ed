"""Who wins a hare hunt, and every seat's place.

A hunt ends when at most one seat still has hunters, or at the safeguard (docs/hare.md); who wins
then and how the others rank follows from who is out and when, and from the hunters each seat has
left. The game interface, the server and the bots' arena all read them, so they are spelled out once.

It reads a state as the :class:`StateFields` it is built on (``fields.py``), so that this module
does not import ``state.py``, whose ``HareState`` offers these as methods.
"""

from __future__ import annotations

from halali.games.hare.clubs import UNKNOWN
from halali.games.hare.fields import StateFields
from halali.games.hare.phases import PH_OVER


def winners(st: StateFields) -> list[int]:
    """The seats that win (several share), once the hunt is over."""
    if st.phase != PH_OVER:
        return []
    ins = st.players_in()
    if len(ins) == 1:
        return ins
    if not ins:  # the last ones lost their hunters in the same shot: they share
        last = max(st.out)
        return [p for p in range(st.nplayers) if st.out[p] == last]
    counts = {p: own_count(st, p) for p in ins}  # the safeguard: most own hunters left
    best = max(counts.values())
    return [p for p in ins if counts[p] == best]


def own_count(st: StateFields, p: int) -> int:
    c = st.clubs[p]
    return st.club_count(c) if c != UNKNOWN else 0


def result(st: StateFields) -> list[float]:
    """Per seat: 1 for a lone winner, 0.5 for a shared win, 0 otherwise (once over)."""
    w = winners(st)
    share = 1.0 if len(w) == 1 else 0.5
    return [share if p in w else 0.0 for p in range(st.nplayers)]


def placings(st: StateFields) -> list[float]:
    """Per seat: 1 for first, ties sharing the mean of their places (once over).

    Winners first; at the safeguard the other players still in follow by their own hunters left;
    then the eliminated, the later out the better.
    """
    ins = st.players_in()
    if len(ins) >= 2:
        key = {p: (1, own_count(st, p)) for p in ins}
    else:
        key = {p: (1, 0) for p in ins}
    for p in range(st.nplayers):
        if st.out[p] >= 0:
            key[p] = (0, st.out[p])
    if not ins:  # the last ones out share the win, they rank as players still in
        for p in winners(st):
            key[p] = (1, 0)
    ordered = sorted(range(st.nplayers), key=lambda p: key[p], reverse=True)
    place: list[float] = [0.0] * st.nplayers
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and key[ordered[j]] == key[ordered[i]]:
            j += 1
        for p in ordered[i:j]:
            place[p] = (i + 1 + j) / 2
        i = j
    return place
