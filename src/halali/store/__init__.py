"""Persistence: tables, seats, matches, every action, chat and players.

Everything above this package talks to :class:`Store` and its plain records; nothing above knows SQL.
The database is chosen by URL (SQLite by default, anything SQLAlchemy speaks later), and the schema is
kept by Alembic migrations shipped inside the package and run at startup.
"""

from halali.store.records import (
    ActionRecord,
    ActionWrite,
    ChatRecord,
    GameRecord,
    MatchRecord,
    PlayerRecord,
    SeatRecord,
    TableRecord,
    TableSnapshot,
)
from halali.store.repository import Store, sqlite_url

__all__ = [
    "ActionRecord", "ActionWrite", "ChatRecord", "GameRecord", "MatchRecord", "PlayerRecord", "SeatRecord", "Store",
    "TableRecord", "TableSnapshot", "sqlite_url",
]
