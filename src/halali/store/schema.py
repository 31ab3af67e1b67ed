"""The tables as SQLAlchemy Core metadata; migrations/ holds the same schema as Alembic revisions."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", String(16), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("name", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

game_tables = Table(
    "game_tables", metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("rules", JSON, nullable=False),
    Column("state", String(16), nullable=False),
    Column("created_by", String(16), ForeignKey("players.id"), nullable=True),
    Column("test_seed", Integer, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_game_tables_state", "state"),
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=True),
    Column("bot_level", Integer, nullable=True),
)

matches = Table(
    "matches", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("winner_seat", Integer, nullable=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Index("ix_matches_table", "table_id", "number", unique=True),
)

games = Table(
    "games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("deal", Text, nullable=False),  # the full starting position: secret until the game is over
    Column("result", JSON, nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Index("ix_games_match", "match_id", "number", unique=True),
)

actions = Table(
    "actions", metadata,
    Column("game_id", Integer, ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("action", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("player_id", String(16), ForeignKey("players.id"), nullable=True),
    Column("text", Text, nullable=True),
    Column("key", String(40), nullable=True),
    Column("params", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_chat_table", "table_id", "id"),
)
