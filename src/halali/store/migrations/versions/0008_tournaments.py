"""Swiss tournaments: ``tournaments``, their entries and their pairings, and the tables they seat.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created_by", sa.String(16), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("pace", sa.String(16), nullable=False),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("interval", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("entry", sa.JSON, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False, server_default="2"),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("next_at", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("joined_round", sa.Integer, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("bot_level", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("points", sa.JSON, nullable=True),
        sa.Column("games", sa.JSON, nullable=True),
        sa.Column("tiles", sa.JSON, nullable=True),
    )
    op.create_index("ix_tournament_pairings_round", "tournament_pairings", ["tournament_id", "round", "board"])
    op.create_index("ix_tournament_pairings_table", "tournament_pairings", ["table_id"])
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("tournament_id", sa.String(16), nullable=True))
        batch.create_foreign_key("fk_game_tables_tournament", "tournaments", ["tournament_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_constraint("fk_game_tables_tournament", type_="foreignkey")
        batch.drop_column("tournament_id")
    op.drop_index("ix_tournament_pairings_table", "tournament_pairings")
    op.drop_index("ix_tournament_pairings_round", "tournament_pairings")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_state", "tournaments")
    op.drop_table("tournaments")
