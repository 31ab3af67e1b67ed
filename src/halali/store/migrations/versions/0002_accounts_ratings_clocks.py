"""Accounts and sessions, ratings, the fair-deal salt and commitment, clocks, rated/unrated tables.

Session tokens move from ``players.token_hash`` (one per player) to ``sessions`` (any number per
player: an account logs in from several browsers). Downgrading keeps one session per player.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.execute("INSERT INTO sessions (token_hash, player_id, created_at) "
               "SELECT token_hash, id, created_at FROM players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_hash")
        batch.add_column(sa.Column("login", sa.String(40), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(200), nullable=True))
        batch.add_column(sa.Column("registered_at", TZ, nullable=True))
        batch.add_column(sa.Column("bot_level", sa.Integer, nullable=True))
    op.create_index("ix_players_login", "players", ["login"], unique=True)
    op.create_index("ix_players_bot_level", "players", ["bot_level"], unique=True)

    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("mode", sa.String(16), nullable=False, server_default="live"))
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("player0", sa.String(16), sa.ForeignKey("players.id", name="fk_matches_player0"),
                                   nullable=True))
        batch.add_column(sa.Column("player1", sa.String(16), sa.ForeignKey("players.id", name="fk_matches_player1"),
                                   nullable=True))
    op.create_index("ix_matches_player0", "matches", ["player0"])
    op.create_index("ix_matches_player1", "matches", ["player1"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("salt", sa.String(64), nullable=True))
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
        batch.add_column(sa.Column("started_at", TZ, nullable=True))
        batch.add_column(sa.Column("termination", sa.String(16), nullable=True))
        batch.add_column(sa.Column("headers", sa.JSON, nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("clock_ms", sa.Integer, nullable=True))

    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["game", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id", "game", "id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("clock_ms")
    with op.batch_alter_table("games") as batch:
        for name in ("headers", "termination", "started_at", "commitment", "salt"):
            batch.drop_column(name)
    op.drop_index("ix_matches_player1", "matches")
    op.drop_index("ix_matches_player0", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_constraint("fk_matches_player1", type_="foreignkey")
        batch.drop_constraint("fk_matches_player0", type_="foreignkey")
        for name in ("player1", "player0", "rated"):
            batch.drop_column(name)
    with op.batch_alter_table("game_tables") as batch:
        for name in ("clock", "mode", "rated"):
            batch.drop_column(name)

    # One session per player goes back into players.token_hash (the newest); a player without a
    # session (a computer player) gets the hash of a random token nobody holds.
    op.drop_index("ix_players_bot_level", "players")
    op.drop_index("ix_players_login", "players")
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    conn = op.get_bind()
    players = sa.table("players", sa.column("id"), sa.column("token_hash"))
    sessions = sa.table("sessions", sa.column("token_hash"), sa.column("player_id"), sa.column("created_at"))
    newest: dict[str, str] = {}
    for row in conn.execute(sa.select(sessions.c.player_id, sessions.c.token_hash).order_by(sessions.c.created_at)):
        newest[row.player_id] = row.token_hash
    for (pid,) in conn.execute(sa.select(players.c.id)):
        value = newest.get(pid) or secrets.token_hex(32)
        conn.execute(sa.update(players).where(players.c.id == pid).values(token_hash=value))
    with op.batch_alter_table("players") as batch:
        for name in ("bot_level", "registered_at", "password_hash", "login"):
            batch.drop_column(name)
        batch.alter_column("token_hash", existing_type=sa.String(64), nullable=False)
        batch.create_unique_constraint("uq_players_token_hash", ["token_hash"])
    op.drop_index("ix_sessions_player", "sessions")
    op.drop_table("sessions")
