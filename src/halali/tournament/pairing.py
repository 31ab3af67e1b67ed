"""Pairings: Swiss rounds for the forest game, seated tables for the hare hunt, round robins.

A Swiss round is one maximum-weight matching (networkx's blossom algorithm) on the complete graph
of the players, never a home-made search: whatever the field, it finds the best pairing under the
priorities, where a greedy pairer paints itself into a corner (the last two players have met) and
needs backtracking rules of its own. The priorities are costs on the edges, each multiplied so that
one unit of it outweighs every lower cost of a whole round together; the weights are integers
because the matching compares sums of weights, and sums of floats are not exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from halali.tournament.history import before, byes, meetings, scores
from halali.tournament.model import Entrant, Result, Round

TABLE_MIN, TABLE_MAX = 3, 6
_DUMMY = ("bye",)  # the bye's vertex: a tuple, so no player id can be it


def _standing_key(entrant: Entrant, score: float) -> tuple[float, float, str]:
    return (-score, -entrant.rating, entrant.id)


def _active(entrants: Sequence[Entrant], results: Sequence[Result], round: int) -> tuple[
        list[Entrant], dict[str, float], list[Result]]:
    """The players to pair in standing order, every score, and the results before ``round``."""
    if round < 1:
        raise ValueError(f"round must be 1 or more, not {round}")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant id appears twice")
    past = before(results, round)
    score = scores(past)
    active = sorted((e for e in entrants if not e.withdrawn), key=lambda e: _standing_key(e, score.get(e.id, 0.0)))
    return active, score, past


def _exact(values: Sequence[float]) -> tuple[list[int], int]:
    """Scores as integers on a common scale (half points in the forest, thirds and fifths at the
    hare's tables), so that squared differences are exact integers."""
    fractions = [Fraction(v).limit_denominator(720) for v in values]
    scale = math.lcm(*(f.denominator for f in fractions)) if fractions else 1
    return [int(f * scale) for f in fractions], scale


def pair_swiss(entrants: Sequence[Entrant], results: Sequence[Result], round: int) -> Round:
    """The Swiss pairing of round ``round`` for the entrants that are not withdrawn.

    Priorities, each absolute over the ones after it:

    1. With an odd count, the bye goes to a player without a bye yet (once everyone has had one,
       to one with the fewest), the lowest score first, then the lowest rating. This is settled
       before the matching: it ranks above everything else, so no later priority could change it.
       Players tied on all three stay candidates, and the matching picks among them through a bye
       vertex joined to each of them only, so that a tie is broken by rematches and score
       differences, not by id. (A bye vertex joined to everyone, weighted at the top, would pick
       the same player with weights larger by the whole range of bye preferences.)
    2. As few rematches as possible (pairs that met in a result of kind played or forfeit).
    3. Equal scores together: the least sum of squared score differences of the pairs.
    4. Inside a score group, its top half by rating against its bottom half (Dutch), and a pair
       across groups as close in the standing as it can be.
    """
    active, score, past = _active(entrants, results, round)
    if len(active) < 2:
        return Round((), active[0].id if active else None)
    met = meetings(past)
    candidates: list[Entrant] = []
    if len(active) % 2:
        had = byes(past)
        key = {e.id: (had[e.id], score.get(e.id, 0.0), e.rating) for e in active}
        best = min(key.values())
        candidates = [e for e in active if key[e.id] == best]

    points, _ = _exact([score.get(e.id, 0.0) for e in active])
    position = {e.id: i for i, e in enumerate(active)}
    groups: dict[int, list[str]] = {}
    for e, p in zip(active, points, strict=True):
        groups.setdefault(p, []).append(e.id)  # in rating order: ``active`` is sorted
    in_group = {pid: (i, len(members)) for members in groups.values() for i, pid in enumerate(members)}
    n = len(active)

    def dutch(a: str, b: str) -> int:
        (ia, size), (ib, _) = in_group[a], in_group[b]
        if points[position[a]] == points[position[b]]:
            return (2 * abs(ia - ib) - size) ** 2  # 0 when b sits half the group below a
        return abs(position[a] - position[b]) - 1

    max_dutch = n * n
    max_square = (max(points) - min(points)) ** 2
    pairs = n // 2 + 1
    w_dutch = 1
    w_square = pairs * max_dutch * w_dutch + 1
    w_rematch = pairs * (max_square * w_square + max_dutch) + 1
    top = w_rematch + max_square * w_square + max_dutch + 1  # every weight stays positive

    import networkx as nx  # at the first pairing: a server that runs no tournament never needs it

    graph = nx.Graph()
    for i, a in enumerate(active):
        for b in active[i + 1:]:
            cost = (w_rematch * (met[frozenset((a.id, b.id))] > 0)
                    + w_square * (points[position[a.id]] - points[position[b.id]]) ** 2
                    + w_dutch * dutch(a.id, b.id))
            graph.add_edge(a.id, b.id, weight=top - cost)
    for e in candidates:
        graph.add_edge(e.id, _DUMMY, weight=top)
    matching = nx.max_weight_matching(graph, maxcardinality=True)

    bye: str | None = None
    tables: list[tuple[str, ...]] = []
    for u, v in matching:
        if u == _DUMMY or v == _DUMMY:
            bye = v if u == _DUMMY else u
        else:
            tables.append(tuple(sorted((u, v), key=position.__getitem__)))
    if 2 * len(tables) + (bye is not None) != n:
        raise AssertionError("the matching left a player out")  # a complete graph has a perfect matching
    tables.sort(key=lambda t: position[t[0]])
    return Round(tuple(tables), bye)


def table_sizes(n: int, size: int = 4) -> list[int]:
    """``n`` players in tables of 3..6, their mean as close to ``size`` as it can be, sizes at most
    one apart, the bigger tables first."""
    if not TABLE_MIN <= size <= TABLE_MAX:
        raise ValueError(f"a table holds {TABLE_MIN} to {TABLE_MAX} players, not {size}")
    if n < TABLE_MIN:
        raise ValueError(f"a hare round needs at least {TABLE_MIN} players, not {n}")
    counts = range(-(-n // TABLE_MAX), n // TABLE_MIN + 1)  # every n >= 3 has one: 3, 4, 5 and 6 fill any n
    k = min(counts, key=lambda k: (abs(n / k - size), k))
    return [n // k + (i < n % k) for i in range(k)]


def seat_tables(entrants: Sequence[Entrant], results: Sequence[Result], round: int, size: int = 4) -> Round:
    """The hare hunt's round: every player that is not withdrawn at a table of 3..6, never a bye.

    Players are seated by standing (score, then rating) in consecutive groups, so the leaders hunt
    together; then two players of different tables swap while a swap lowers the repeated meetings
    (pairs at a table who have met before, counted as often as they met) without raising how far
    the scores at the tables spread (the sum of squared score differences of each table's pairs).
    Each accepted swap removes at least one repeat, so the search ends."""
    active, score, past = _active(entrants, results, round)
    n = len(active)
    sizes = table_sizes(n, size)
    count = meetings(past)
    ids = [e.id for e in active]  # players are their standing positions from here on
    met = [[count[frozenset((a, b))] if a != b else 0 for b in ids] for a in ids]
    points, _ = _exact([score.get(pid, 0.0) for pid in ids])
    far = [[(pa - pb) ** 2 for pb in points] for pa in points]
    where: list[int] = []
    for t, k in enumerate(sizes):
        where.extend([t] * k)
    # What each player would bring to each table: its repeats and its spread there.
    rep = [[0] * len(sizes) for _ in range(n)]
    spread = [[0] * len(sizes) for _ in range(n)]
    for p in range(n):
        for q in range(n):
            rep[p][where[q]] += met[p][q]
            spread[p][where[q]] += far[p][q]

    while True:
        best: tuple[int, int, int, int] | None = None
        for a in range(n):
            t1 = where[a]
            if not rep[a][t1]:
                continue  # a swap lowers the repeats only if one of its two players has some
            for b in range(n):
                t2 = where[b]
                if t2 == t1:
                    continue
                gain = rep[b][t1] + rep[a][t2] - rep[a][t1] - rep[b][t2] - 2 * met[a][b]
                widen = spread[b][t1] + spread[a][t2] - spread[a][t1] - spread[b][t2] - 2 * far[a][b]
                if gain < 0 and widen <= 0 and (best is None or (gain, widen) < best[:2]):
                    best = (gain, widen, a, b)
        if best is None:
            break
        _, _, a, b = best
        t1, t2 = where[a], where[b]
        where[a], where[b] = t2, t1
        for p in range(n):
            rep[p][t1] += met[p][b] - met[p][a]
            rep[p][t2] += met[p][a] - met[p][b]
            spread[p][t1] += far[p][b] - far[p][a]
            spread[p][t2] += far[p][a] - far[p][b]
    tables = [tuple(ids[p] for p in range(n) if where[p] == t) for t in range(len(sizes))]
    tables.sort(key=lambda t: ids.index(t[0]))
    return Round(tuple(tables))


def round_robin(ids: Sequence[str]) -> list[Round]:
    """Every round of a round robin by the circle method: the first player stays, the others turn
    one seat each round. An odd count plays with a bye seat, so each player sits out once; every
    pair meets exactly once, in ``n - 1`` rounds (``n`` with an odd count)."""
    if len(set(ids)) != len(ids):
        raise ValueError("an id appears twice")
    if len(ids) < 2:
        raise ValueError("a round robin needs at least two players")
    seats: list[str | None] = [*ids, None] if len(ids) % 2 else list(ids)
    n = len(seats)
    rounds = []
    for r in range(n - 1):
        tables: list[tuple[str, ...]] = []
        bye = None
        for i in range(n // 2):
            a, b = seats[i], seats[n - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a  # the fixed player is not always listed first
            if a is None or b is None:
                bye = a if b is None else b
            else:
                tables.append((a, b))
        rounds.append(Round(tuple(tables), bye))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds

