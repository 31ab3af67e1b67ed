"""Who aims at the hare, and what a shot of length d does (docs/hare.md, "A turn", steps 2 and 3).

Kept apart from the state so that bots can judge a position's shots without playing them: every
function here reads the board (cells of hunters, facings, the bush) and returns plain data.
"""

from __future__ import annotations

from dataclasses import dataclass

from halali.games.hare.board import CENTRE, DIST, RAYS, TOWARDS_HARE


def _between(cell: int) -> tuple[int, ...]:
    d = TOWARDS_HARE[cell]
    if d < 0:
        return ()
    ray = RAYS[cell][d]
    return ray[: ray.index(CENTRE)]


BETWEEN: tuple[tuple[int, ...], ...] = tuple(_between(c) for c in range(len(DIST)))
"""For a cell on the hare's axes, the cells strictly between it and the hare."""


def aims(cell: int, face: int, bush: int) -> bool:
    """A hunter aims when its facing line reaches the hare; the bush blocks it, other hunters do not."""
    return TOWARDS_HARE[cell] == face and (bush < 0 or bush not in BETWEEN[cell])


def aiming(hcell: list[int], hface: list[int], bush: int) -> list[int]:
    """The hunters (ids) that aim at the hare."""
    return [h for h, c in enumerate(hcell) if c >= 0 and TOWARDS_HARE[c] == hface[h]
            and (bush < 0 or bush not in BETWEEN[c])]


def partner(cell: int, face: int, occ: list[int], bush: int) -> tuple[int, int]:
    """The first other hunter on the line of fire (through the hare to the bush or the edge) and its
    distance from the shooter; (-1, 0) when there is none."""
    for k, c in enumerate(RAYS[cell][face], 1):
        if c == bush:
            break
        h = occ[c]
        if h >= 0:
            return h, k
    return -1, 0


@dataclass(frozen=True, slots=True)
class Pair:
    """What one shooter's line does for a shot of length d.

    ``victims`` are removed whatever happens; when ``choose`` is true the active player removes one
    of ``shooter`` and ``target`` instead.
    """

    delta: int
    shooter: int
    target: int
    victims: tuple[int, ...]
    choose: bool


def judge(d: int, hcell: list[int], hface: list[int], occ: list[int], bush: int,
          overshoot: str) -> list[Pair]:
    """Every pair that does something for a shot of length ``d`` (not the explosion, d = 0), judged on
    the position before any removal, in the order of resolution: increasing delta (ties keep the
    shooter order; the active player orders ties through his choices, see ``pending``)."""
    shooters = aiming(hcell, hface, bush)
    aiming_set = set(shooters)
    partners = {s: partner(hcell[s], hface[s], occ, bush) for s in shooters}
    seen: set[frozenset[int]] = set()
    pairs: list[Pair] = []
    for s in shooters:
        t, delta = partners[s]
        if t < 0:
            continue
        key = frozenset((s, t))
        if key in seen:
            continue  # a pair counted from both ends counts once
        seen.add(key)
        if d == DIST[hcell[s]]:
            continue  # the hare dodges
        mutual = t in aiming_set and partners[t][0] == s
        if d == delta:
            pairs.append(Pair(delta, s, t, (t, s) if t in aiming_set else (t,), False))
        elif d > delta:
            if overshoot == "choose":
                pairs.append(Pair(delta, s, t, (), True))
            else:
                pairs.append(Pair(delta, s, t, (t, s) if mutual else (t,), False))
    pairs.sort(key=lambda p: p.delta)
    return pairs


def pending(pairs: list[Pair], chosen: list[int]) -> tuple[set[int], list[int]]:
    """Resolve ``pairs`` with the active player's ``chosen`` removals so far.

    Returns (hunters he may remove next, hunters removed so far); the first set is empty when the shot
    is fully resolved. Pairs go by increasing delta; within a tie the pairs where the player
    chooses come first, in the order of his choices, which offers every outcome any ordering of the
    tie could give. A pair one of whose hunters is already removed is spent.
    """
    removed = set(chosen)
    order = list(chosen)
    i = 0
    n = len(pairs)
    while i < n:
        j = i
        while j < n and pairs[j].delta == pairs[i].delta:
            j += 1
        group = pairs[i:j]
        live: set[int] = set()
        for p in group:
            if p.choose and p.shooter not in removed and p.target not in removed:
                live.add(p.shooter)
                live.add(p.target)
        if live:
            return live, order
        for p in group:
            for v in p.victims:
                if v not in removed:
                    removed.add(v)
                    order.append(v)
        i = j
    return set(), order


@dataclass(frozen=True, slots=True)
class Line:
    """What one aiming hunter's line of fire does for a shot of length d, told for the players.

    ``outcome`` is ``clear`` (no other hunter on the line), ``dodge`` (d is the distance to the hare),
    ``short`` (d falls short of the partner), ``hit`` (the partner is removed), ``both`` (shooter and
    partner are removed) or ``choose`` (the active player removes one of them). ``judge`` keeps the
    pairs that do something; a pair counted from both ends is told once, from the first shooter.
    """

    shooter: int
    target: int
    delta: int
    outcome: str


def lines(d: int, hcell: list[int], hface: list[int], occ: list[int], bush: int, overshoot: str) -> list[Line]:
    """Every aiming hunter's line for a shot of length ``d`` (not the explosion), in shooter order,
    judged on the position before any removal, as ``judge`` judges it."""
    shooters = aiming(hcell, hface, bush)
    aiming_set = set(shooters)
    partners = {s: partner(hcell[s], hface[s], occ, bush) for s in shooters}
    seen: set[frozenset[int]] = set()
    out: list[Line] = []
    for s in shooters:
        t, delta = partners[s]
        if t < 0:
            out.append(Line(s, -1, 0, "clear"))
            continue
        key = frozenset((s, t))
        if key in seen:
            continue
        seen.add(key)
        mutual = t in aiming_set and partners[t][0] == s
        if d == DIST[hcell[s]]:
            outcome = "dodge"
        elif d == delta:
            outcome = "both" if t in aiming_set else "hit"
        elif d > delta:
            outcome = "choose" if overshoot == "choose" else ("both" if mutual else "hit")
        else:
            outcome = "short"
        out.append(Line(s, t, delta, outcome))
    return out
