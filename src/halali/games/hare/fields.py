"""The fields of a hare hunt's state, declared once, with the queries that read only them.

``HareState`` (``state.py``) calls the rules modules (``movegen.py``, ``turn.py``, ``legality.py``,
``results.py``), so they cannot import it back; yet they read and change its fields, call a few of
its queries (who aims, the shot's pairs, whom it may remove, the seats still in, a club's hunters)
and their type hints have to name them. :class:`StateFields` is where those fields and their types
are written, with the queries that need nothing but the fields: ``HareState`` subclasses it, and
the rules modules type their argument with it, importing this module instead of ``state.py``. Its
``__slots__`` are what keep a state free of an instance ``__dict__``.
"""

from __future__ import annotations

from collections.abc import Iterator

from halali.games.hare.clubs import NHUNTERS, PER_CLUB, UNKNOWN
from halali.games.hare.phases import PH_OVER, PH_SHOOT
from halali.games.hare.rules import HareRules
from halali.games.hare.shots import Pair, aiming, judge, pending


class StateFields:
    """What a hare hunt's state holds, and what can be read from that alone.

    Seats are numbered 0..n-1 here (1..n in the notation). ``clubs[p]`` is seat p's club or
    ``UNKNOWN`` in a view; ``out[p]`` is -1 while the seat plays, else the turn number in which it
    lost its last hunter. ``HareState.__init__`` gives every field its starting value; this class
    sets none.
    """

    __slots__ = (
        "assign",
        "bush",
        "chosen",
        "clubs",
        "cur",
        "cur_points",
        "dice",
        "done",
        "hcell",
        "hface",
        "history",
        "left",
        "nplayers",
        "occ",
        "out",
        "phase",
        "quiet",
        "rolls",
        "rules",
        "secret",
        "shot",
        "start",
        "to_move",
        "turn",
    )

    rules: HareRules
    nplayers: int
    hcell: list[int]
    hface: list[int]
    occ: list[int]
    bush: int
    clubs: list[int]
    out: list[int]
    to_move: int
    phase: str
    dice: tuple[int, int] | None
    assign: tuple[int, int] | None
    left: int
    cur: int
    cur_points: int
    done: list[int]
    shot: tuple[int, int] | None
    chosen: list[int]
    quiet: int
    turn: int
    secret: int | None
    rolls: int
    history: list[str]
    start: str | None

    # ---- queries ------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == PH_OVER

    def players_in(self) -> list[int]:
        return [p for p in range(self.nplayers) if self.out[p] < 0]

    def club_count(self, club: int) -> int:
        base = club * PER_CLUB
        return sum(1 for h in range(base, base + PER_CLUB) if self.hcell[h] >= 0)

    def hunters(self) -> Iterator[int]:
        return (h for h in range(NHUNTERS) if self.hcell[h] >= 0)

    def aiming(self) -> list[int]:
        return aiming(self.hcell, self.hface, self.bush)

    def knows_secrets(self) -> bool:
        """Whether this is a full position (every club card and the dice secret), not a view."""
        return self.secret is not None and UNKNOWN not in self.clubs

    def pairs(self) -> list[Pair]:
        """The pairs of the shot being resolved (empty outside the shot phase or for an explosion)."""
        if self.phase != PH_SHOOT or self.shot is None or self.shot == (0, 0):
            return []
        return judge(sum(self.shot), self.hcell, self.hface, self.occ, self.bush, self.rules.overshoot)

    def removable(self) -> list[int]:
        """Hunters the active player may remove now (shot phase)."""
        if self.phase != PH_SHOOT or self.shot is None:
            return []
        if self.shot == (0, 0):
            return [] if self.chosen else sorted(self.aiming(), key=lambda h: self.hcell[h])
        live, _ = pending(self.pairs(), self.chosen)
        return sorted(live, key=lambda h: self.hcell[h])
