"""How the hare bots judge a position: what the coming shot is worth, and who stands exposed.

Everything is from the active player's side and linear in per-hunter utilities ``u[h]`` (what it is
worth to him that hunter h is removed: negative for his own club, positive for a club he believes
an opponent owns, about zero for a neutral one). Linearity is what lets a bot average over its
beliefs about the clubs once, in ``u``, instead of once per possible assignment.

Only hunters on the hare's three axes ever take part in a shot (a shooter faces the hare along an
axis, its partner stands on that axis), so a hunter's *exposure* is whether it stands on an axis
with no bush between it and the hare.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from halali.games.hare.actions import FACES
from halali.games.hare.board import CENTRE, DIST, NCELLS, NEIGHBOUR, RAYS, TOWARDS_HARE
from halali.games.hare.clubs import NHUNTERS, PER_CLUB, UNKNOWN
from halali.games.hare.shots import BETWEEN
from halali.games.hare.state import HareState


def _sum_distribution() -> list[float]:
    p = [0.0] * 9
    for a in FACES:
        for b in FACES:
            p[a + b] += 1 / 36
    return p


P_SUM = _sum_distribution()
"""P_SUM[d]: probability that the shot is d (d = 0 only for the double blank: a gun explodes)."""


def exposed(st: HareState, h: int) -> bool:
    c = st.hcell[h]
    return c >= 0 and TOWARDS_HARE[c] >= 0 and (st.bush < 0 or st.bush not in BETWEEN[c])


def exposure(st: HareState) -> list[float]:
    return [1.0 if exposed(st, h) else 0.0 for h in range(NHUNTERS)]


def _shooters(st: HareState) -> list[tuple[int, int, int, int]]:
    """(shooter, partner, delta, distance to the hare) for every aiming hunter; partner -1 if none."""
    hcell, hface, occ, bush = st.hcell, st.hface, st.occ, st.bush
    out = []
    for h in range(NHUNTERS):
        c = hcell[h]
        if c < 0 or TOWARDS_HARE[c] != hface[h] or (bush >= 0 and bush in BETWEEN[c]):
            continue
        t, delta = -1, 0
        for k, x in enumerate(RAYS[c][hface[h]], 1):
            if x == bush:
                break
            if occ[x] >= 0:
                t, delta = occ[x], k
                break
        out.append((h, t, delta, DIST[c]))
    return out


def _pair_table(info: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int, bool, bool]]:
    """Each aiming pair once, in ``info``'s order: (shooter, target, delta, shooter's distance to the
    hare, whether the target aims too, whether it aims back at this shooter). The shot's number only
    decides which of them act (``_pairs_at``), so a position's table serves every number."""
    aiming = {s for s, _, _, _ in info}
    partner = {s: t for s, t, _, _ in info}
    seen = set()
    table = []
    for s, t, delta, hd in info:
        if t < 0:
            continue
        key = (s, t) if s < t else (t, s)
        if key in seen:
            continue
        seen.add(key)
        table.append((s, t, delta, hd, t in aiming, t in aiming and partner.get(t) == s))
    return table


def _pairs_at(table: list[tuple[int, int, int, int, bool, bool]], d: int,
              choose_mode: bool) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """The pairs acting for shot d: (delta, shooter, target, victims); victims () means a choice."""
    pairs: list[tuple[int, int, int, tuple[int, ...]]] = []
    for s, t, delta, hd, target_aims, aims_back in table:
        if d == hd or d < delta:
            continue
        if d == delta:
            pairs.append((delta, s, t, (t, s) if target_aims else (t,)))
        elif choose_mode:
            pairs.append((delta, s, t, ()))
        else:
            pairs.append((delta, s, t, (t, s) if aims_back else (t,)))
    pairs.sort(key=lambda p: (p[0], p[3] != ()))
    return pairs


def shot_value(st: HareState, u: list[float]) -> float:
    """Expected utility of the shot that follows if the movement ends now, the active player choosing
    (greedily, pair by pair) the victim worth most to him; 0 when nobody aims."""
    info = _shooters(st)
    if not info:
        return 0.0
    choose_mode = st.rules.overshoot == "choose"
    total = P_SUM[0] * max(u[s] for s, _, _, _ in info)
    table = _pair_table(info)
    if not table:  # nobody aims at a partner: only the double blank's explosion counts
        return total
    for d in range(1, 9):
        removed: set[int] = set()
        value = 0.0
        for _, s, t, victims in _pairs_at(table, d, choose_mode):
            if victims:
                for v in victims:
                    if v not in removed:
                        removed.add(v)
                        value += u[v]
            elif s not in removed and t not in removed:
                v = s if u[s] >= u[t] else t
                removed.add(v)
                value += u[v]
        total += P_SUM[d] * value
    return total


def removal_chances(st: HareState) -> list[float]:
    """Per hunter, the chance that the coming shot removes it if the chooser picked at random."""
    out = [0.0] * NHUNTERS
    info = _shooters(st)
    if not info:
        return out
    for s, _, _, _ in info:
        out[s] += P_SUM[0] / len(info)
    choose_mode = st.rules.overshoot == "choose"
    table = _pair_table(info)
    for d in range(1, 9):
        hit: dict[int, float] = {}
        for _, s, t, victims in _pairs_at(table, d, choose_mode):
            if victims:
                for v in victims:
                    hit[v] = 1.0
            else:
                hit[s] = min(1.0, hit.get(s, 0.0) + 0.5)
                hit[t] = min(1.0, hit.get(t, 0.0) + 0.5)
        for v, p in hit.items():
            out[v] += P_SUM[d] * p
    return out


def club_risk(st: HareState, exposure_weight: float = 0.25) -> list[float]:
    """Per club: the hunters the coming shot may remove plus a share of those left standing exposed."""
    chances = removal_chances(st)
    risk = [0.0] * 6
    for h in range(NHUNTERS):
        if st.hcell[h] >= 0:
            risk[h // PER_CLUB] += chances[h] + (exposure_weight if exposed(st, h) else 0.0)
    return risk


def position_value(st: HareState, u: list[float], exposure_weight: float = 0.3) -> float:
    """What the position after the movement is worth to the active player: the coming shot, plus the
    hunters left exposed to later shots (good for opponents' hunters, bad for his own)."""
    v = shot_value(st, u)
    for h in range(NHUNTERS):
        if u[h] and exposed(st, h):
            v += exposure_weight * u[h]
    return v


# ---- risk over the next turns ----------------------------------------------------------------
RISK_BY_POINTS = (0.14, 0.10, 0.032, 0.030, 0.008)
"""Chance that a hunter is removed during one opponent's turn, by the points it takes to bring it onto
an exposed axis cell (measured over 40 three-player hunts between heuristic bots: 2234, 84, 3451,
4046 and 1822 hunter-turns)."""


@lru_cache(maxsize=128)
def points_to_exposure(bush: int) -> tuple[tuple[int, ...], ...]:
    """[cell][facing]: the fewest points (steps and turns, ignoring other hunters) that bring a hunter
    there onto a cell of the hare's axes not shielded by the bush."""
    far = len(RISK_BY_POINTS)
    dist = [[far] * 6 for _ in range(NCELLS)]
    queue: deque[tuple[int, int]] = deque()
    for c in range(NCELLS):
        if c != CENTRE and TOWARDS_HARE[c] >= 0 and (bush < 0 or bush not in BETWEEN[c]):
            for f in range(6):
                dist[c][f] = 0
                queue.append((c, f))
    while queue:
        c, f = queue.popleft()
        d = dist[c][f] + 1
        if d >= far:
            continue
        preds = [(c, (f + 1) % 6), (c, (f + 5) % 6)]
        back = NEIGHBOUR[c][(f + 3) % 6]
        if back >= 0 and back != CENTRE and back != bush:
            preds.append((back, f))
        for pc, pf in preds:
            if pc != CENTRE and pc != bush and dist[pc][pf] > d:
                dist[pc][pf] = d
                queue.append((pc, pf))
    return tuple(tuple(row) for row in dist)


def hunter_risk(st: HareState, h: int, cell: int, face: int) -> float:
    """Per opponent turn, the chance that hunter h standing on ``cell`` facing ``face`` is removed."""
    pts = points_to_exposure(st.bush)[cell][face]
    return RISK_BY_POINTS[pts] if pts < len(RISK_BY_POINTS) else 0.0


def graded_value(st: HareState, u: list[float], horizon: float) -> float:
    """The coming shot plus every hunter's chance of being removed over ``horizon`` opponent turns,
    graded by how many points it would take to bring it into a line of fire."""
    v = shot_value(st, u)
    points = points_to_exposure(st.bush)  # hunter_risk's table, looked up once for every hunter
    far = len(RISK_BY_POINTS)
    hcell, hface = st.hcell, st.hface
    for h in range(NHUNTERS):
        if u[h] and hcell[h] >= 0:
            pts = points[hcell[h]][hface[h]]
            v += horizon * u[h] * (RISK_BY_POINTS[pts] if pts < far else 0.0)
    return v


# ---- utilities ------------------------------------------------------------------------------
OWN_LOSS = 1.5
OWN_LAST = 8.0
OPPONENT_LAST = 3.0


def utilities(st: HareState, me: int, owner: list[list[float]]) -> list[float]:
    """Per hunter, the value to seat ``me`` of its removal, given ``owner[c][p]``: the probability that
    seat p holds club c (rows of clubs nobody holds sum to less than one)."""
    ins = st.players_in()
    n_in = len(ins)
    counts = [st.club_count(c) for c in range(6)]
    mean_own = sum(counts[c] * owner[c][p] for c in range(6) for p in ins if p != me) / max(1, n_in - 1)
    club_u = [0.0] * 6
    for c in range(6):
        if counts[c] == 0:
            continue
        if owner[c][me] > 0.5:
            club_u[c] = -(OWN_LAST if counts[c] == 1 else OWN_LOSS)
            continue
        v = 0.0
        for p in ins:
            if p == me or owner[c][p] == 0.0:
                continue
            gain = OPPONENT_LAST * (2.0 if n_in == 2 else 1.0) if counts[c] == 1 else 1.0
            v += owner[c][p] * gain * (1.0 + 0.15 * (counts[c] - mean_own))
        club_u[c] = v
    return [club_u[h // PER_CLUB] if st.hcell[h] >= 0 else 0.0 for h in range(NHUNTERS)]


def uniform_owner(st: HareState, me: int) -> list[list[float]]:
    """``owner[c][p]`` when nothing is inferred: every club a seat may hold is equally likely."""
    owner = [[0.0] * st.nplayers for _ in range(6)]
    known = {st.clubs[p] for p in range(st.nplayers) if st.clubs[p] != UNKNOWN}
    for p in range(st.nplayers):
        if st.clubs[p] != UNKNOWN:
            owner[st.clubs[p]][p] = 1.0
    unknown = [p for p in st.players_in() if st.clubs[p] == UNKNOWN]
    candidates = [c for c in range(6) if c not in known and st.club_count(c) > 0]
    for p in unknown:
        for c in candidates:
            owner[c][p] = 1.0 / len(candidates)
    return owner
