"""Ratings with openskill (Plackett-Luce): a skill estimate ``mu`` and its uncertainty ``sigma``.

The number people see is conservative, ``1000 + 40 × (mu − 3σ)``: a new player starts at 1000 and
climbs as the estimate firms up, so a lucky first win does not top the ladder. A rating is
provisional until its player has finished ``PROVISIONAL_MATCHES`` rated matches.

The update runs inside the transaction that stores a match's last action, so a crash can never keep
the result and lose the rating change (or the other way round).
"""

from __future__ import annotations

from datetime import datetime

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from halali.store import schema as s
from halali.store.records import RatingChange, RatingRequest

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
PROVISIONAL_MATCHES = 5
BASE, SCALE = 1000, 40.0


def display(mu: float, sigma: float) -> int:
    """The conservative rating shown: three standard deviations below the estimate, scaled."""
    return BASE + round(SCALE * (mu - 3.0 * sigma))


def provisional(matches: int) -> bool:
    return matches < PROVISIONAL_MATCHES


def rate_pair(a: tuple[float, float], b: tuple[float, float], winner: int | None) -> tuple[tuple[float, float],
                                                                                          tuple[float, float]]:
    """New (mu, sigma) of two players after one match; ``winner`` 0, 1 or None for a draw."""
    ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner == 0 else [2.0, 1.0])
    na, nb = rate_many([a, b], ranks)
    return na, nb


def rate_many(old: list[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player after one game of several: lower rank is better, ties equal."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in old]
    new = MODEL.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in new]


def apply_rating(conn: Connection, req: RatingRequest, when: datetime) -> list[RatingChange]:
    """Rate a finished match inside the caller's transaction: every player's row and history.

    A player in several seats (one computer level filling two seats of a hare hunt) is rated once,
    with the best of its places; fewer than two different players tell nothing, so nothing changes."""
    best: dict[str, float] = {}
    for pid, rank in zip(req.players, req.seat_ranks(), strict=True):
        best[pid] = min(rank, best.get(pid, rank))
    if len(best) < 2:
        return []
    pids = list(best)
    rows = {r.player_id: r for r in conn.execute(
        select(s.ratings).where(s.ratings.c.game == req.game, s.ratings.c.player_id.in_(pids)))}
    old = [(rows[p].mu, rows[p].sigma) if p in rows else (MU, SIGMA) for p in pids]
    new = rate_many(old, [best[p] for p in pids])
    changes = []
    for pid, (mu0, sg0), (mu, sg) in zip(pids, old, new, strict=True):
        before, after = display(mu0, sg0), display(mu, sg)
        values = {"mu": mu, "sigma": sg, "rating": after, "updated_at": when}
        if pid in rows:
            conn.execute(update(s.ratings).where(s.ratings.c.player_id == pid, s.ratings.c.game == req.game)
                         .values(matches=rows[pid].matches + 1, **values))
        else:
            conn.execute(insert(s.ratings).values(player_id=pid, game=req.game, matches=1, **values))
        conn.execute(insert(s.rating_history).values(player_id=pid, game=req.game, match_id=req.match_id,
                                                     mu=mu, sigma=sg, rating=after, before=before,
                                                     created_at=when))
        changes.append(RatingChange(pid, before, after))
    return changes
