"""Who sat where in each hare hunt (``match_seats``), so hunts have a history per player.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_seats",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=True),
    )
    op.create_index("ix_match_seats_player", "match_seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_match_seats_player", "match_seats")
    op.drop_table("match_seats")
