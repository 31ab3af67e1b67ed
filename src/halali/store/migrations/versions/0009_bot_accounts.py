"""Bot accounts (``players.bot_account``) and their API tokens (``api_tokens``, only SHA-256 hashes).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot_account", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_hash", "api_tokens", ["token_hash"], unique=True)
    op.create_index("ix_api_tokens_player", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player", "api_tokens")
    op.drop_index("ix_api_tokens_hash", "api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot_account")
