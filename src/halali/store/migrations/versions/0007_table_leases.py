"""Table leases (``table_leases``): in a cluster of server nodes, the node that owns a table, the
fencing token of its claim and when the claim runs out.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("token", sa.Integer, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_table_leases_expiry", "table_leases", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_table_leases_expiry", "table_leases")
    op.drop_table("table_leases")
