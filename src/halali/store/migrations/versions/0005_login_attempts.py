"""Counted login and registration attempts (``attempts``), so a restart or a second server process
does not forget a rate limit. Keys are stored hashed: the table holds no names and no addresses.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_attempts_key", "attempts", ["kind", "key_hash", "at"])


def downgrade() -> None:
    op.drop_index("ix_attempts_key", "attempts")
    op.drop_table("attempts")
