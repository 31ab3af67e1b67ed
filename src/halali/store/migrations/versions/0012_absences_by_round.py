"""Absences of a player who entered a running tournament again, put under the rounds actually missed.

Entering again after withdrawing once wrote the ½ for each missed round under rounds 1, 2, ...
instead of under the rounds missed, so a round could hold two results of one player and the
tournament could no longer be shown. This moves each such absence to the earliest round begun
that holds no result of that player, and drops it when there is none; nothing else changes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

tournaments = sa.table("tournaments", sa.column("id", sa.String), sa.column("round", sa.Integer))
pairings = sa.table("tournament_pairings", sa.column("id", sa.Integer), sa.column("tournament_id", sa.String),
                    sa.column("round", sa.Integer), sa.column("players", sa.JSON), sa.column("kind", sa.String))


def upgrade() -> None:
    conn = op.get_bind()
    begun = {r.id: r.round for r in conn.execute(sa.select(tournaments.c.id, tournaments.c.round))}
    rows = conn.execute(sa.select(pairings).order_by(pairings.c.tournament_id, pairings.c.round,
                                                     pairings.c.id)).all()
    held: dict[tuple[str, str], dict[int, list[tuple[int, str]]]] = {}
    for r in rows:
        for pid in r.players:
            held.setdefault((r.tournament_id, pid), {}).setdefault(r.round, []).append((r.id, r.kind))
    for (tid, _), rounds in held.items():
        for number in sorted(rounds):
            extra = [row_id for row_id, kind in rounds[number] if kind == "absent"][:len(rounds[number]) - 1]
            for row_id in extra:
                free = next((n for n in range(1, begun.get(tid, 0) + 1) if not rounds.get(n)), None)
                rounds[number] = [x for x in rounds[number] if x[0] != row_id]
                if free is None:
                    conn.execute(sa.delete(pairings).where(pairings.c.id == row_id))
                else:
                    rounds[free] = [(row_id, "absent")]
                    conn.execute(sa.update(pairings).where(pairings.c.id == row_id).values(round=free))


def downgrade() -> None:
    pass  # the absences stay where they belong
