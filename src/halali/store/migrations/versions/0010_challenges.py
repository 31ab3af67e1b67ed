"""Challenges (``challenges``): open ones are stored, seen on every node and kept over a restart.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("challenger", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("challenged", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_challenger", "challenges", ["challenger"])
    op.create_index("ix_challenges_challenged", "challenges", ["challenged"])
    op.create_index("ix_challenges_expiry", "challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_challenges_expiry", "challenges")
    op.drop_index("ix_challenges_challenged", "challenges")
    op.drop_index("ix_challenges_challenger", "challenges")
    op.drop_table("challenges")
