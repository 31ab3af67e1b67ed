"""Puzzles with Glicko-2 ratings, the players' puzzle ratings and first tries, the daily puzzle, and
the course's stars (``puzzles``, ``puzzle_themes``, ``puzzle_ratings``, ``puzzle_tries``,
``daily_puzzles``, ``mined_games``, ``learn_progress``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("position", sa.String(120), nullable=False),
        sa.Column("rules", sa.String(120), nullable=False, server_default=""),
        sa.Column("solution", sa.JSON, nullable=False),
        sa.Column("value", sa.Float, nullable=False),
        sa.Column("margin", sa.Float, nullable=False),
        sa.Column("proven", sa.Boolean, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("solved", sa.Integer, nullable=False, server_default="0"),
        sa.Column("source", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzles_position", "puzzles", ["position", "rules"], unique=True)
    op.create_index("ix_puzzles_rating", "puzzles", ["rating"])
    op.create_table(
        "puzzle_themes",
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("theme", sa.String(16), primary_key=True),
    )
    op.create_index("ix_puzzle_themes_theme", "puzzle_themes", ["theme", "puzzle_id"])
    op.create_table(
        "puzzle_ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "puzzle_tries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("player_before", sa.Float, nullable=False),
        sa.Column("player_after", sa.Float, nullable=False),
        sa.Column("puzzle_before", sa.Float, nullable=False),
        sa.Column("puzzle_after", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzle_tries_once", "puzzle_tries", ["player_id", "puzzle_id"], unique=True)
    op.create_index("ix_puzzle_tries_player", "puzzle_tries", ["player_id", "id"])
    op.create_table(
        "daily_puzzles",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.Integer, sa.ForeignKey("puzzles.id"), nullable=False),
    )
    op.create_table(
        "mined_games",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("puzzles", sa.Integer, nullable=False),
        sa.Column("mined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "learn_progress",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("lesson", sa.String(24), primary_key=True),
        sa.Column("task", sa.Integer, primary_key=True),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("learn_progress")
    op.drop_table("mined_games")
    op.drop_table("daily_puzzles")
    op.drop_index("ix_puzzle_tries_player", "puzzle_tries")
    op.drop_index("ix_puzzle_tries_once", "puzzle_tries")
    op.drop_table("puzzle_tries")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzle_themes_theme", "puzzle_themes")
    op.drop_table("puzzle_themes")
    op.drop_index("ix_puzzles_rating", "puzzles")
    op.drop_index("ix_puzzles_position", "puzzles")
    op.drop_table("puzzles")
