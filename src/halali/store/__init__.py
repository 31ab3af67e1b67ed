"""Persistence: players and sessions, tables, every action, chat, ratings and game history.

Everything above this package talks to :class:`Store` and its plain records; nothing above knows SQL.
The database is chosen by URL (SQLite by default, PostgreSQL with ``postgresql+psycopg://...``), and
the schema is kept by Alembic migrations shipped inside the package and run at startup.
"""

from halali.store.accounts import NameTaken, hash_token
from halali.store.analyses import StoredAnalysis
from halali.store.bots import NotEligible
from halali.store.challenges import ChallengeRecord
from halali.store.leases import Lease, LeaseLost
from halali.store.records import (
    AccountRecord,
    ActionRecord,
    ActionWrite,
    ChatRecord,
    GameDetail,
    GameRecord,
    GameSummary,
    HuntDetail,
    HuntSummary,
    MatchRecord,
    PlayerRecord,
    RatingChange,
    RatingPoint,
    RatingRecord,
    RatingRequest,
    SeatRecord,
    TableRecord,
    TableSnapshot,
    TokenRecord,
)
from halali.store.repository import Store, sqlite_url

__all__ = [
    "AccountRecord", "ActionRecord", "ActionWrite", "ChallengeRecord", "ChatRecord", "GameDetail", "GameRecord",
    "GameSummary", "HuntDetail", "HuntSummary", "Lease", "LeaseLost", "MatchRecord", "NameTaken", "NotEligible",
    "PlayerRecord", "RatingChange", "RatingPoint", "RatingRecord", "RatingRequest", "SeatRecord", "Store",
    "StoredAnalysis", "TableRecord", "TableSnapshot", "TokenRecord", "hash_token", "sqlite_url",
]
