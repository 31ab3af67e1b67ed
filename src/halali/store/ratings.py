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
    ra, rb = MODEL.rating(mu=a[0], sigma=a[1]), MODEL.rating(mu=b[0], sigma=b[1])
    ranks = [0, 0] if winner is None else ([0, 1] if winner == 0 else [1, 0])
    [[na], [nb]] = MODEL.rate([[ra], [rb]], ranks=ranks)
    return (na.mu, na.sigma), (nb.mu, nb.sigma)


def apply_rating(conn: Connection, req: RatingRequest, when: datetime) -> list[RatingChange]:
    """Rate a finished match inside the caller's transaction; both players' rows and history."""
    p0, p1 = req.players
    if p0 == p1:  # a computer level against itself tells nothing about its strength
        return []
    rows = {r.player_id: r for r in conn.execute(
        select(s.ratings).where(s.ratings.c.game == req.game, s.ratings.c.player_id.in_([p0, p1])))}
    old = [(rows[p].mu, rows[p].sigma) if p in rows else (MU, SIGMA) for p in (p0, p1)]
    new = rate_pair(old[0], old[1], req.winner_seat)
    changes = []
    for pid, (mu0, sg0), (mu, sg) in zip((p0, p1), old, new, strict=True):
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
